package render

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

// FuzzMrkdwn checks Mrkdwn, and Split on what it returns, against their promises for any
// input: no panic, valid UTF-8 out for valid in, Slack's angle brackets balanced, fences
// balanced in every part, no part over the limit, nothing lost; and, with every markup
// character of the input escaped, no '*', '_', '~' or '`' that Slack would pair.
func FuzzMrkdwn(f *testing.F) {
	rendertest.AddGoldenSeeds(f, "mrkdwn", 100, 500)
	f.Fuzz(func(t *testing.T, md string, n int) {
		out := Mrkdwn(md, testMentions)
		if err := anglesBalanced(out); err != "" {
			t.Fatalf("%s in %q", err, rendertest.Clip(out))
		}
		rendertest.CheckRenderedSplit(t, md, out, Split, 100+rendertest.Abs(n)%5000)
		literal := Mrkdwn(rendertest.EscapeMarkdown(md), testMentions)
		if pair := slackPair(literal); pair != "" {
			t.Fatalf("escaped text gave %q, which Slack would format, in %q", pair, rendertest.Clip(literal))
		}
	})
}

// FuzzSplit checks Split on any text and any limit: parts within the limit, none
// empty, nothing lost, and fences balanced where the text's own fences allow it.
func FuzzSplit(f *testing.F) {
	f.Add("hello world", 5)
	f.Add("para one\n\npara two with <https://x.io|a link> and `code span`", 20)
	f.Add("```go\nline one\nline two\nline three\n```\n\nafter", 16)
	f.Add(strings.Repeat("日本語😀", 50), 7)
	realistic, err := os.ReadFile("testdata/mrkdwn/realistic.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(realistic), 300)
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

// anglesBalanced says what is wrong with the raw < and > in Slack text: each < must be
// closed by a > before the next <, and no > may stand alone except as the "> " that
// starts a quoted line.
func anglesBalanced(s string) string {
	open := false
	for i, r := range s {
		if r == '>' && !open && (i == 0 || s[i-1] == '\n') && strings.HasPrefix(s[i:], "> ") {
			continue
		}
		switch r {
		case '<':
			if open {
				return "< inside <...>"
			}
			open = true
		case '>':
			if !open {
				return "> without <"
			}
			open = false
		}
	}
	if open {
		return "unclosed <"
	}
	return ""
}
