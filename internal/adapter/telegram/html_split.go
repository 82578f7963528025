// This file cuts Telegram HTML into messages that fit Telegram's length limit.

package telegram

import (
	"strings"
	"unicode/utf8"
)

// SplitHTML cuts Telegram HTML (as HTML writes it) into ordered parts of at
// most max UTF-16 code units each, markup included: Telegram counts a message's length in
// UTF-16 units of its visible text, so a part within max in markup is within max on screen.
// It never cuts inside a tag or an entity (&amp;), and closes the tags open at a cut at the end
// of the part and opens them again at the start of the next, so a <pre> block, a link or bold
// text carries on, well-formed, across messages. It prefers to cut at a blank line, then at a
// line break, then at a space, in the second half of the room.
//
// The spaces and line breaks at a cut are dropped; every other character of the visible text
// appears exactly once, in order. SplitHTML returns nil for text with nothing visible,
// and never a part with nothing visible. Where max is too small to repeat the open tags, the
// rest of the text is sent as escaped plain text.
func SplitHTML(markup string, max int) []string {
	if max < 1 {
		max = 1
	}
	toks := tokenizeHTML(markup)
	var parts []string
	emit := func(p string) {
		if strings.TrimSpace(Plain(p)) != "" {
			parts = append(parts, p)
		}
	}
	for s := skipCutSpace(toks, 0); s < len(toks)-1; {
		prefix := strings.Join(toks[s].open, "")
		room := max - utf16Len(prefix)
		if toks[len(toks)-1].units-toks[s].units <= room {
			emit(prefix + markup[toks[s].at:])
			break
		}
		c := bestCut(toks, s, room)
		if c <= s {
			// Not even one character fits beside the open tags: give up on the markup.
			for _, p := range splitPlainHTML(Plain(markup[toks[s].at:]), max) {
				emit(p)
			}
			break
		}
		emit(prefix + strings.TrimRight(markup[toks[s].at:toks[c].at], " \t\r\n") + closers(toks[c].open))
		s = skipCutSpace(toks, c)
	}
	return parts
}

// htmlTok is one token of Telegram HTML: a tag, an entity or one character. The last token of
// a tokenized text is a sentinel at its end.
type htmlTok struct {
	at    int      // byte offset in the text
	units int      // UTF-16 units of the text before it
	open  []string // the start tags open before it, outermost first
	ch    byte     // the character for one-byte text tokens, else 0
	tag   bool     // it is a tag, which shows nothing by itself
	pre   bool     // it is inside <pre>
}

// tokenizeHTML splits markup into tokens and notes, for each, what is open before it.
func tokenizeHTML(markup string) []htmlTok {
	var toks []htmlTok
	var open []string
	units := 0
	for i := 0; i < len(markup); {
		t := htmlTok{at: i, units: units, open: open, pre: inPre(open)}
		n := 1
		switch c := markup[i]; {
		case c == '<' && strings.IndexByte(markup[i:], '>') > 0:
			n = strings.IndexByte(markup[i:], '>') + 1
			t.tag = true
			tag := markup[i : i+n]
			if strings.HasPrefix(tag, "</") {
				if len(open) > 0 {
					open = open[: len(open)-1 : len(open)-1]
				}
			} else {
				open = append(open[:len(open):len(open)], tag)
			}
		case c == '&' && entityLen(markup[i:]) > 0:
			n = entityLen(markup[i:])
		case c < utf8.RuneSelf:
			t.ch = c
		default:
			_, n = utf8.DecodeRuneInString(markup[i:])
		}
		toks = append(toks, t)
		units += utf16Len(markup[i : i+n])
		i += n
	}
	return append(toks, htmlTok{at: len(markup), units: units, open: open})
}

// entityLen is the length of the character reference at the start of s, or 0.
func entityLen(s string) int {
	for i := 1; i < len(s) && i < 12; i++ {
		c := s[i]
		if c == ';' {
			if i == 1 {
				return 0
			}
			return i + 1
		}
		if !(c == '#' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return 0
		}
	}
	return 0
}

