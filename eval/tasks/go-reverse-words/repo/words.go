package words

import "strings"

// ReverseWords returns the words of s in reverse order.
func ReverseWords(s string) string {
	parts := strings.Split(s, " ")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, " ")
}
