// This file holds the Slack dialect of the markdown walk in markdown.go.

package render

import (
	"strings"
	"unicode"
)

// Mrkdwn converts standard (GitHub-flavoured) markdown, as the model writes it, to Slack
// mrkdwn. Headings become bold lines, lists get • ◦ ▪ bullets, tables become padded code
// blocks, and &, < and > are escaped everywhere, code included, since Slack reads <...>
// as markup wherever it appears. An @username that mentions resolves becomes its mention
// markup; mentions may be nil. Mrkdwn is safe for concurrent use.
func Mrkdwn(md string, mentions Mentions) string {
	return renderMarkdown(md, slackDialect{}, mentions)
}

// slackDialect spells Slack's mrkdwn
// (https://api.slack.com/reference/surfaces/formatting#basic-formatting).
type slackDialect struct{}

// slackEscaper holds no state once built and is safe for concurrent use.
var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// escape writes plain text: &, < and > as entities, and word joiners around the markup
// characters that Slack could pair (see guardMarks).
func (slackDialect) escape(text string) string { return slackEscaper.Replace(guardMarks(text)) }

func (slackDialect) strong(inner string) string   { return wrapLines(inner, "*") }
func (slackDialect) emphasis(inner string) string { return wrapLines(inner, "_") }
func (slackDialect) strike(inner string) string   { return wrapLines(inner, "~") }

// code renders an inline code span. Slack has no escape for a backtick inside inline
// code and ends the span at the first one, so code containing a backtick is shown as
// plain text: the characters stay exact (people copy commands), only the monospace goes.
// Blank code is shown plainly too, since Slack would print its backticks.
func (s slackDialect) code(text string) string {
	if strings.ContainsRune(text, '`') || strings.TrimSpace(text) == "" {
		return s.escape(text)
	}
	return "`" + slackEscaper.Replace(text) + "`" // nothing pairs inside code
}

func (s slackDialect) link(url, text string) string {
	if text == "" {
		return "<" + slackURL(url) + ">"
	}
	return "<" + slackURL(url) + "|" + s.escape(text) + ">"
}

// heading makes a heading a bold line: Slack has no headings.
func (slackDialect) heading(_ int, inner string) string {
	return wrapLines(strings.ReplaceAll(inner, "\n", " "), "*")
}

func (slackDialect) codeBlock(_, code string) []outLine {
	body := strings.Split(breakFences(slackEscaper.Replace(code)), "\n") // nothing pairs inside code
	lines := make([]outLine, 0, len(body)+2)
	lines = append(lines, outLine{text: "```", verbatim: true})
	for _, b := range body {
		lines = append(lines, outLine{text: b, verbatim: true})
	}
	return append(lines, outLine{text: "```", verbatim: true})
}

// quote prefixes each line with "> ". Blank lines stay blank (two quotes in a row look
// like one quote with paragraphs), and code blocks stay at the start of their lines so
// they remain code blocks. Slack only reads ">" as a quote at the very start of a line,
// so in a list item, where the line will be indented, the marker is written as text.
func (s slackDialect) quote(body []outLine, inList bool) []outLine {
	if inList {
		return prefixLines(body, s.escape("> "))
	}
	return prefixLines(body, "> ")
}

// prefixLines puts marker before every line of text that is not blank: a quote's lines. Code
// blocks stay at the start of their lines so they remain code blocks.
func prefixLines(body []outLine, marker string) []outLine {
	out := make([]outLine, len(body))
	for i, l := range body {
		// A line of only spaces (a blank code span) ends up empty once trailing space is
		// trimmed, so it gets no marker: a lone ">" would show as text.
		if !l.verbatim && strings.TrimSpace(l.text) != "" {
			l.text = marker + l.text
		}
		out[i] = l
	}
	return out
}

func (slackDialect) thematicBreak() string { return "──────────" }

// finishLine breaks runs of three backticks, which Slack would take for a code fence
// wherever they come from: escaped backticks in text, or a code span next to one.
func (slackDialect) finishLine(s string) string { return breakFences(s) }

// breakFences puts a zero-width space after every second backtick in a row, so text
// keeps its backticks but never contains "```". The fences codeBlock writes are then
// the only ones, which is also what lets Split find them.
func breakFences(s string) string {
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

// wrapLines puts mark around each line of inner on its own and outside the spaces at
// the line's ends: Slack ends a style at a line break and ignores a mark next to a space.
func wrapLines(inner, mark string) string {
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

// slackURL writes url for the inside of <url|text>: '|' and '>' would end the url
// early, so they and anything else that cannot stand in a url there (spaces, control
// characters, '<', and '`', which could form a fence) are percent-encoded; '&' is
// escaped as everywhere else in a Slack message.
func slackURL(url string) string {
	return strings.ReplaceAll(percentEncode(url, "|<>`"), "&", "&amp;")
}

// percentEncode percent-encodes spaces, control characters and the bytes of special in url:
// what cannot stand in a url inside a dialect's link markup.
func percentEncode(url, special string) string {
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
