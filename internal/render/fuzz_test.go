package render

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzMrkdwn checks Mrkdwn, and Split on what it returns, against their promises for any
// input: no panic, valid UTF-8 out for valid in, Slack's angle brackets balanced, fences
// balanced in every part, no part over the limit, nothing lost; and, with every markup
// character of the input escaped, no '*', '_', '~' or '`' that Slack would pair.
func FuzzMrkdwn(f *testing.F) {
	addGoldenSeeds(f, "mrkdwn", 100, 500)
	f.Fuzz(func(t *testing.T, md string, n int) {
		out := Mrkdwn(md, testMentions)
		if err := anglesBalanced(out); err != "" {
			t.Fatalf("%s in %q", err, clip(out))
		}
		checkRenderedSplit(t, md, out, 100+abs(n)%5000)
		literal := Mrkdwn(escapeMarkdown(md), testMentions)
		if pair := slackPair(literal); pair != "" {
			t.Fatalf("escaped text gave %q, which Slack would format, in %q", pair, clip(literal))
		}
	})
}

// checkRenderedSplit checks what a markdown dialect rendered from md, and Split on it with
// limit: valid UTF-8 out for valid in, fences balanced in the whole and in every part, no
// part over the limit, nothing lost.
func checkRenderedSplit(t *testing.T, md, out string, limit int) {
	t.Helper()
	if utf8.ValidString(md) && !utf8.ValidString(out) {
		t.Fatalf("valid input gave invalid UTF-8: %q", clip(out))
	}
	if c := fenceCount(out); c%2 != 0 {
		t.Fatalf("output has %d fence lines: %q", c, clip(out))
	}
	parts := Split(out, limit)
	if err := checkParts(out, parts, limit); err != nil {
		t.Fatalf("Split(_, %d): %v\ntext %q", limit, err, clip(out))
	}
	checkFencesBalanced(t, parts)
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
		limit := 1 + abs(n)%2000
		parts := Split(text, limit)
		if err := checkParts(text, parts, limit); err != nil {
			t.Fatalf("Split(_, %d): %v\ntext %q", limit, err, clip(text))
		}
		if fencesRepairable(text, limit) {
			checkFencesBalanced(t, parts)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1) // never negative, even for the smallest int
	}
	return n
}

// fencesRepairable reports whether Split can keep every part's fences balanced: the
// text's own fences are, and every fence line is short enough to be kept whole.
func fencesRepairable(text string, limit int) bool {
	if limit < 16 || fenceCount(text)%2 != 0 {
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
