package stack

import (
	"errors"
	"testing"
)

func TestPopEmpty(t *testing.T) {
	var s Stack
	if _, err := s.Pop(); !errors.Is(err, ErrEmpty) {
		t.Fatalf("Pop on empty: err = %v, want ErrEmpty", err)
	}
}

func TestAddTop(t *testing.T) {
	var s Stack
	s.Push(2)
	s.Push(3)
	if err := AddTop(&s); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Pop(); v != 5 {
		t.Fatalf("got %d, want 5", v)
	}
	s.Push(1)
	if err := AddTop(&s); !errors.Is(err, ErrEmpty) {
		t.Fatalf("AddTop with one item: err = %v, want ErrEmpty", err)
	}
}
