package render

import (
	"strings"
	"testing"

	extast "github.com/yuin/goldmark/extension/ast"
)

// bracketDialect spells everything with visible tags. It shows that the walk assumes
// nothing about Slack: a new platform is one small type like this.
type bracketDialect struct{}

func (bracketDialect) escape(text string) string       { return strings.ReplaceAll(text, "[", `\[`) }
func (bracketDialect) strong(inner string) string      { return "[b]" + inner + "[/b]" }
func (bracketDialect) emphasis(inner string) string    { return "[i]" + inner + "[/i]" }
func (bracketDialect) strike(inner string) string      { return "[s]" + inner + "[/s]" }
func (bracketDialect) code(text string) string         { return "[code]" + text + "[/code]" }
func (bracketDialect) link(url, text string) string    { return "[url=" + url + "]" + text + "[/url]" }
func (bracketDialect) thematicBreak() string           { return "[hr]" }
func (bracketDialect) finishLine(s string) string      { return s }
func (bracketDialect) heading(n int, in string) string { return "[h" + string(rune('0'+n)) + "]" + in }
func (bracketDialect) codeBlock(lang, code string) []outLine {
	lines := []outLine{{text: "[pre " + lang + "]", verbatim: true}}
	for _, l := range strings.Split(code, "\n") {
		lines = append(lines, outLine{text: l, verbatim: true})
	}
	return append(lines, outLine{text: "[/pre]", verbatim: true})
}
func (bracketDialect) quote(body []outLine, _ bool) []outLine {
	out := []outLine{{text: "[quote]"}}
	out = append(out, body...)
	return append(out, outLine{text: "[/quote]"})
}

func TestWalkWithAnotherDialect(t *testing.T) {
	md := "# Title *x*\n\nHi @alice, **bold *both*** ~~s~~ `c` [t](https://u) [x].\n\n" +
		"- a\n  1. b\n\n> q\n\n```go\nx\n```\n\n---"
	want := "[h1]Title x\n\n" +
		"Hi <@U001>, [b]bold [i]both[/i][/b] [s]s[/s] [code]c[/code] [url=https://u]t[/url] \\[x].\n\n" +
		"• a\n    1. b\n\n[quote]\nq\n[/quote]\n\n[pre go]\nx\n[/pre]\n\n[hr]"
	if got := renderMarkdown(md, bracketDialect{}, testMentions); got != want {
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
