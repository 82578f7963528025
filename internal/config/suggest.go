package config

import (
	"fmt"
	"strings"
)

// UnknownKey words the error for a key that is none of known, with a "did you mean" when it
// is near one, as config.json's errors have it: for the other files mom reads (a custom tool's
// tool.json), so that their typos are pointed out alike.
func UnknownKey(key string, known []string) string {
	if s := suggest(key, known); s != "" {
		return fmt.Sprintf("unknown key %q; did you mean %q? (known keys: %s)", key, s, strings.Join(known, ", "))
	}
	return fmt.Sprintf("unknown key %q (known keys: %s)", key, strings.Join(known, ", "))
}

// suggest returns the entry of known closest to word when it is near enough to be a typo
// ("bussy" for "busy", "baseURL" for "baseUrl"), or "".
func suggest(word string, known []string) string {
	best, bestDist := "", 0
	w := strings.ToLower(word)
	for _, k := range known {
		d := distance(w, strings.ToLower(k))
		if best == "" || d < bestDist {
			best, bestDist = k, d
		}
	}
	// Allow one edit for short words and two for longer ones; more would suggest nonsense.
	limit := 1
	if len(word) > 5 {
		limit = 2
	}
	if best == "" || bestDist > limit {
		return ""
	}
	return best
}

// distance is the edit distance between a and b, by bytes (keys are ASCII), counting a swap of
// two neighbouring letters as one edit, since "modle" is one slip from "model", not two.
func distance(a, b string) int {
	// Three rows of the optimal-string-alignment table: two back, previous, current.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
