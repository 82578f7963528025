//go:build !nowhatsapp

// This file keeps the markup characters of plain text from formatting in WhatsApp.

package whatsapp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// wordJoiner is U+2060 WORD JOINER: invisible, no room taken, no line break allowed beside it.
const wordJoiner = '\u2060'

// waMarks are the characters WhatsApp pairs into styles.
const waMarks = "*_~`"

// markupText writes plain text s so that WhatsApp shows it as itself.
//
// WhatsApp has no escape character: a '*', '_', '~' or '`' that the model meant as itself
// ("\*not bold\*", "\_\_init\_\_.py") would pair up into bold, italic, strike or code, and a
// line starting with "> ", "- ", "* " or "1. " would turn into a quote or a list item.
//
// WhatsApp pairs a mark only at the edge of a word: it opens a style when it follows the start
// of the line, a space or punctuation and precedes a non-space, and closes one when it follows
// a non-space and precedes a space, punctuation or the end of the line. So "snake_case_words",
// "2*3*4" and "2 * 3" never format, and are left exactly as they are. A mark at a word's edge
// gets a word joiner on each side instead. Being neither a letter nor a space, the joiner
// leaves the mark with neither a word's edge nor text beside it, whichever way an app reads
// it: one that takes the joiner for part of a word finds no edge next to the mark, so the mark
// neither opens nor closes; one that takes it for an invisible boundary finds no text next to
// the mark to style. Slack's mrkdwn gets a joiner on one side only, because Slack's reading is
// known; WhatsApp's apps for Android, iOS and the web each parse for themselves, so both
// readings are covered. (A literal mark at the very edge of styled text, as in "**\*x\***",
// puts a joiner between the style's own mark and its text; an app of the second reading would
// then show that style's marks as text, but never the literal one as a style.)
//
// The alternatives are worse. A zero-width space lets a line break in beside the mark, and
// formatters take it for a word boundary, which helps a pairing rather than stopping it. A
// lookalike character (∗, ＿) would change what people copy. Dropping the marks would change the
// text.
//
// A joiner before the marker of a line that would start a quote or a list item makes the line
// start with something else, so the marker shows as text.
//
// s is one piece of a line, or several lines: what comes before and after it is unknown (the
// start of a line, or other markup), so its ends are taken as the worst case: the start of s
// may be the start of a line, and beyond either end there may be a word's edge.
func markupText(s string) string {
	if !strings.ContainsAny(s, waMarks+">-0123456789") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	before := beyondText // what the rune before the current one is
	joined := false      // the last thing written is a joiner
	lineStart := true    // nothing but indentation since the start of a line (or of s)
	for i, r := range s {
		if lineStart && r != ' ' && r != '\t' {
			lineStart = false
			if startsBlock(s[i:]) && !joined {
				b.WriteRune(wordJoiner)
				joined = true
			}
		}
		lineStart = lineStart || r == '\n'
		if strings.ContainsRune(waMarks, r) && mayPair(before, classAt(s, i+1)) {
			if !joined { // the joiner after a mark just before serves this one too
				b.WriteRune(wordJoiner)
			}
			b.WriteByte(byte(r)) // the marks are all one byte long
			b.WriteRune(wordJoiner)
			before, joined = classOf(r), true
			continue
		}
		b.WriteRune(r)
		before, joined = classOf(r), false
	}
	return b.String()
}

// charClass is what WhatsApp makes of the character beside a mark.
type charClass uint8

const (
	beyondText charClass = iota // beyond the ends of the text: unknown, so anything
	wordChar                    // a letter, digit or accent: inside a word
	spaceChar                   // a space or line break
	edgeChar                    // punctuation, a symbol, an invisible character: a word's edge
)

func classOf(r rune) charClass {
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
		return wordChar
	case unicode.IsSpace(r):
		return spaceChar
	default:
		return edgeChar
	}
}

// classAt is the class of the rune at s[i:], or beyondText when s ends there.
func classAt(s string, i int) charClass {
	if i >= len(s) {
		return beyondText
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return classOf(r)
}

// mayPair says whether a mark between characters of these classes could open or close a style.
// Inside a word it can do neither; between two spaces neither either, since a mark opens only
// before a non-space and closes only after one. Anywhere else it may.
func mayPair(before, after charClass) bool {
	return !(before == wordChar && after == wordChar) && !(before == spaceChar && after == spaceChar)
}

// startsBlock says whether s, found at the start of a line (after its indentation), starts
// with the marker of a WhatsApp quote ("> "), bulleted list item ("- ", "* ") or numbered list
// item ("1. "). What follows the marker may lie beyond s, so a marker at the end of s counts.
func startsBlock(s string) bool {
	n := 0
	switch {
	case s == "":
		return false
	case s[0] == '>' || s[0] == '-' || s[0] == '*':
		n = 1
	default:
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n == len(s) || s[n] != '.' {
			return false
		}
		n++
	}
	return n == len(s) || s[n] == ' ' || s[n] == '\t' || s[n] == '\n'
}
