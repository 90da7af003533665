package stack

import "testing"

func TestPush(t *testing.T) {
	var s Stack
	s.Push(2)
	s.Push(3)
	if len(s.items) != 2 {
		t.Fatalf("got %d items, want 2", len(s.items))
	}
}
