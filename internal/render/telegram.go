// This file holds the Telegram HTML dialect of the markdown walk in markdown.go.

package render

import (
	"html"
	"strings"
)

// TelegramHTML converts standard (GitHub-flavoured) markdown, as the model writes it, to the
// HTML that Telegram's parse_mode "HTML" reads (https://core.telegram.org/bots/api#html-style).
// Only the tags Telegram supports are written: b, i, s, code, pre (with
// <code class="language-x"> for a language), a href and blockquote. Headings become bold
// lines, lists get • ◦ ▪ bullets, tables become <pre> blocks, and &, < and > are escaped
// everywhere else. An @username that mentions resolves becomes its mention markup; mentions
// may be nil. The output is always well-formed: every tag is closed in the order opened.
// TelegramHTML is safe for concurrent use.
func TelegramHTML(md string, mentions Mentions) string {
	return renderMarkdown(md, telegramDialect{}, mentions)
}

// telegramDialect spells Telegram's HTML subset.
type telegramDialect struct{}

// telegramEscaper escapes text for Telegram HTML. Telegram needs only &, < and > escaped in
// text; '"' is escaped too so the same function serves attribute values.
var telegramEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func (telegramDialect) escape(text string) string { return telegramEscaper.Replace(text) }

func (telegramDialect) strong(inner string) string   { return wrapNonEmpty("b", inner) }
func (telegramDialect) emphasis(inner string) string { return wrapNonEmpty("i", inner) }
func (telegramDialect) strike(inner string) string   { return wrapNonEmpty("s", inner) }

// code renders an inline code span; blank code is shown as plain text, since Telegram drops
// an entity that holds only spaces.
func (d telegramDialect) code(text string) string {
	if strings.TrimSpace(text) == "" {
		return d.escape(text)
	}
	return "<code>" + d.escape(text) + "</code>"
}

func (d telegramDialect) link(url, text string) string {
	if text == "" {
		text = url
	}
	return `<a href="` + d.escape(url) + `">` + d.escape(text) + "</a>"
}

// heading makes a heading a bold line: Telegram has no headings.
func (telegramDialect) heading(_ int, inner string) string {
	return wrapNonEmpty("b", strings.ReplaceAll(inner, "\n", " "))
}

// codeBlock writes <pre>, or <pre><code class="language-x"> when the language is known, which
// Telegram shows with the language's name and highlighting.
func (d telegramDialect) codeBlock(lang, code string) []outLine {
	open, close := "<pre>", "</pre>"
	if f := strings.Fields(lang); len(f) > 0 {
		lang = f[0]
		open, close = `<pre><code class="language-`+d.escape(lang)+`">`, "</code></pre>"
	}
	body := strings.Split(d.escape(code), "\n")
	lines := make([]outLine, len(body))
	for i, b := range body {
		lines[i] = outLine{text: b, verbatim: true}
	}
	lines[0].text = open + lines[0].text
	lines[len(lines)-1].text += close
	return lines
}

// quote wraps the lines in one <blockquote>. Blank lines stay inside it, so a quote with
// paragraphs stays one quote.
func (telegramDialect) quote(body []outLine, _ bool) []outLine {
	if len(body) == 0 {
		return body
	}
	out := make([]outLine, len(body))
	copy(out, body)
	out[0].text = "<blockquote>" + out[0].text
	out[len(out)-1].text += "</blockquote>"
	return out
}

func (telegramDialect) thematicBreak() string { return "──────────" }

func (telegramDialect) finishLine(s string) string { return s }

// wrapNonEmpty puts tag around inner unless inner is only whitespace, which Telegram would
// show as nothing anyway.
func wrapNonEmpty(tag, inner string) string {
	if strings.TrimSpace(inner) == "" {
		return inner
	}
	return "<" + tag + ">" + inner + "</" + tag + ">"
}

// TelegramPlain turns Telegram HTML back into the text a reader would see: tags removed and
// entities decoded. It is the fallback when Telegram refuses the markup of a message, so that
// the words still arrive.
func TelegramPlain(markup string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(markup, '<')
		if i < 0 {
			b.WriteString(html.UnescapeString(markup))
			return b.String()
		}
		b.WriteString(html.UnescapeString(markup[:i]))
		j := strings.IndexByte(markup[i:], '>')
		if j < 0 {
			b.WriteString(html.UnescapeString(markup[i:]))
			return b.String()
		}
		markup = markup[i+j+1:]
	}
}
