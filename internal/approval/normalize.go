package approval

import "strings"

// normalize lowers text, trims spaces, a leading slash and trailing punctuation, so that
// "Yes!", " no. " and "/always" read as the words they are.
func normalize(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.TrimPrefix(t, "/")
	return strings.TrimRight(t, ".!👍 ")
}
