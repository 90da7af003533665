package cache

import "testing"

func TestMissing(t *testing.T) {
	if _, ok := New().Get("nobody"); ok {
		t.Fatal("an empty cache returned a value")
	}
}
