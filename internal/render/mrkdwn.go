// This file holds the Slack dialect of the markdown walk in markdown.go.

package render

import (
	"strings"
)

// Mrkdwn converts standard (GitHub-flavoured) markdown, as the model writes it, to Slack
// mrkdwn. Headings become bold lines, lists get • ◦ ▪ bullets, tables become padded code
// blocks, and &, < and > are escaped everywhere, code included, since Slack reads <...>
// as markup wherever it appears. An @username that mentions resolves becomes its mention
// markup; mentions may be nil. Mrkdwn is safe for concurrent use.
func Mrkdwn(md string, mentions Mentions) string {
	return Markdown(md, slackDialect{}, mentions)
}

// slackDialect spells Slack's mrkdwn
// (https://api.slack.com/reference/surfaces/formatting#basic-formatting).
type slackDialect struct{}

// slackEscaper holds no state once built and is safe for concurrent use.
var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape writes plain text: &, < and > as entities, and word joiners around the markup
// characters that Slack could pair (see guardMarks).
func (slackDialect) Escape(text string) string { return slackEscaper.Replace(guardMarks(text)) }

func (slackDialect) Strong(inner string) string   { return WrapLines(inner, "*") }
func (slackDialect) Emphasis(inner string) string { return WrapLines(inner, "_") }
func (slackDialect) Strike(inner string) string   { return WrapLines(inner, "~") }

// Code renders an inline code span. Slack has no escape for a backtick inside inline
// code and ends the span at the first one, so code containing a backtick is shown as
// plain text: the characters stay exact (people copy commands), only the monospace goes.
// Blank code is shown plainly too, since Slack would print its backticks.
func (s slackDialect) Code(text string) string {
	if strings.ContainsRune(text, '`') || strings.TrimSpace(text) == "" {
		return s.Escape(text)
	}
	return "`" + slackEscaper.Replace(text) + "`" // nothing pairs inside code
}

func (s slackDialect) Link(url, text string) string {
	if text == "" {
		return "<" + slackURL(url) + ">"
	}
	return "<" + slackURL(url) + "|" + s.Escape(text) + ">"
}

// Heading makes a heading a bold line: Slack has no headings.
func (slackDialect) Heading(_ int, inner string) string {
	return WrapLines(strings.ReplaceAll(inner, "\n", " "), "*")
}

func (slackDialect) CodeBlock(_, code string) []Line {
	return FencedBlock("", slackEscaper.Replace(code)) // nothing pairs inside code
}

// Quote prefixes each line with "> ", as QuoteLines says.
func (s slackDialect) Quote(body []Line, inList bool) []Line {
	return QuoteLines(body, inList, s.Escape)
}

func (slackDialect) ThematicBreak() string { return Rule }

// FinishLine breaks runs of three backticks, which Slack would take for a code fence
// wherever they come from: escaped backticks in text, or a code span next to one.
func (slackDialect) FinishLine(s string) string { return BreakFences(s) }

// slackURL writes url for the inside of <url|text>: '|' and '>' would end the url
// early, so they and anything else that cannot stand in a url there (spaces, control
// characters, '<', and '`', which could form a fence) are percent-encoded; '&' is
// escaped as everywhere else in a Slack message.
func slackURL(url string) string {
	return strings.ReplaceAll(PercentEncode(url, "|<>`"), "&", "&amp;")
}
