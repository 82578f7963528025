// This file holds Telegram's HTML for render's markdown walk.

package telegram

import (
	"html"
	"strings"

	"github.com/mom-agent/mom/internal/render"
)

// HTML converts standard (GitHub-flavoured) markdown, as the model writes it, to the
// HTML that Telegram's parse_mode "HTML" reads (https://core.telegram.org/bots/api#html-style).
// Only the tags Telegram supports are written: b, i, s, code, pre (with
// <code class="language-x"> for a language), a href and blockquote. Headings become bold
// lines, lists get • ◦ ▪ bullets, tables become <pre> blocks, and &, < and > are escaped
// everywhere else. An @username that mentions resolves becomes its mention markup; mentions
// may be nil. The output is always well-formed: every tag is closed in the order opened.
// HTML is safe for concurrent use.
func HTML(md string, mentions render.Mentions) string {
	return render.Markdown(md, htmlMarkup{}, mentions)
}

// htmlMarkup spells Telegram's HTML subset.
type htmlMarkup struct{}

// htmlEscaper escapes text for Telegram HTML. Telegram needs only &, < and > escaped in
// text; '"' is escaped too so the same function serves attribute values.
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func (htmlMarkup) Escape(text string) string { return htmlEscaper.Replace(text) }

func (htmlMarkup) Strong(inner string) string   { return wrapNonEmpty("b", inner) }
func (htmlMarkup) Emphasis(inner string) string { return wrapNonEmpty("i", inner) }
func (htmlMarkup) Strike(inner string) string   { return wrapNonEmpty("s", inner) }

// Code renders an inline code span; blank code is shown as plain text, since Telegram drops
// an entity that holds only spaces.
func (d htmlMarkup) Code(text string) string {
	if strings.TrimSpace(text) == "" {
		return d.Escape(text)
	}
	return "<code>" + d.Escape(text) + "</code>"
}

func (d htmlMarkup) Link(url, text string) string {
	if text == "" {
		text = url
	}
	return `<a href="` + d.Escape(url) + `">` + d.Escape(text) + "</a>"
}

// Heading makes a heading a bold line: Telegram has no headings.
func (htmlMarkup) Heading(_ int, inner string) string {
	return wrapNonEmpty("b", strings.ReplaceAll(inner, "\n", " "))
}

// CodeBlock writes <pre>, or <pre><code class="language-x"> when the language is known, which
// Telegram shows with the language's name and highlighting.
func (d htmlMarkup) CodeBlock(lang, code string) []render.Line {
	open, close := "<pre>", "</pre>"
	if f := strings.Fields(lang); len(f) > 0 {
		lang = f[0]
		open, close = `<pre><code class="language-`+d.Escape(lang)+`">`, "</code></pre>"
	}
	body := strings.Split(d.Escape(code), "\n")
	lines := make([]render.Line, len(body))
	for i, b := range body {
		lines[i] = render.Line{Text: b, Verbatim: true}
	}
	lines[0].Text = open + lines[0].Text
	lines[len(lines)-1].Text += close
	return lines
}

// Quote wraps the lines in one <blockquote>. Blank lines stay inside it, so a quote with
// paragraphs stays one quote.
func (htmlMarkup) Quote(body []render.Line, _ bool) []render.Line {
	if len(body) == 0 {
		return body
	}
	out := make([]render.Line, len(body))
	copy(out, body)
	out[0].Text = "<blockquote>" + out[0].Text
	out[len(out)-1].Text += "</blockquote>"
	return out
}

func (htmlMarkup) ThematicBreak() string { return render.Rule }

func (htmlMarkup) FinishLine(s string) string { return s }

// wrapNonEmpty puts tag around inner unless inner is only whitespace, which Telegram would
// show as nothing anyway.
func wrapNonEmpty(tag, inner string) string {
	if strings.TrimSpace(inner) == "" {
		return inner
	}
	return "<" + tag + ">" + inner + "</" + tag + ">"
}

// Plain turns Telegram HTML back into the text a reader would see: tags removed and
// entities decoded. It is the fallback when Telegram refuses the markup of a message, so that
// the words still arrive.
func Plain(markup string) string {
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
