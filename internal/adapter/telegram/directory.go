package telegram

import (
	"strconv"
	"strings"
	"sync"

	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// directory remembers the people and chats the bot has heard from. The Bot API cannot list a
// chat's members or the chats a bot is in, so this is all mom can know of them.
type directory struct {
	mu     sync.Mutex
	people map[string]chat.User    // by user id
	madeUp map[string]bool         // user ids whose username mom made from their name
	byName map[string]string       // lower-case username → user id
	chans  map[string]chat.Channel // by channel id
	topics map[string]string       // channel id of a topic → its name
}

func newDirectory() *directory {
	return &directory{people: map[string]chat.User{}, madeUp: map[string]bool{}, byName: map[string]string{},
		chans: map[string]chat.Channel{}, topics: map[string]string{}}
}

// learn notes the sender and chat of m and returns the sender as a chat.User.
func (d *directory) learn(m *models.Message, channel string) chat.User {
	p, handle := personOf(m.From)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.people[p.ID] = p
	d.madeUp[p.ID] = !handle
	d.byName[strings.ToLower(p.Username)] = p.ID
	if r := m.ReplyToMessage; r != nil && r.ForumTopicCreated != nil {
		d.topics[channel] = r.ForumTopicCreated.Name
	}
	c := chat.Channel{ID: channel, Kind: chat.KindChannel, Name: m.Chat.Title}
	switch m.Chat.Type {
	case models.ChatTypePrivate:
		c.Kind, c.Name = chat.KindDM, "DM:"+p.Username
	case models.ChatTypeGroup:
		c.Kind = chat.KindGroup
	}
	if t := d.topics[channel]; t != "" {
		c.Name += " / " + t
	}
	d.chans[channel] = c
	return p
}

// personOf turns a Telegram user into a chat.User, and says whether the username is
// Telegram's (so @username mentions them) or made up from their name (so a mention needs a
// tg://user link). People without a username get one made of their name, so the model can
// still write @name.
func personOf(u *models.User) (p chat.User, handle bool) {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	p = chat.User{ID: strconv.FormatInt(u.ID, 10), Username: u.Username, DisplayName: name, IsBot: u.IsBot}
	if p.Username != "" {
		return p, true
	}
	p.Username = strings.Join(strings.Fields(name), "_")
	if p.Username == "" {
		p.Username = "user" + p.ID
	}
	return p, false
}

// mention is the markup that mentions the person called username, for the renderer.
func (d *directory) mention(username string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.people[d.byName[strings.ToLower(username)]]
	switch {
	case !ok:
		return "", false
	case !d.madeUp[p.ID]:
		return "@" + p.Username, true
	}
	return `<a href="tg://user?id=` + p.ID + `">` + htmlEscaper.Replace(p.DisplayName) + "</a>", true
}

// Directory returns the people, and the chats (and forum topics), the bot has heard from
// since it started: the Bot API has no way to list them.
func (a *Adapter) Directory() chat.Directory {
	return chat.Directory{Users: a.dir.users(), Channels: a.dir.channels()}
}

func (d *directory) users() []chat.User {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.SortedUsers(d.people)
}

func (d *directory) channels() []chat.Channel {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.ChannelsByID(d.chans)
}

// forgetChat drops a chat the bot left, with its topics, so that nothing asks about it again.
func (d *directory) forgetChat(chatID int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for id := range d.chans {
		if c, _, err := parseChannel(id); err == nil && c == chatID {
			delete(d.chans, id)
			delete(d.topics, id)
		}
	}
}
