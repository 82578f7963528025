package web

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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

// person turns the display name a browser sent into the message's sender. The id is derived
// from the name, so the same name is the same person across visits and restarts.
func person(name string) (chat.User, error) {
	name = strings.Join(strings.Fields(name), " ")
	switch {
	case name == "":
		return chat.User{}, fmt.Errorf("pick a display name first")
	case !utf8.ValidString(name):
		return chat.User{}, fmt.Errorf("the display name is not valid text")
	case utf8.RuneCountInString(name) > maxDisplayName:
		return chat.User{}, fmt.Errorf("display names have at most %d characters", maxDisplayName)
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .-_'", r)) {
			return chat.User{}, fmt.Errorf("display name %q may use letters, digits, spaces and . - _ '", name)
		}
	}
	return chat.User{ID: "web:" + name, Username: name, DisplayName: name}, nil
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
