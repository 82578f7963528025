package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

// FuzzSplit checks Split on any text and any limit: parts within the limit, none
// empty, nothing lost, and fences balanced where the text's own fences allow it.
func FuzzSplit(f *testing.F) {
	f.Add("hello world", 5)
	f.Add("para one\n\npara two with <https://x.io|a link> and `code span`", 20)
	f.Add("```go\nline one\nline two\nline three\n```\n\nafter", 16)
	f.Add(strings.Repeat("日本語😀", 50), 7)
	f.Add(rendertest.LongAnswer(1000), 300)
	f.Fuzz(func(t *testing.T, text string, n int) {
		limit := 1 + rendertest.Abs(n)%2000
		parts := Split(text, limit)
		if err := rendertest.CheckParts(text, parts, limit); err != nil {
			t.Fatalf("Split(_, %d): %v\ntext %q", limit, err, rendertest.Clip(text))
		}
		if fencesRepairable(text, limit) {
			rendertest.CheckFencesBalanced(t, parts)
		}
	})
}

// fencesRepairable reports whether Split can keep every part's fences balanced: the
// text's own fences are, and every fence line is short enough to be kept whole.
func fencesRepairable(text string, limit int) bool {
	if limit < 16 || rendertest.FenceCount(text)%2 != 0 {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") && 2*utf8.RuneCountInString(l) > limit {
			return false
		}
	}
	return true
}
