package render

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

func TestSplitEdges(t *testing.T) {
	if got := Split("", 100); got != nil {
		t.Errorf("Split of empty text = %q, want nil", got)
	}
	if got := Split(" \n\n ", 100); got != nil {
		t.Errorf("Split of blank text = %q, want nil", got)
	}
	if got := Split("short *text*", 100); len(got) != 1 || got[0] != "short *text*" {
		t.Errorf("Split of short text = %q, want it unchanged", got)
	}
	for _, max := range []int{-5, 0, 1, 2, 3} {
		text := "ab cd\n\nef"
		parts := Split(text, max)
		if err := rendertest.CheckParts(text, parts, maxInt1(max)); err != nil {
			t.Errorf("max %d: %v (parts %q)", max, err, parts)
		}
	}
}

func maxInt1(n int) int { return max(n, 1) }

func TestSplitPrefersBlankLinesThenLineBreaksThenSpaces(t *testing.T) {
	para := strings.Repeat("word ", 14) + "end." // 74 runes
	tests := []struct {
		name, text string
		want       []string
	}{{
		name: "blank line in the second half",
		text: para + "\n" + "next line" + "\n\n" + para,
		want: []string{para + "\nnext line", para},
	}, {
		name: "a blank line too early gives way to a later line break",
		text: "intro\n\n" + para + "\n" + para,
		want: []string{"intro\n\n" + para, para},
	}, {
		name: "a space when no line breaks",
		text: para + " " + para,
		want: []string{para + " word word word word word", strings.Repeat("word ", 9) + "end."},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.text, 100)
			if err := rendertest.CheckParts(tc.text, got, 100); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Split =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestSplitKeepsLinksWhole(t *testing.T) {
	link := "<https://x.io/a?q=1|a link with words>" // 38 runes, under max/2
	for shift := range 30 {
		text := strings.Repeat("x", 40+shift) + " see " + link + " and more words after it"
		parts := Split(text, 100)
		if err := rendertest.CheckParts(text, parts, 100); err != nil {
			t.Fatalf("shift %d: %v", shift, err)
		}
		if !strings.Contains(strings.Join(parts, "\n"), link) {
			t.Errorf("shift %d: link was cut: %q", shift, parts)
		}
	}
}

func TestSplitCutsLinksLongerThanHalfMax(t *testing.T) {
	text := "<https://example.com/" + strings.Repeat("a", 150) + "|text>"
	parts := Split(text, 100)
	if err := rendertest.CheckParts(text, parts, 100); err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 {
		t.Errorf("got %d parts, want 2: %q", len(parts), parts)
	}
}

func TestSplitAvoidsInlineCode(t *testing.T) {
	text := strings.Repeat("y", 60) + " `go test -run TestSomething ./internal/render/...` after"
	parts := Split(text, 100)
	if err := rendertest.CheckParts(text, parts, 100); err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 || parts[0] != strings.Repeat("y", 60) {
		t.Errorf("Split = %q, want the code span kept whole in the second part", parts)
	}
}

func TestSplitMultibyteWithoutSpaces(t *testing.T) {
	text := strings.Repeat("日本語のテキスト😀🎉", 300)
	for _, max := range []int{7, 100, 101, 999} {
		parts := Split(text, max)
		if err := rendertest.CheckParts(text, parts, max); err != nil {
			t.Fatalf("max %d: %v", max, err)
		}
		for i, p := range parts {
			if !utf8.ValidString(p) {
				t.Fatalf("max %d: part %d is not valid UTF-8", max, i)
			}
		}
	}
}

func TestSplitReopensCodeBlocks(t *testing.T) {
	var code strings.Builder
	for i := range 40 {
		fmt.Fprintf(&code, "line %02d := compute(%d)\n", i, i)
	}
	text := "Here is the code:\n\n```go\n" + code.String() + "```\n\nThat is all."
	parts := Split(text, 200)
	if err := rendertest.CheckParts(text, parts, 200); err != nil {
		t.Fatal(err)
	}
	rendertest.CheckFencesBalanced(t, parts)
	if !strings.HasPrefix(parts[0], "Here is the code:\n\n```go\nline 00") {
		t.Errorf("first part = %q, want it to start with the text and the code", rendertest.Clip(parts[0]))
	}
	if last := parts[len(parts)-1]; !strings.HasSuffix(last, "```\n\nThat is all.") {
		t.Errorf("last part = %q, want it to end with the block's own fence and the text", rendertest.Clip(last))
	}
	for i, p := range parts[1:] {
		if !strings.HasPrefix(p, "```go\n") {
			t.Errorf("part %d does not reopen the block with its fence line: %q", i+1, rendertest.Clip(p))
		}
		if strings.HasPrefix(p, "```go\n```") || strings.HasSuffix(p, "```go\n```") {
			t.Errorf("part %d holds an empty code block: %q", i+1, rendertest.Clip(p))
		}
	}
}

func TestSplitMaxSmallerThanFenceLine(t *testing.T) {
	text := "Intro.\n\n```python-with-a-long-info-string\nprint('hi')\nprint('there')\n```\n\nDone."
	fenceLen := len("```python-with-a-long-info-string")
	for max := 1; max <= 2*fenceLen+20; max++ {
		parts := Split(text, max)
		if err := rendertest.CheckParts(text, parts, max); err != nil {
			t.Fatalf("max %d: %v\n%q", max, err, parts)
		}
		if max >= 2*fenceLen { // below that the fence line itself may be cut
			rendertest.CheckFencesBalanced(t, parts)
		}
	}
}

// TestSplitLongAnswer splits a long realistic answer as markdown, the markup of a platform
// whose Dialect leaves Format unset: parts within the limit, each with balanced fences, the
// code blocks cut reopened with their language, nothing lost.
func TestSplitLongAnswer(t *testing.T) {
	text := rendertest.LongAnswer(50_000)
	parts := Split(text, 8000)
	if err := rendertest.CheckParts(text, parts, 8000); err != nil {
		t.Fatal(err)
	}
	rendertest.CheckFencesBalanced(t, parts)
	reopened := 0
	for _, p := range parts[1:] {
		if strings.HasPrefix(p, "```go\n") {
			reopened++
		}
	}
	if len(parts) < 7 || reopened == 0 {
		t.Errorf("got %d parts, %d reopening a code block; want at least 7 and 1", len(parts), reopened)
	}
}

func BenchmarkSplit(b *testing.B) {
	text := rendertest.LongAnswer(50_000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Split(text, 4000)
	}
}
