// This file measures how many columns of a monospace font text takes, which is what lines
// up the columns of a table rendered as a code block.

package render

import (
	"unicode"

	"golang.org/x/text/width"
)

const (
	zeroWidthJoiner = '\u200d'
	emojiStyle      = '\ufe0f' // variation selector 16: draw the character before as an emoji
)

// textWidth is the number of monospace columns s takes. Wide and fullwidth characters (East
// Asian Width W and F: CJK, kana, Hangul, most emoji) take two; combining marks and format
// characters take none, since they draw on the character before them. Emoji sequences are
// drawn as one emoji: a character after a zero-width joiner ("👨‍💻") or a skin tone adds
// nothing, and a narrow symbol followed by the emoji selector ("❤️") becomes wide.
func textWidth(s string) int {
	total := 0
	glyph := 0 // width of the character the marks that follow draw on
	prev := rune(-1)
	for _, r := range s {
		switch {
		case prev == zeroWidthJoiner || prev >= 0 && isSkinTone(r):
			// drawn as part of the emoji before
		case r == emojiStyle:
			if glyph == 1 {
				total++
				glyph = 2
			}
		default:
			if w := runeWidth(r); w > 0 {
				total += w
				glyph = w
			}
		}
		prev = r
	}
	return total
}

// runeWidth is the width of r on its own.
func runeWidth(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case isWide(r):
		return 2
	default:
		return 1
	}
}

// isSkinTone says whether r is one of the five emoji modifiers, which colour the emoji
// before them.
func isSkinTone(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }

// isWide says whether r is East Asian Wide or Fullwidth.
func isWide(r rune) bool {
	k := width.LookupRune(r).Kind()
	return k == width.EastAsianWide || k == width.EastAsianFullwidth
}