func inPre(open []string) bool {
	for _, t := range open {
		if strings.HasPrefix(t, "<pre") {
			return true
		}
	}
	return false
}

// bestCut picks where the part starting at token s ends: the token before which it is cut.
// The part may hold room units of text and closing tags.
func bestCut(toks []htmlTok, s, room int) int {
	var fits []int // token indexes where a cut fits, in order
	for c := s + 1; c < len(toks) && toks[c].units-toks[s].units <= room; c++ {
		if toks[c].units-toks[s].units+utf16Len(closers(toks[c].open)) <= room {
			fits = append(fits, c)
		}
	}
	if len(fits) == 0 {
		return s
	}
	last := fits[len(fits)-1]
	half := toks[s].units + (toks[last].units-toks[s].units)/2
	for _, kind := range []func(int) bool{
		func(c int) bool { return toks[c].ch == '\n' && nextIsNewline(toks, c) },
		func(c int) bool { return toks[c].ch == '\n' },
		func(c int) bool { return toks[c].ch == ' ' || toks[c].ch == '\t' },
	} {
		for i := len(fits) - 1; i >= 0 && toks[fits[i]].units >= half; i-- {
			if c := fits[i]; kind(c) && hasVisibleText(toks, s, c) {
				return c
			}
		}
	}
	return last
}

// nextIsNewline reports whether a line break follows the one at c, with only spaces between.
func nextIsNewline(toks []htmlTok, c int) bool {
	for c++; c < len(toks) && (toks[c].ch == ' ' || toks[c].ch == '\t' || toks[c].ch == '\r'); c++ {
	}
	return c < len(toks) && toks[c].ch == '\n'
}

// hasVisibleText reports whether tokens s to c hold more than spaces and tags.
func hasVisibleText(toks []htmlTok, s, c int) bool {
	for i := s; i < c; i++ {
		if !toks[i].tag && (toks[i].ch == 0 || toks[i].ch > ' ') {
			return true
		}
	}
	return false
}

// skipCutSpace returns where the next part starts after a cut at c: past the spaces and line
// breaks there, except that inside <pre> only line breaks go, so code keeps its indentation.
func skipCutSpace(toks []htmlTok, c int) int {
	for c < len(toks)-1 {
		switch toks[c].ch {
		case '\n', '\r':
		case ' ', '\t':
			if toks[c].pre {
				return c
			}
		default:
			return c
		}
		c++
	}
	return c
}

// closers are the end tags for the start tags in open, innermost first.
func closers(open []string) string {
	var b strings.Builder
	for i := len(open) - 1; i >= 0; i-- {
		name := strings.TrimPrefix(open[i], "<")
		if j := strings.IndexAny(name, " >"); j >= 0 {
			name = name[:j]
		}
		b.WriteString("</" + name + ">")
	}
	return b.String()
}

// splitPlainHTML cuts plain text into escaped parts of at most max UTF-16 units, preferring
// to cut after a space or line break in the second half of a part.
func splitPlainHTML(text string, max int) []string {
	var parts []string
	var b strings.Builder
	units, lastSpace := 0, -1
	for _, r := range text {
		piece := htmlEscaper.Replace(string(r))
		if n := utf16Len(piece); units+n > max && b.Len() > 0 {
			cut := b.String()
			rest := ""
			if lastSpace > len(cut)/2 {
				cut, rest = cut[:lastSpace], cut[lastSpace:]
			}
			parts = append(parts, cut)
			b.Reset()
			b.WriteString(strings.TrimLeft(rest, " \n"))
			units, lastSpace = utf16Len(b.String()), -1
		}
		if r == ' ' || r == '\n' {
			lastSpace = b.Len()
		}
		b.WriteString(piece)
		units += utf16Len(piece)
	}
	if b.Len() > 0 {
		parts = append(parts, b.String())
	}
	return parts
}

// utf16Len is the length of s in UTF-16 code units, as Telegram measures text.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
