package slack

import (
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

func TestGuardMarks(t *testing.T) {
	const j = "\u2060"
	tests := []struct{ name, in, want string }{
		{"no marks", "plain words", "plain words"},
		{"pair", "*not bold*", j + "*not bold*" + j},
		{"each mark", "_a_ ~b~ `c`", j + "_a_" + j + " " + j + "~b~" + j + " " + j + "`c`" + j},
		{"inside words", "snake_case_words file_names.txt 2*3*4 x~y~z", "snake_case_words file_names.txt 2*3*4 x~y~z"},
		{"between spaces", "2 * 3 = 6, a _ b", "2 * 3 = 6, a _ b"},
		{"after punctuation", "(*a*), \"_b_\"", "(" + j + "*a*" + j + "), \"" + j + "_b_" + j + "\""},
		{"could only open", "a *b", "a " + j + "*b"},
		{"could only close", "5*", "5*" + j},
		{"word edges on both sides", "see *.go", "see " + j + "*" + j + ".go"},
		{"unknown edges count as word edges", "*", j + "*" + j},
		{"a run shares its joiners", "__init__", j + "_" + j + "_init_" + j + "_" + j},
		{"accents are part of words", "e\u0301_x", "e\u0301_x"},
		{"CJK letters are part of words", "日本_語", "日本_語"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := guardMarks(tc.in); got != tc.want {
				t.Errorf("guardMarks(%q)\ngot  %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestMrkdwnLiteralMarksNeverPair: markdown whose markup characters are all escaped renders
// to mrkdwn in which Slack could pair none of them, wherever the text stands.
func TestMrkdwnLiteralMarksNeverPair(t *testing.T) {
	for _, md := range []string{
		"\\*not bold\\* \\_not italic\\_ \\~not struck\\~ \\`not code\\`",
		"\\*\\*\\*many\\*\\*\\* \\_\\_init\\_\\_ \\`\\`\\`fence\\`\\`\\` (\\*aside\\*) \\*.go",
		"- \\*item\\*\n  - \\_nested\\_\n\n> \\~quoted\\~ and\n> \\*two lines\\*",
		"[\\*link\\* \\_text\\_](https://x.io) and ![\\~alt\\~](https://x.io/a.png)",
		rendertest.EscapeMarkdown("*a* _b_ ~c~ `d` **e** __f__ ~~g~~ ``h`` ***i***"),
	} {
		out := Mrkdwn(md, testMentions)
		if pair := slackPair(out); pair != "" {
			t.Errorf("Mrkdwn(%q) = %q: Slack would format %q", md, out, pair)
		}
	}
}

// TestSlackPairModel shows that slackPair finds what Slack formats, so that its silence in
// the tests above means something.
func TestSlackPairModel(t *testing.T) {
	tests := []struct{ text, want string }{
		{"*bold*", "*bold*"},
		{"a _it_ b", "_it_"},
		{"(~s~).", "~s~"},
		{"x `c` y", "`c`"},
		{"\u200b*zwsp is a boundary*\u200b", "*zwsp is a boundary*"},
		{"*a\nb*", ""},
		{"2*3*4 snake_case_x", ""},
		{"2 * 3 * 4", ""},
		{"\u2060*joined*\u2060", ""},
		{"<https://x.io|*link*>", ""},
		{"```\n*code*\n```", ""},
	}
	for _, tc := range tests {
		if got := slackPair(tc.text); got != tc.want {
			t.Errorf("slackPair(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// slackPair finds markup in Slack text as Slack would read it, outside code blocks, inline
// code and <…> markup, and returns the first pair of marks with what they enclose, or "".
// It models Slack's rule independently of guardMarks: a mark opens after the start of the
// line, a space, punctuation, a symbol or a zero-width space (which Slack treats as a word
// boundary) when a non-space follows, and closes after a non-space when the end of the line
// or such a boundary follows; a word joiner is no boundary.
func slackPair(text string) string {
	for _, line := range rendertest.TextLines(text) {
		if p := linePair([]rune(line)); p != "" {
			return p
		}
	}
	return ""
}

func linePair(l []rune) string {
	boundary := func(i int) bool {
		if i < 0 || i >= len(l) {
			return true
		}
		r := l[i]
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || r == '\u200b'
	}
	space := func(i int) bool { return i >= 0 && i < len(l) && unicode.IsSpace(l[i]) }
	open := map[rune]int{} // mark → index of an opener waiting for its closer
	for i := 0; i < len(l); i++ {
		r := l[i]
		if r == '<' { // Slack markup: links, mentions
			for i < len(l) && l[i] != '>' {
				i++
			}
			continue
		}
		if !strings.ContainsRune(slackMarks, r) {
			continue
		}
		if o, ok := open[r]; ok && i > o+1 && !space(i-1) && boundary(i+1) {
			return string(l[o : i+1])
		}
		if boundary(i-1) && i+1 < len(l) && !space(i+1) {
			if _, ok := open[r]; !ok {
				open[r] = i
			}
		}
	}
	return ""
}

// BenchmarkMrkdwnLiterals renders text full of literal markup characters, in prose, links,
// lists and tables: the worst case for guardMarks.
func BenchmarkMrkdwnLiterals(b *testing.B) {
	one, err := os.ReadFile("testdata/mrkdwn/literals.md")
	if err != nil {
		b.Fatal(err)
	}
	md := strings.Repeat(string(one)+"\n", 50)
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		Mrkdwn(md, testMentions)
	}
}
