package fakellm

import (
	"encoding/json"
	"unicode/utf8"
)

// estimateTokens guesses a request's size the way people do without a tokenizer: the
// characters of every string in its system prompt, messages and tools (but not the role and
// type names), divided by four.
// Base64 image data is left out: a real API counts an image as about a thousand tokens, not
// as its encoded size.
func estimateTokens(body []byte) int {
	var v map[string]any
	if json.Unmarshal(body, &v) != nil {
		return len(body) / 4
	}
	chars := 0
	for _, k := range []string{"system", "messages", "tools"} {
		chars += stringChars(v[k])
	}
	return (chars + 3) / 4
}

func stringChars(v any) int {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x)
	case []any:
		n := 0
		for _, e := range x {
			n += stringChars(e)
		}
		return n
	case map[string]any:
		if t, _ := x["type"].(string); t == "image" || t == "image_url" {
			return 4000
		}
		n := 0
		for k, e := range x {
			if k != "type" && k != "role" {
				n += stringChars(e)
			}
		}
		return n
	}
	return 0
}

// chunks splits s into pieces of at most n characters, on character boundaries, the way the
// real services stream text in many small deltas. An empty s gives no pieces.
func chunks(s string, n int) []string {
	if n <= 0 {
		n = 8
	}
	var out []string
	for s != "" {
		i, count := 0, 0
		for i < len(s) && count < n {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			count++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}
