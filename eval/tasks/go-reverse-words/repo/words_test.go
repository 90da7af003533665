package words

import "testing"

func TestReverseWords(t *testing.T) {
	if got := ReverseWords("hello world"); got != "world hello" {
		t.Errorf("ReverseWords(%q) = %q, want %q", "hello world", got, "world hello")
	}
}
