// This file holds Slack's markup for render's markdown walk.

package slack

import (
	"strings"

	"github.com/mom-agent/mom/internal/render"
)

// Mrkdwn converts standard (GitHub-flavoured) markdown, as the model writes it, to Slack
// mrkdwn. Headings become bold lines, lists get • ◦ ▪ bullets, tables become padded code
// blocks, and &, < and > are escaped everywhere, code included, since Slack reads <...>
// as markup wherever it appears. An @username that mentions resolves becomes its mention
// markup; mentions may be nil. Mrkdwn is safe for concurrent use.
func Mrkdwn(md string, mentions render.Mentions) string {
	return render.Markdown(md, mrkdwnMarkup{}, mentions)
}

// mrkdwnMarkup spells Slack's mrkdwn
// (https://api.slack.com/reference/surfaces/formatting#basic-formatting).
type mrkdwnMarkup struct{}

// mrkdwnEscaper holds no state once built and is safe for concurrent use.
var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape writes plain text: &, < and > as entities, and word joiners around the markup
// characters that Slack could pair (see guardMarks).
func (mrkdwnMarkup) Escape(text string) string { return mrkdwnEscaper.Replace(guardMarks(text)) }

func (mrkdwnMarkup) Strong(inner string) string   { return render.WrapLines(inner, "*") }
func (mrkdwnMarkup) Emphasis(inner string) string { return render.WrapLines(inner, "_") }
func (mrkdwnMarkup) Strike(inner string) string   { return render.WrapLines(inner, "~") }

// Code renders an inline code span. Slack has no escape for a backtick inside inline
// code and ends the span at the first one, so code containing a backtick is shown as
// plain text: the characters stay exact (people copy commands), only the monospace goes.
// Blank code is shown plainly too, since Slack would print its backticks.
func (s mrkdwnMarkup) Code(text string) string {
	if strings.ContainsRune(text, '`') || strings.TrimSpace(text) == "" {
		return s.Escape(text)
	}
	return "`" + mrkdwnEscaper.Replace(text) + "`" // nothing pairs inside code
}

func (s mrkdwnMarkup) Link(url, text string) string {
	if text == "" {
		return "<" + mrkdwnURL(url) + ">"
	}
	return "<" + mrkdwnURL(url) + "|" + s.Escape(text) + ">"
}

// Heading makes a heading a bold line: Slack has no headings.
func (mrkdwnMarkup) Heading(_ int, inner string) string {
	return render.WrapLines(strings.ReplaceAll(inner, "\n", " "), "*")
}

func (mrkdwnMarkup) CodeBlock(_, code string) []render.Line {
	return render.FencedBlock("", mrkdwnEscaper.Replace(code)) // nothing pairs inside code
}

// Quote prefixes each line with "> ", as render.QuoteLines says.
func (s mrkdwnMarkup) Quote(body []render.Line, inList bool) []render.Line {
	return render.QuoteLines(body, inList, s.Escape)
}

func (mrkdwnMarkup) ThematicBreak() string { return render.Rule }

// FinishLine breaks runs of three backticks, which Slack would take for a code fence
// wherever they come from: escaped backticks in text, or a code span next to one.
func (mrkdwnMarkup) FinishLine(s string) string { return render.BreakFences(s) }

// mrkdwnURL writes url for the inside of <url|text>: '|' and '>' would end the url
// early, so they and anything else that cannot stand in a url there (spaces, control
// characters, '<', and '`', which could form a fence) are percent-encoded; '&' is
// escaped as everywhere else in a Slack message.
func mrkdwnURL(url string) string {
	return strings.ReplaceAll(render.PercentEncode(url, "|<>`"), "&", "&amp;")
}
