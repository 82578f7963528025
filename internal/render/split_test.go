package render

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkParts says what is wrong with parts as the result of Split(text, max): a part
// that is empty, longer than max, or starts or ends with whitespace a cut left behind;
// or text lost, repeated or reordered. The fence lines Split adds where it cuts through
// a code block are taken out before comparing; apart from those, parts joined must give
// text back with only spaces and line breaks missing, and those only between parts or
// before the first.
func checkParts(text string, parts []string, limit int) error {
	if !hasNonSpace(text) {
		if parts != nil {
			return fmt.Errorf("got %d parts for blank text, want none", len(parts))
		}
		return nil
	}
	if len(parts) == 0 {
		return fmt.Errorf("got no parts for %d bytes of text", len(text))
	}
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n == 0 || n > limit {
			return fmt.Errorf("part %d has %d runes, want 1 to %d", i, n, limit)
		}
		first, _, _ := strings.Cut(p, "\n")
		if i > 0 && !hasNonSpace(first) {
			return fmt.Errorf("part %d starts with a blank line: %q", i, clip(p))
		}
		if i < len(parts)-1 && strings.TrimRight(p, " \t\r\n") != p {
			return fmt.Errorf("part %d ends with whitespace: %q", i, clip(p[max(0, len(p)-40):]))
		}
	}
	inFence := fenceOracle(text)
	failed := map[[2]int]bool{} // (part, offset) pairs known not to match
	var match func(i, at int) bool
	match = func(i, at int) bool {
		if i == len(parts) {
			return !hasNonSpace(text[at:])
		}
		if failed[[2]int{i, at}] {
			return false
		}
		for _, v := range contents(parts[i], i > 0 && inFence(at), i < len(parts)-1) {
			for k := at; k <= len(text); k++ {
				end := k + len(v.text)
				if strings.HasPrefix(text[k:], v.text) && (!v.closed || inFence(end)) && match(i+1, end) {
					return true
				}
				// Whitespace may be skipped where Split cut, and a run too long
				// to share a part with any text may be skipped anywhere.
				if k == len(text) || !strings.ContainsRune(" \t\r\n", rune(text[k])) {
					break
				}
			}
		}
		failed[[2]int{i, at}] = true
		return false
	}
	if !match(0, 0) {
		return fmt.Errorf("parts joined do not give the text back")
	}
	return nil
}

// content is what a part may hold of the text, and whether Split closed a code block
// after it.
type content struct {
	text   string
	closed bool
}

// contents lists what part may hold of the text: itself, or itself without the fence
// line Split reopened a code block with (when the text is inside one where the part
// begins), or without the "```" line Split closed one with (when there is a next part).
func contents(part string, reopened, more bool) []content {
	starts := []string{part}
	if first, rest, ok := strings.Cut(part, "\n"); reopened && ok && strings.HasPrefix(first, "```") {
		starts = append(starts, rest)
	}
	var out []content
	for _, s := range starts {
		out = append(out, content{text: s})
		if body, ok := strings.CutSuffix(s, "\n```"); more && ok {
			out = append(out, content{text: body, closed: true})
		}
	}
	return out
}

// fenceOracle returns whether offset x of text lies inside a code block: after an odd
// number of whole lines starting with ```.
func fenceOracle(text string) func(x int) bool {
	var ends []int
	start := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(l, "```") {
			ends = append(ends, start+len(strings.TrimSuffix(l, "\n")))
		}
		start += len(l)
	}
	return func(x int) bool { return sort.SearchInts(ends, x+1)%2 == 1 }
}

// fenceCount counts the lines of s that start with ```.
func fenceCount(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "```") {
			n++
		}
	}
	return n
}

