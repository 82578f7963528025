// This file holds the pieces of spelling that more than one platform's Markup shares: the
// platforms whose markup is markdown-like mark styles with characters around a line, quote
// with "> ", fence code with ``` and write urls inside brackets.

package render

import (
	"strings"
	"unicode"

	"github.com/mom-agent/mom/internal/chat"
)

// Rule is the line a Markup shows for a thematic break: no chat platform draws a horizontal
// rule, so every one shows the same line of box-drawing characters.
const Rule = "──────────"

// IDMention turns the model's @username into <@id>, the mention markup of the platforms that
// write a mention as the person's id in angle brackets, for the people find knows.
func IDMention(find func(username string) (chat.User, bool)) Mentions {
	return func(name string) (string, bool) {
		if u, ok := find(name); ok {
			return "<@" + u.ID + ">", true
		}
		return "", false
	}
}

// WrapLines puts mark around each line of inner on its own and outside the spaces at the
// line's ends, for a platform on which a style ends at a line break and a mark next to a
// space is no mark. Lines that are blank stay as they are.
func WrapLines(inner, mark string) string {
	lines := strings.Split(inner, "\n")
	for i, l := range lines {
		core := strings.TrimLeftFunc(l, unicode.IsSpace)
		lead := l[:len(l)-len(core)]
		core = strings.TrimRightFunc(core, unicode.IsSpace)
		if core == "" {
			continue
		}
		lines[i] = lead + mark + core + mark + l[len(lead)+len(core):]
	}
	return strings.Join(lines, "\n")
}

// QuoteLines quotes body the way markdown-like platforms do, by putting "> " before every
// line that is not blank. Blank lines stay blank (two quotes in a row look like one quote
// with paragraphs), and code blocks stay at the start of their lines so they remain code
// blocks. Such platforms read ">" as a quote only at the very start of a line, so inList,
// where the line will be indented, the marker is written as text, through escape.
func QuoteLines(body []Line, inList bool, escape func(string) string) []Line {
	marker := "> "
	if inList {
		marker = escape(marker)
	}
	out := make([]Line, len(body))
	for i, l := range body {
		// A line of only spaces (a blank code span) ends up empty once trailing space is
		// trimmed, so it gets no marker: a lone ">" would show as text.
		if !l.Verbatim && strings.TrimSpace(l.Text) != "" {
			l.Text = marker + l.Text
		}
		out[i] = l
	}
	return out
}

// FencedBlock writes code as a code block fenced with ```, info after the opening fence
// (a language, or ""). Runs of backticks in code are broken (BreakFences), so the fences
// are the block's only ones. Every line is Verbatim.
func FencedBlock(info, code string) []Line {
	body := strings.Split(BreakFences(code), "\n")
	lines := make([]Line, 0, len(body)+2)
	lines = append(lines, Line{Text: "```" + info, Verbatim: true})
	for _, b := range body {
		lines = append(lines, Line{Text: b, Verbatim: true})
	}
	return append(lines, Line{Text: "```", Verbatim: true})
}

// BreakFences puts a zero-width space after every second backtick in a row, so s keeps its
// backticks but never contains "```". A Markup that fences code with ``` breaks the other
// runs (in code, and on finished lines, where escaped backticks or a code span next to one
// could form a fence), so that its fences are the only ones, which is also what lets Split
// find them.
func BreakFences(s string) string {
	if !strings.Contains(s, "```") {
		return s
	}
	var b strings.Builder
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
		} else if run++; run == 3 {
			b.WriteString("\u200b")
			run = 1
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// PercentEncode percent-encodes spaces, control characters and the bytes of special in url:
// what cannot stand in a url inside a platform's link markup.
func PercentEncode(url, special string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(url); i++ {
		if c := url[i]; c <= ' ' || c == 0x7f || strings.IndexByte(special, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
