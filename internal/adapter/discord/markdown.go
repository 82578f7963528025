// This file holds Discord's markdown for render's markdown walk.

package discord

import (
	"strings"

	"github.com/mom-agent/mom/internal/render"
)

// Markdown converts standard (GitHub-flavoured) markdown, as the model writes it, to the
// markdown Discord shows. Discord reads most of it as it is, so this is close to a pass-
// through: emphasis, code, quotes, headings (levels 1 to 3) and masked links keep their
// markdown; lists get • ◦ ▪ bullets like every platform, tables become padded code blocks,
// and plain text has Discord's markup characters escaped with a backslash. Links are wrapped
// in <…> so they do not unfurl into embeds. An @username that mentions resolves becomes its
// mention markup (<@id>); mentions may be nil. Markdown is safe for concurrent use.
func Markdown(md string, mentions render.Mentions) string {
	return render.Markdown(md, mdMarkup{}, mentions)
}

// mdMarkup spells Discord's markdown
// (https://support.discord.com/hc/en-us/articles/210298617).
type mdMarkup struct{}

// markupChars are the characters Discord may read as markup anywhere in a line: emphasis,
// strike, spoilers, code, mentions and custom emoji, masked links, and the backslash itself.
const markupChars = "\\*_~`|<[]"

// Escape puts a backslash before each character Discord could read as markup, and before the
// marker that would start a heading, quote or list at the beginning of a line. Discord drops a
// backslash in front of any punctuation, so over-escaping shows nothing extra.
func (mdMarkup) Escape(text string) string {
	var b strings.Builder
	lineStart := true
	mark := -1 // index of a line-start marker to escape
	for i := 0; i < len(text); i++ {
		c := text[i]
		if lineStart && c != ' ' && c != '\t' {
			if k := blockMarker(text[i:]); k >= 0 {
				mark = i + k
			}
		}
		if strings.IndexByte(markupChars, c) >= 0 || i == mark {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		switch {
		case c == '\n':
			lineStart = true
		case c != ' ' && c != '\t':
			lineStart = false
		}
	}
	return b.String()
}

// blockMarker finds, in s at the start of a line, the punctuation that would make Discord
// read the line as a heading ("# "), subtext ("-# "), quote ("> "), list item ("- ", "1. ")
// or nothing of the sort (-1). It returns the marker's offset in s.
func blockMarker(s string) int {
	end := 0
	switch s[0] {
	case '#':
		end = len(s) - len(strings.TrimLeft(s, "#"))
	case '>':
		end = len(s) - len(strings.TrimLeft(s, ">"))
	case '-', '+':
		end = 1
		if strings.HasPrefix(s, "-#") {
			end = 2
		}
	default:
		digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
		if digits == 0 || digits == len(s) || (s[digits] != '.' && s[digits] != ')') {
			return -1
		}
		if digits+1 < len(s) && s[digits+1] == ' ' {
			return digits // the dot: a backslash before a digit would show
		}
		return -1
	}
	if end < len(s) && s[end] == ' ' {
		return 0
	}
	return -1
}

func (mdMarkup) Strong(inner string) string   { return render.WrapLines(inner, "**") }
func (mdMarkup) Emphasis(inner string) string { return render.WrapLines(inner, "*") }
func (mdMarkup) Strike(inner string) string   { return render.WrapLines(inner, "~~") }

// Code renders an inline code span. A span holding a backtick is fenced with two; one
// holding two in a row cannot be written as code and is shown as escaped text, so that the
// characters stay exact. Blank code is shown plainly too.
func (d mdMarkup) Code(text string) string {
	switch {
	case strings.TrimSpace(text) == "" || strings.Contains(text, "``"):
		return d.Escape(text)
	case strings.Contains(text, "`"):
		return "`` " + text + " ``"
	default:
		return "`" + text + "`"
	}
}

// Link writes a masked link for http(s) urls and the text with the url after it otherwise,
// since Discord masks only web links (an e-mail address is shown once, without "mailto:").
// The url goes inside <…>, which keeps Discord from unfurling it.
func (d mdMarkup) Link(url, text string) string {
	u := linkURL(url)
	lower := strings.ToLower(url)
	web := strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
	switch {
	case text == "" && web:
		return "<" + u + ">"
	case text == "" || strings.TrimPrefix(url, "mailto:") == text:
		return d.Escape(strings.TrimPrefix(url, "mailto:"))
	case web:
		return "[" + d.Escape(text) + "](<" + u + ">)"
	default:
		return d.Escape(text) + " (" + d.Escape(url) + ")"
	}
}

// Heading uses Discord's three heading sizes; deeper levels share the smallest.
func (mdMarkup) Heading(level int, inner string) string {
	level = min(max(level, 1), 3)
	return strings.Repeat("#", level) + " " + strings.ReplaceAll(inner, "\n", " ")
}

func (mdMarkup) CodeBlock(lang, code string) []render.Line {
	return render.FencedBlock(fenceLang(lang), code)
}

// fenceLang keeps a code block's language when it is a plain name Discord can highlight
// ("go", "c++", "objective-c"); anything else would end up as the block's first line.
func fenceLang(lang string) string {
	if len(lang) > 20 {
		return ""
	}
	for _, r := range lang {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+-_#.", r)) {
			return ""
		}
	}
	return lang
}

// Quote prefixes each line with "> ", as render.QuoteLines says.
func (d mdMarkup) Quote(body []render.Line, inList bool) []render.Line {
	return render.QuoteLines(body, inList, d.Escape)
}

func (mdMarkup) ThematicBreak() string { return render.Rule }

// FinishLine breaks runs of three backticks that a code span next to other backticks could
// form, so the fences CodeBlock writes are the only ones (which is also what Split relies on).
func (mdMarkup) FinishLine(s string) string { return render.BreakFences(s) }

// linkURL percent-encodes what would end the url inside <…> or (…) early.
func linkURL(url string) string { return render.PercentEncode(url, "<>()`") }
