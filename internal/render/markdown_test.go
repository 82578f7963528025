package render

import (
	"strings"
	"testing"

	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

// testMentions knows three people; everyone else stays plain text.
var testMentions = rendertest.Mentions(map[string]string{"alice": "<@U001>", "bob.smith": "<@U002>", "john_doe": "<@U003>"})

// bracketMarkup spells everything with visible tags. It shows that the walk assumes
// nothing about any platform: a new platform's markup is one small type like this.
type bracketMarkup struct{}

func (bracketMarkup) Escape(text string) string       { return strings.ReplaceAll(text, "[", `\[`) }
func (bracketMarkup) Strong(inner string) string      { return "[b]" + inner + "[/b]" }
func (bracketMarkup) Emphasis(inner string) string    { return "[i]" + inner + "[/i]" }
func (bracketMarkup) Strike(inner string) string      { return "[s]" + inner + "[/s]" }
func (bracketMarkup) Code(text string) string         { return "[code]" + text + "[/code]" }
func (bracketMarkup) Link(url, text string) string    { return "[url=" + url + "]" + text + "[/url]" }
func (bracketMarkup) ThematicBreak() string           { return "[hr]" }
func (bracketMarkup) FinishLine(s string) string      { return s }
func (bracketMarkup) Heading(n int, in string) string { return "[h" + string(rune('0'+n)) + "]" + in }
func (bracketMarkup) CodeBlock(lang, code string) []Line {
	lines := []Line{{Text: "[pre " + lang + "]", Verbatim: true}}
	for _, l := range strings.Split(code, "\n") {
		lines = append(lines, Line{Text: l, Verbatim: true})
	}
	return append(lines, Line{Text: "[/pre]", Verbatim: true})
}
func (bracketMarkup) Quote(body []Line, _ bool) []Line {
	out := []Line{{Text: "[quote]"}}
	out = append(out, body...)
	return append(out, Line{Text: "[/quote]"})
}

func TestWalkWithAnotherMarkup(t *testing.T) {
	md := "# Title *x*\n\nHi @alice, **bold *both*** ~~s~~ `c` [t](https://u) [x].\n\n" +
		"- a\n  1. b\n\n> q\n\n```go\nx\n```\n\n---"
	want := "[h1]Title x\n\n" +
		"Hi <@U001>, [b]bold [i]both[/i][/b] [s]s[/s] [code]c[/code] [url=https://u]t[/url] \\[x].\n\n" +
		"• a\n    1. b\n\n[quote]\nq\n[/quote]\n\n[pre go]\nx\n[/pre]\n\n[hr]"
	if got := Markdown(md, bracketMarkup{}, testMentions); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestUnescape(t *testing.T) {
	tests := map[string]string{
		`plain`:             "plain",
		`\*x\* \\ \a`:       `*x* \ \a`,
		`&amp;&lt;&gt;`:     "&<>",
		`&copy;&nosuch;`:    "©&nosuch;",
		`&#65;&#x41;&#X41;`: "AAA",
		`&#0;&#x110000;`:    "\uFFFD\uFFFD",
		`&#12345678;`:       "&#12345678;", // too many digits
		`&#;&#x;& &;`:       "&#;&#x;& &;",
		`\&amp;`:            "&amp;",
		`&`:                 "&",
	}
	for in, want := range tests {
		if got := mdUnescape([]byte(in)); got != want {
			t.Errorf("mdUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMentionName(t *testing.T) {
	tests := []struct{ s, want string }{
		{"@alice", "alice"},
		{"@alice.", "alice"},
		{"@bob.smith.", "bob.smith"},
		{"@a_b-c!", "a_b-c"},
		{"@ünï", "ünï"},
		{"x@alice", ""},
		{"@@alice", ""},
		{"@", ""},
		{"@.", ""},
	}
	for _, tc := range tests {
		at := strings.LastIndexByte(tc.s, '@')
		if tc.s == "@@alice" {
			at = 1
		}
		if got := mentionName(tc.s, at); got != tc.want {
			t.Errorf("mentionName(%q, %d) = %q, want %q", tc.s, at, got, tc.want)
		}
	}
}

func TestTableGrid(t *testing.T) {
	rows := [][]string{{"a", "bb", "c"}, {"日本語", "x", "ccccc"}, {"", "yyyy"}}
	aligns := []extast.Alignment{extast.AlignNone, extast.AlignRight, extast.AlignCenter}
	want := "a      |   bb |   c\n" +
		"---------------------\n" +
		"日本語 |    x | ccccc\n" +
		"       | yyyy |"
	if got := tableGrid(rows, aligns); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
