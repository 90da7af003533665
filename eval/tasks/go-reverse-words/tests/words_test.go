package words

import "testing"

func TestReverseWords(t *testing.T) {
	cases := map[string]string{
		"hello world":      "world hello",
		"hello  big world": "world big hello",
		"  padded\tline ":  "line padded",
		"":                 "",
	}
	for in, want := range cases {
		if got := ReverseWords(in); got != want {
			t.Errorf("ReverseWords(%q) = %q, want %q", in, got, want)
		}
	}
}
