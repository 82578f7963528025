// Package visible makes text from others safe to print on a terminal. Message text, file
// names, event files and tool output can hold escape sequences (ESC, CSI, OSC), other C0
// and C1 controls, or bidi overrides, which a terminal would obey: move the cursor, rewrite
// what is already on screen, set the window title, or show text in another order than it is
// stored. Text and Line show each such character as a visible escape (`\x1b`, `\u009b`,
// `\u202e`) and leave everything else as it is, so markdown, emoji and every script still
// read as written.
//
// A backslash is left alone: text that spells out `\x1b` prints the same as an escaped
// ESC, which misleads no terminal, and Windows paths and code stay readable.
package visible

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text returns s safe to print on a terminal, keeping its lines: newlines, tabs and the
// carriage return of a CRLF stay; every other control character, bidi override and invalid
// byte is shown as an escape.
func Text(s string) string { return escape(s, true) }

// Line returns s safe to print on a terminal as part of one line (a file name, a sender's
// name, a label): like Text, but newlines and tabs are shown as `\n` and `\t` too.
func Line(s string) string { return escape(s, false) }

// escape does Text (keepLines) and Line. It returns s itself when nothing needs escaping,
// which is nearly always.
func escape(s string, keepLines bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if hidden(s, i, r, size, keepLines) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !hidden(s, i, r, size, keepLines) {
			b.WriteString(s[i : i+size])
		} else {
			writeEscape(&b, s[i], r, size)
		}
		i += size
	}
	return b.String()
}

// hidden reports whether the rune r, of size bytes at s[i:], must be shown as an escape.
func hidden(s string, i int, r rune, size int, keepLines bool) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true // not UTF-8: a lone byte such as 0x9b is CSI to some terminals
	case r == '\n' || r == '\t':
		return !keepLines
	case r == '\r':
		// A lone carriage return goes back to the start of the line to write over it; in a
		// CRLF the newline follows at once, so nothing is overwritten.
		return !keepLines || i+1 >= len(s) || s[i+1] != '\n'
	case r < 0x20 || r == 0x7f:
		return true // C0 controls (ESC starts CSI and OSC sequences) and DEL
	case r >= 0x80 && r <= 0x9f:
		return true // C1 controls: U+009B is CSI, U+009D OSC
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidi embeddings, overrides and isolates ("Trojan Source")
	case r == 0x2028 || r == 0x2029:
		return true // line and paragraph separators, which some terminals break lines at
	}
	return false
}

// writeEscape writes the visible form of one hidden character: `\n`, `\t` and `\r` by name,
// an invalid byte and the other C0 controls as `\xNN`, the rest as `\uNNNN`.
func writeEscape(b *strings.Builder, first byte, r rune, size int) {
	switch {
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\r':
		b.WriteString(`\r`)
	case size == 1: // an invalid byte, a C0 control or DEL
		fmt.Fprintf(b, `\x%02x`, first)
	default:
		fmt.Fprintf(b, `\u%04x`, r)
	}
}
