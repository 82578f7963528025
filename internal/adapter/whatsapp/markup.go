//go:build !nowhatsapp

// This file holds WhatsApp's markup for render's markdown walk.

package whatsapp

import (
	"strings"

	"github.com/mom-agent/mom/internal/render"
)

// MaxText is the longest text mom puts in one WhatsApp message, in characters (runes). WhatsApp
// itself takes far longer texts (about 65,000 characters), but on a phone a message that long is
// a wall to scroll through and cannot be quoted or forwarded in parts, so long answers are split
// (by render.Split, the dialect's default) into messages of about a screenful or two, code
// blocks closed at the end of one message and reopened at the start of the next.
const MaxText = 4000

// Markup converts standard (GitHub-flavoured) markdown, as the model writes it, to the markup
// WhatsApp shows (https://faq.whatsapp.com/539178204879377, "How to format your messages"):
// *bold*, _italic_, ~strikethrough~, `inline code`, ``` blocks and "> " quotes. What WhatsApp
// lacks takes the shape every platform gives it (see render.Markdown): headings become bold
// lines, lists get • ◦ ▪ bullets (ordered lists keep "1. ", which WhatsApp shows as a numbered
// list), and tables become padded monospace blocks. Links are written as "text (url)", or the
// bare url when the text only repeats it, since WhatsApp has no link markup and links any url
// it finds in the text itself.
//
// Plain text whose characters WhatsApp could read as markup ("\*not bold\*", a "> " starting a
// line) keeps them as text through invisible word joiners (U+2060), since WhatsApp has no escape
// character; markupText says why joiners, and where.
//
// An @username that mentions resolves becomes its mention markup, which on WhatsApp is "@"
// followed by the person's number, the user part of their JID ("@431234567"). That text alone
// notifies nobody and is shown as a link only when the message also lists the JID in
// ContextInfo.MentionedJID: the adapter, which knows the JIDs behind the numbers, fills that
// list when it sends the message. mentions may be nil. Markup is safe for concurrent use.
func Markup(md string, mentions render.Mentions) string {
	return render.Markdown(md, waMarkup{}, mentions)
}

// waMarkup spells WhatsApp's markup for render.Markdown.
type waMarkup struct{}

// Escape keeps the markup characters of plain text from formatting: see markupText.
func (waMarkup) Escape(text string) string { return markupText(text) }

// Strong, Emphasis and Strike mark each line on its own: WhatsApp ends a style at a line
// break, and does not read a mark next to a space as one.
func (waMarkup) Strong(inner string) string   { return render.WrapLines(inner, "*") }
func (waMarkup) Emphasis(inner string) string { return render.WrapLines(inner, "_") }
func (waMarkup) Strike(inner string) string   { return render.WrapLines(inner, "~") }

// Code renders an inline code span between single backticks. WhatsApp has no escape for a
// backtick inside inline code and ends the span at the first one, so code holding a backtick is
// shown as plain text: the characters stay exact (people copy commands), only the monospace
// goes. Code that is blank, or starts or ends with a space, is shown plainly too, since WhatsApp
// formats only when the marks touch the text and would print the backticks.
func (m waMarkup) Code(text string) string {
	if strings.ContainsRune(text, '`') || strings.TrimSpace(text) != text || text == "" {
		return m.Escape(text)
	}
	return "`" + text + "`" // WhatsApp formats nothing inside code, so nothing needs guarding
}

// Link writes "text (url)": WhatsApp has no link markup, and links the url by itself. When
// the text only repeats the url (an e-mail address as mailto:, say), the url is written alone,
// as markupURL says.
func (m waMarkup) Link(url, text string) string {
	lower := strings.ToLower(url)
	if strings.HasPrefix(lower, "mailto:") {
		url = url[len("mailto:"):] // WhatsApp links a bare address, and "mailto:" is noise
	}
	switch {
	case text == "" || text == url:
		return markupURL(url, "")
	case strings.HasPrefix(lower, "http://") && text == url[len("http://"):],
		strings.HasPrefix(lower, "https://") && text == url[len("https://"):]:
		return markupURL(url, "") // "example.com" that links to https://example.com
	default:
		return m.Escape(text) + " (" + markupURL(url, "()") + ")"
	}
}

// markupURL writes url for WhatsApp to find and link. A joiner inside it would break the link,
// so it is not guarded like text; instead what could end it early (spaces, control characters
// and special, such as the parentheses around it) is percent-encoded, and so are backticks,
// which could form a fence, and a '*', '_' or '~' at the edge of a word ("/_private",
// "/*"), which could pair with a mark outside the url and style half the line. Inside a word
// ("effective_go") a mark cannot pair and stays. Percent-encoding '_' or '~' leaves the url
// the same url (RFC 3986, section 2.3); "%2A" is the same as '*' to the servers that decode
// paths before reading them, which is nearly all, and a url with a '*' at a word's edge is rare.
func markupURL(url, special string) string {
	url = render.PercentEncode(url, special+"`")
	if !strings.ContainsAny(url, "*_~") {
		return url
	}
	var b strings.Builder
	before := beyondText
	for i, r := range url {
		if strings.ContainsRune("*_~", r) && mayPair(before, classAt(url, i+1)) {
			b.WriteString(render.PercentEncode(string(r), string(r)))
		} else {
			b.WriteRune(r)
		}
		before = classOf(r)
	}
	return b.String()
}

// Heading makes a heading a bold line: WhatsApp has no headings.
func (waMarkup) Heading(_ int, inner string) string {
	return render.WrapLines(strings.ReplaceAll(inner, "\n", " "), "*")
}

// CodeBlock fences code with ``` lines. The language is dropped: WhatsApp would show it as
// the block's first word.
func (waMarkup) CodeBlock(_, code string) []render.Line {
	return render.FencedBlock("", code)
}

// Quote prefixes each line with "> ", WhatsApp's quote, as render.QuoteLines says.
func (m waMarkup) Quote(body []render.Line, inList bool) []render.Line {
	return render.QuoteLines(body, inList, m.Escape)
}

func (waMarkup) ThematicBreak() string { return render.Rule }

// FinishLine breaks runs of three backticks, which WhatsApp would take for the start or end
// of a monospace block anywhere in a line, wherever they come from: guarded backticks in
// text, or a code span next to one.
func (waMarkup) FinishLine(s string) string { return render.BreakFences(s) }
