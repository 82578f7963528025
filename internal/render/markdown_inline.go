package render

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// Inline content: text, emphasis, code spans, links and mentions, rendered through the
// Markup.

// inlines renders the inline children of parent. Consecutive text nodes are gathered
// into one run first: goldmark splits text at every character that might have been
// markup, and an @mention must be recognised across those seams ("@john\_doe").
func (w *mdWalker) inlines(parent ast.Node, m inlineMode) string {
	var out, run strings.Builder
	flush := func() {
		if m == modePlain {
			out.WriteString(run.String())
		} else {
			out.WriteString(w.text(run.String()))
		}
		run.Reset()
	}
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			run.WriteString(textValue(c.Value(w.src), c.IsRaw()))
			if c.SoftLineBreak() || c.HardLineBreak() {
				// Models write one item per line and people expect those breaks kept.
				run.WriteByte(softBreak(m))
			}
		case *ast.String:
			run.WriteString(textValue(c.Value, c.IsRaw() || c.IsCode()))
		default:
			flush()
			out.WriteString(w.inline(c, m))
		}
	}
	flush()
	return out.String()
}

// softBreak is what a line break inside a paragraph becomes: only paragraphs have room
// for a new line; a heading, a link's text or a table cell stays on one.
func softBreak(m inlineMode) byte {
	if m == modeRich {
		return '\n'
	}
	return ' '
}

func textValue(b []byte, raw bool) string {
	if raw {
		return string(b)
	}
	return mdUnescape(b)
}

func (w *mdWalker) inline(n ast.Node, m inlineMode) string {
	switch n := n.(type) {
	case *ast.CodeSpan:
		return w.codeSpan(n, m)
	case *ast.Emphasis:
		return w.emphasis(n, m)
	case *extast.Strikethrough:
		return w.styled(styleStrike, m, func() string { return w.inlines(n, m) })
	case *ast.Link:
		return w.link(mdUnescape(n.Destination), w.inlines(n, modePlain), m)
	case *ast.Image:
		alt := w.inlines(n, modePlain)
		if m == modePlain && alt != "" {
			return alt // inside a link's text the alt text is what the reader sees
		}
		return w.link(mdUnescape(n.Destination), alt, m)
	case *ast.AutoLink:
		label := string(n.Label(w.src))
		url := string(n.URL(w.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
			url = "mailto:" + url
		}
		if m == modePlain {
			return label
		}
		return w.link(url, label, m)
	case *ast.RawHTML:
		raw := string(n.Segments.Value(w.src))
		if m != modeRich {
			raw = strings.ReplaceAll(raw, "\n", " ")
		}
		if m == modePlain {
			return raw
		}
		return w.d.Escape(raw) // shown as text, never dropped
	case *extast.TaskCheckBox:
		return "" // the list item shows it in place of its bullet
	default:
		return w.inlines(n, m)
	}
}

func (w *mdWalker) codeSpan(n *ast.CodeSpan, m inlineMode) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Value(w.src))
		}
	}
	code := strings.ReplaceAll(b.String(), "\n", " ") // as CommonMark says
	switch m {
	case modeRich:
		return w.d.Code(code)
	case modeFlat:
		return w.d.Escape(code)
	default:
		return code
	}
}

func (w *mdWalker) emphasis(n *ast.Emphasis, m inlineMode) string {
	s := styleEmphasis
	if n.Level >= 2 {
		s = styleStrong
	}
	// ***x*** parses as emphasis around strong; people write it strong outside (*_x_*).
	if inner, ok := n.FirstChild().(*ast.Emphasis); ok && s == styleEmphasis && inner.Level >= 2 && inner.NextSibling() == nil {
		return w.styled(styleStrong, m, func() string {
			return w.styled(styleEmphasis, m, func() string { return w.inlines(inner, m) })
		})
	}
	return w.styled(s, m, func() string { return w.inlines(n, m) })
}

// styled renders body inside style s, adding markup only where markup is allowed and s
// is not already open.
func (w *mdWalker) styled(s inlineStyle, m inlineMode, body func() string) string {
	if m != modeRich || w.styles&s != 0 {
		return body()
	}
	w.styles |= s
	inner := body()
	w.styles &^= s
	switch s {
	case styleStrong:
		return w.d.Strong(inner)
	case styleEmphasis:
		return w.d.Emphasis(inner)
	default:
		return w.d.Strike(inner)
	}
}

// link renders a link from its raw url and plain text. Where no link markup may go
// (table cells) the url is written out after the text, so it is not lost.
func (w *mdWalker) link(url, text string, m inlineMode) string {
	text = strings.TrimSpace(text)
	if text == url {
		text = ""
	}
	switch {
	case m == modePlain && text == "":
		return url
	case m == modePlain:
		return text + " (" + url + ")"
	case url == "":
		return w.d.Escape(text)
	default:
		return w.d.Link(url, text)
	}
}

// text escapes a run of plain text and turns the @usernames in it that mentions knows
// into mention markup.
func (w *mdWalker) text(s string) string {
	if w.mentions == nil || !strings.Contains(s, "@") {
		return w.d.Escape(s)
	}
	var b strings.Builder
	done := 0 // s[:done] is written
	for i := 0; i < len(s); {
		at := strings.IndexByte(s[i:], '@')
		if at < 0 {
			break
		}
		at += i
		i = at + 1
		name := mentionName(s, at)
		if name == "" {
			continue
		}
		markup, ok := w.mentions(name)
		if !ok {
			continue
		}
		b.WriteString(w.d.Escape(s[done:at]))
		b.WriteString(markup)
		done = at + 1 + len(name)
		i = done
	}
	b.WriteString(w.d.Escape(s[done:]))
	return b.String()
}

// mentionName is the username after the '@' at s[at], or "" when that '@' starts no
// mention: one inside a word ("bob@host") or followed by no name. A trailing '.' ends the
// sentence rather than the name.
func mentionName(s string, at int) string {
	if prev, _ := utf8.DecodeLastRuneInString(s[:at]); at > 0 && (isNameRune(prev) || prev == '@') {
		return ""
	}
	end := at + 1
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:])
		if !isNameRune(r) {
			break
		}
		end += size
	}
	return strings.TrimRight(s[at+1:end], ".")
}

func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-'
}

// mdUnescape reads markdown text as the reader sees it: backslash escapes and entity and
// character references resolved, as goldmark's own HTML writer does.
func mdUnescape(b []byte) string {
	if !bytes.ContainsAny(b, `\&`) {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) && util.IsPunct(b[i+1]) {
			out.WriteByte(b[i+1])
			i++
			continue
		}
		if c == '&' {
			if value, n := charReference(b[i:]); n > 0 {
				out.WriteString(value)
				i += n - 1
				continue
			}
		}
		out.WriteByte(c)
	}
	return out.String()
}

// charReference decodes the entity or character reference at the start of b ("&amp;",
// "&#123;", "&#x1F600;") and says how many bytes it took; 0 means there was none.
func charReference(b []byte) (string, int) {
	end := 1
	for end < len(b) && end < 40 && b[end] != ';' {
		end++
	}
	if end >= len(b) || b[end] != ';' || end < 2 {
		return "", 0
	}
	body := string(b[1:end])
	if body[0] != '#' {
		if e, ok := util.LookUpHTML5EntityByName(body); ok {
			return string(e.Characters), end + 1
		}
		return "", 0
	}
	digits, base, most := body[1:], 10, 7
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base, most = digits[1:], 16, 6
	}
	if len(digits) == 0 || len(digits) > most {
		return "", 0
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", 0
	}
	return string(util.ToValidRune(rune(v))), end + 1
}