func checkFencesBalanced(t *testing.T, parts []string) {
	t.Helper()
	for i, p := range parts {
		if n := fenceCount(p); n%2 != 0 {
			t.Errorf("part %d has %d fence lines, want an even number:\n%s", i, n, clip(p))
		}
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:150] + " … " + s[len(s)-150:]
	}
	return s
}

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
		if err := checkParts(text, parts, maxInt1(max)); err != nil {
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
			if err := checkParts(tc.text, got, 100); err != nil {
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
		if err := checkParts(text, parts, 100); err != nil {
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
	if err := checkParts(text, parts, 100); err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 {
		t.Errorf("got %d parts, want 2: %q", len(parts), parts)
	}
}

func TestSplitAvoidsInlineCode(t *testing.T) {
	text := strings.Repeat("y", 60) + " `go test -run TestSomething ./internal/render/...` after"
	parts := Split(text, 100)
	if err := checkParts(text, parts, 100); err != nil {
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
		if err := checkParts(text, parts, max); err != nil {
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
	if err := checkParts(text, parts, 200); err != nil {
		t.Fatal(err)
	}
	checkFencesBalanced(t, parts)
	if !strings.HasPrefix(parts[0], "Here is the code:\n\n```go\nline 00") {
		t.Errorf("first part = %q, want it to start with the text and the code", clip(parts[0]))
	}
	if last := parts[len(parts)-1]; !strings.HasSuffix(last, "```\n\nThat is all.") {
		t.Errorf("last part = %q, want it to end with the block's own fence and the text", clip(last))
	}
	for i, p := range parts[1:] {
		if !strings.HasPrefix(p, "```go\n") {
			t.Errorf("part %d does not reopen the block with its fence line: %q", i+1, clip(p))
		}
		if strings.HasPrefix(p, "```go\n```") || strings.HasSuffix(p, "```go\n```") {
			t.Errorf("part %d holds an empty code block: %q", i+1, clip(p))
		}
	}
}

func TestSplitMaxSmallerThanFenceLine(t *testing.T) {
	text := "Intro.\n\n```python-with-a-long-info-string\nprint('hi')\nprint('there')\n```\n\nDone."
	fenceLen := len("```python-with-a-long-info-string")
	for max := 1; max <= 2*fenceLen+20; max++ {
		parts := Split(text, max)
		if err := checkParts(text, parts, max); err != nil {
			t.Fatalf("max %d: %v\n%q", max, err, parts)
		}
		if max >= 2*fenceLen { // below that the fence line itself may be cut
			checkFencesBalanced(t, parts)
		}
	}
}

func TestSplitLongAnswer(t *testing.T) {
	text := Mrkdwn(longAnswer(50_000), testMentions)
	if n := utf8.RuneCountInString(text); n < 50_000 {
		t.Fatalf("long answer has %d runes, want at least 50,000", n)
	}
	parts := Split(text, 8000)
	if err := checkParts(text, parts, 8000); err != nil {
		t.Fatal(err)
	}
	checkFencesBalanced(t, parts)
	reopened := 0
	for _, p := range parts[1:] {
		if strings.HasPrefix(p, "```\n") {
			reopened++
		}
	}
	if len(parts) < 7 || reopened == 0 {
		t.Errorf("got %d parts, %d reopening a code block; want at least 7 and 1", len(parts), reopened)
	}
}

func TestSplitCheckerCatchesLoss(t *testing.T) {
	text := "one two three\n\nfour five six"
	if err := checkParts(text, []string{"one two", "three\n\nfour five six"}, 100); err != nil {
		t.Errorf("checkParts rejected a good split: %v", err)
	}
	for _, parts := range [][]string{
		{"one two three", "four five"},          // lost "six"
		{"one two three", "four five sixx"},     // added
		{"one two three", "one two three"},      // repeated
		{"four five six", "one two three"},      // reordered
		{"one two", "three four five six"},      // lost the blank line inside a part
		{"one two three\n", "four five six"},    // trailing whitespace left by the cut
		{"one two three", "```\nfour five six"}, // a fence line added outside any code block
	} {
		if err := checkParts(text, parts, 100); err == nil {
			t.Errorf("checkParts accepted %q", parts)
		}
	}
}

func BenchmarkSplit(b *testing.B) {
	text := Mrkdwn(longAnswer(50_000), testMentions)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Split(text, 4000)
	}
}
