// This file keeps the markup characters of plain text from pairing up in Slack.

package slack

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Literal markup characters in Slack text. Mrkdwn has no escape character, so a '*', '_',
// '~' or '`' the model meant as itself ("\*not bold\*", "\~tilde\~") would pair up into
// bold, italic, strike or code. Slack pairs a character only at the edge of a word: it
// opens markup when it follows the start of the line, a space or punctuation and precedes
// a non-space, and closes it when it follows a non-space and precedes a space, punctuation
// or the end of the line. So "snake_case_words", "2*3*4" and "2 * 3" never format and are
// left alone; a character that could open gets a word joiner (U+2060) before it, one that
// could close gets one after it. The joiner is invisible, keeps the character on its word's
// line, and is neither space nor punctuation, so the character no longer stands at a word's
// edge. A zero-width space would not do: Slack takes it for a word boundary (tools put one
// around markup to make Slack format inside words), so it would help the pairing instead.

const (
	slackMarks = "*_~`"
	wordJoiner = '\u2060'
)

// guardMarks puts word joiners around the characters of plain text s that Slack could
// read as markup. s is one piece of a line: what comes before and after it is unknown
// (the start of the line, or other markup), so its edges are taken as the worst case.
func guardMarks(s string) string {
	if !strings.ContainsAny(s, slackMarks) {
		return s
	}
	const edge = -1 // the unknown character beyond either end of s
	var b strings.Builder
	prev := rune(edge)
	joined := false // the last thing written is a joiner
	for i, r := range s {
		if !strings.ContainsRune(slackMarks, r) {
			b.WriteRune(r)
			prev, joined = r, false
			continue
		}
		next := rune(edge)
		if i+1 < len(s) { // the marks are all one byte long
			next, _ = utf8.DecodeRuneInString(s[i+1:])
		}
		if !wordEdge(prev) && !wordEdge(next) || isSpace(prev) && isSpace(next) {
			b.WriteByte(byte(r)) // inside a word or between spaces: it can neither open nor close
			prev, joined = r, false
			continue
		}
		// A joiner before the mark stops it opening, one after it stops it closing. Each is
		// also a non-space beside the mark, which could let it do the other ("see *.go"
		// would then close at the '.'), so a mark with word edges on both sides gets both.
		before := wordEdge(prev)
		after := wordEdge(next) || !before
		if before && !joined { // a joiner after the mark before serves this one too
			b.WriteRune(wordJoiner)
		}
		b.WriteByte(byte(r))
		if after {
			b.WriteRune(wordJoiner)
		}
		prev, joined = r, after
	}
	return b.String()
}

// wordEdge says whether Slack may take a markup character next to r as standing at the
// edge of a word: r is no part of a word (a letter, digit or accent) or unknown (-1).
func wordEdge(r rune) bool {
	return r < 0 || !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
}

// isSpace says whether r is known to be a space; an unknown r (-1) may be anything else.
func isSpace(r rune) bool { return r >= 0 && unicode.IsSpace(r) }
