package web

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mom-agent/mom/internal/chat"
)

// maxChannelName and maxDisplayName bound what people type into names.
const (
	maxChannelName = 40
	maxDisplayName = 32
)

// checkChannelName says what is wrong with a channel name, if anything. Names are lowercase
// letters, digits, "-" and "_", so web/<name> reads the same in paths, events and the page.
func checkChannelName(name string) error {
	if name == "" {
		return fmt.Errorf("a channel needs a name")
	}
	if len(name) > maxChannelName {
		return fmt.Errorf("channel names have at most %d characters; %q has %d", maxChannelName, name, len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || (i > 0 && (c == '-' || c == '_'))
		if !ok {
			return fmt.Errorf("channel name %q may use only lowercase letters, digits, \"-\" and \"_\", and starts with a letter or digit", name)
		}
	}
	return nil
}

// person turns the display name a browser sent into the message's sender; bot is mom's own
// name, which nobody may take. The id is derived from the name, so the same name is the same
// person across visits and restarts; the name is put in NFC first, so it is the same however
// the keyboard composed its accents.
func person(name, bot string) (chat.User, error) {
	name = norm.NFC.String(strings.Join(strings.Fields(name), " "))
	switch {
	case name == "":
		return chat.User{}, fmt.Errorf("pick a display name first")
	case !utf8.ValidString(name):
		return chat.User{}, fmt.Errorf("the display name is not valid text")
	case utf8.RuneCountInString(name) > maxDisplayName:
		return chat.User{}, fmt.Errorf("display names have at most %d characters", maxDisplayName)
	}
	prev := ' '
	for _, r := range name {
		// Accents and vowel signs (marks) are part of the letter before them.
		mark := unicode.IsMark(r) && (unicode.IsLetter(prev) || unicode.IsDigit(prev) || unicode.IsMark(prev))
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || mark || strings.ContainsRune(" .-_'", r)) || blank(r) {
			return chat.User{}, fmt.Errorf("display name %q may use letters, digits, spaces and . - _ '", name)
		}
		prev = r
	}
	if skeleton(name) == skeleton(bot) {
		return chat.User{}, fmt.Errorf("%q reads as %s's own name; pick another, so nobody takes your words for %s's", name, bot, bot)
	}
	return chat.User{ID: "web:" + name, Username: name, DisplayName: name}, nil
}

// skeleton is what a name looks like to a reader, to tell whether two names can be taken for
// each other: its letters and digits only (no spaces, dots, dashes, accents), in their
// compatibility forms (full-width "ｍｏｍ" is "mom"), in lower case, with the Cyrillic and
// Greek letters that look like Latin ones read as those. Look-alikes from other scripts are
// not covered.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(latin(unicode.ToLower(r)))
		}
	}
	return b.String()
}

// blank reports whether r is one of the letters that show as nothing: the Hangul fillers,
// with which a name could look empty, or look like another with a space in it.
func blank(r rune) bool {
	return r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0
}

// latin returns the Latin letter a lower-case Cyrillic or Greek letter (or its capital)
// looks like, or r.
func latin(r rune) rune {
	switch r {
	case 'а', 'α':
		return 'a'
	case 'в', 'β':
		return 'b'
	case 'с', 'ϲ':
		return 'c'
	case 'е', 'ε':
		return 'e'
	case 'н', 'η':
		return 'h'
	case 'і', 'ι':
		return 'i'
	case 'ј':
		return 'j'
	case 'к', 'κ':
		return 'k'
	case 'м', 'μ':
		return 'm'
	case 'о', 'ο':
		return 'o'
	case 'р', 'ρ':
		return 'p'
	case 'ѕ':
		return 's'
	case 'т', 'τ':
		return 't'
	case 'у', 'υ':
		return 'y'
	case 'х', 'χ':
		return 'x'
	case 'ν':
		return 'v'
	}
	return r
}

// withoutMention removes a leading @mom, which people type out of habit from other chats:
// every web message addresses mom already, and "@mom stop" should stop like "stop".
func withoutMention(text, bot string) string {
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "@"+bot); ok && (rest == "" || rest[0] == ' ' || rest[0] == ',' || rest[0] == ':') {
		return strings.TrimSpace(strings.TrimLeft(rest, ",:"))
	}
	return t
}

// channelIDs lists the web chat's channels: the default one and every one with a directory
// whose name the page could have made.
func (a *Adapter) channelIDs() ([]string, error) {
	ids := []string{DefaultChannel}
	refs, err := a.opts.Store.Channels()
	if errors.Is(err, fs.ErrNotExist) {
		err = nil // no channel has a directory yet
	}
	for _, r := range refs {
		if r.Adapter == a.opts.Name && checkChannelName(r.ID) == nil && r.ID != DefaultChannel {
			ids = append(ids, r.ID)
		}
	}
	slices.Sort(ids[1:])
	return ids, err
}
