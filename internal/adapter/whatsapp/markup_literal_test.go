//go:build !nowhatsapp

package whatsapp

import (
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

func TestMarkupText(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"no marks", "plain words", "plain words"},
		{"pair", "*not bold*", wj + "*" + wj + "not bold" + wj + "*" + wj},
		{"each mark", "_a_ ~b~ `c`", wj + "_" + wj + "a" + wj + "_" + wj + " " + wj + "~" + wj + "b" + wj + "~" + wj + " " + wj + "`" + wj + "c" + wj + "`" + wj},
		{"inside words", "snake_case_words file_names.txt 2*3*4 x~y~z", "snake_case_words file_names.txt 2*3*4 x~y~z"},
		{"between spaces", "2 * 3 = 6, a _ b", "2 * 3 = 6, a _ b"},
		{"after punctuation", "(*a*)", "(" + wj + "*" + wj + "a" + wj + "*" + wj + ")"},
		{"could only close", "5*", "5" + wj + "*" + wj},
		{"a run shares its joiners", "__init__", wj + "_" + wj + "_" + wj + "init" + wj + "_" + wj + "_" + wj},
		{"accents are part of words", "e\u0301_x", "e\u0301_x"},
		{"CJK letters are part of words", "日本_語", "日本_語"},
		{"quote marker", "> x", wj + "> x"},
		{"indented quote marker", "  > x", "  " + wj + "> x"},
		{"quote marker at the end", ">", wj + ">"},
		{"arrow is no quote", ">x", ">x"},
		{"dash bullet", "- x", wj + "- x"},
		{"star bullet at a line start", "a\n* x", "a\n" + wj + "* x"},
		{"number", "12. x", wj + "12. x"},
		{"number without a dot", "12 x", "12 x"},
		{"decimal", "1.5 x", "1.5 x"},
		{"every line", "a\n- b\n> c\n3. d", "a\n" + wj + "- b\n" + wj + "> c\n" + wj + "3. d"},
		{"mid-line markers", "a > b - c", "a > b - c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := markupText(tc.in); got != tc.want {
				t.Errorf("markupText(%q)\ngot  %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestMarkupLiteralMarksNeverPair: markdown whose markup characters are all escaped renders
// to WhatsApp text in which no mark could pair, wherever the text stands, whichever way a
// WhatsApp app reads the joiners.
func TestMarkupLiteralMarksNeverPair(t *testing.T) {
	t.Parallel()
	for _, md := range []string{
		"\\*not bold\\* \\_not italic\\_ \\~not struck\\~ \\`not code\\`",
		"\\*\\*\\*many\\*\\*\\* \\_\\_init\\_\\_ \\`\\`\\`fence\\`\\`\\` (\\*aside\\*) \\*.go",
		"- \\*item\\*\n  - \\_nested\\_\n\n> \\~quoted\\~ and\n> \\*two lines\\*",
		"[\\*link\\* \\_text\\_](https://x.io) and ![\\~alt\\~](https://x.io/a.png)",
		"\\# \\*heading\\*\n\n\\> \\- 1\\. \\* lines",
		rendertest.EscapeMarkdown("*a* _b_ ~c~ `d` **e** __f__ ~~g~~ ``h`` ***i***\n> q\n- l\n1. n"),
	} {
		out := Markup(md, markupMentions)
		for _, joinerBoundary := range []bool{false, true} {
			if pair := waPair(out, joinerBoundary); pair != "" {
				t.Errorf("Markup(%q) = %q: WhatsApp would format %q (joiners as boundaries: %v)", md, out, pair, joinerBoundary)
			}
		}
	}
}

// TestWAPairModel shows that waPair finds what WhatsApp formats, so that its silence in the
// tests above means something.
func TestWAPairModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text           string
		joinerBoundary bool
		want           string
	}{
		{"*bold*", false, "*bold*"},
		{"a _it_ b", false, "_it_"},
		{"(~s~).", false, "~s~"},
		{"x `c` y", false, "`c`"},
		{"*a\nb*", false, ""},
		{"2*3*4 snake_case_x", false, ""},
		{"2 * 3 * 4", false, ""},
		{"* a*", false, ""},
		{"\u200b*zwsp is a boundary*\u200b", false, "*zwsp is a boundary*"},
		{wj + "*joined*" + wj, false, ""},
		{wj + "*joined*" + wj, true, "*joined*"},
		{wj + "*" + wj + "joined" + wj + "*" + wj, true, ""},
		{wj + "*" + wj + "joined" + wj + "*" + wj, false, ""},
		{"```\n*code*\n```", false, ""},
	}
	for _, tc := range tests {
		if got := waPair(tc.text, tc.joinerBoundary); got != tc.want {
			t.Errorf("waPair(%q, %v) = %q, want %q", tc.text, tc.joinerBoundary, got, tc.want)
		}
	}
}

// waPair finds markup in WhatsApp text as WhatsApp would read it, outside code blocks, and
// returns the first pair of marks with what they enclose, or "". It models WhatsApp's rule
// independently of markupText: a mark opens after the start of the line, a space,
// punctuation, a symbol or a zero-width space when a non-space follows, and closes after a
// non-space when the end of the line or such a boundary follows. The word joiner is read one
// of two ways: as part of a word (joinerBoundary false), or as an invisible boundary
// (joinerBoundary true), next to which a mark has no text to style.
func waPair(text string, joinerBoundary bool) string {
	for _, line := range rendertest.TextLines(text) {
		if p := waLinePair([]rune(line), joinerBoundary); p != "" {
			return p
		}
	}
	return ""
}

func waLinePair(l []rune, joinerBoundary bool) string {
	at := func(i int) rune {
		if i < 0 || i >= len(l) {
			return -1
		}
		return l[i]
	}
	invisible := func(r rune) bool { return r == '\u2060' && joinerBoundary || r == '\u200b' }
	boundary := func(i int) bool {
		r := at(i)
		return r < 0 || unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || invisible(r)
	}
	text := func(i int) bool { // a character a style could start or end with
		r := at(i)
		return r >= 0 && !unicode.IsSpace(r) && !invisible(r)
	}
	open := map[rune]int{} // mark → index of an opener waiting for its closer
	for i, r := range l {
		if !strings.ContainsRune(waMarks, r) {
			continue
		}
		if o, ok := open[r]; ok && i > o+1 && text(i-1) && boundary(i+1) {
			return string(l[o : i+1])
		}
		if _, ok := open[r]; !ok && boundary(i-1) && text(i+1) {
			open[r] = i
		}
	}
	return ""
}

// blockLine returns the first line of text outside code blocks that WhatsApp would show as a
// quote or a list item, or "".
func blockLine(text string) string {
	for _, line := range rendertest.TextLines(text) {
		if startsBlock(strings.TrimLeft(line, " \t")) {
			return line
		}
	}
	return ""
}

// strayJoiner returns the index of the first word joiner in text that guards nothing: one
// beside no mark and before no quote or list marker; or -1.
func strayJoiner(text string) int {
	for i, r := range text {
		if r != '\u2060' {
			continue
		}
		before := strings.TrimRight(text[:i], "\u2060")
		after := strings.TrimLeft(text[i+len("\u2060"):], "\u2060")
		if before != "" && strings.ContainsRune(waMarks, rune(before[len(before)-1])) {
			continue
		}
		if after != "" && strings.ContainsAny(after[:1], waMarks+">-0123456789") {
			continue
		}
		return i
	}
	return -1
}

func TestStrayJoiner(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int{
		wj + "*a*" + wj:  -1,
		wj + "> a":       -1,
		"a" + wj + "b":   1,
		"a " + wj:        2,
		wj + wj + "_a_":  -1,
		"x" + wj + "1. ": -1,
	} {
		if got := strayJoiner(text); got != want {
			t.Errorf("strayJoiner(%q) = %d, want %d", text, got, want)
		}
	}
}

// BenchmarkMarkupLiterals renders text full of literal markup characters, in prose, links,
// lists and tables: the worst case for markupText.
func BenchmarkMarkupLiterals(b *testing.B) {
	one, err := os.ReadFile("testdata/markup/literals.md")
	if err != nil {
		b.Fatal(err)
	}
	md := strings.Repeat(string(one)+"\n", 50)
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		Markup(md, markupMentions)
	}
}
