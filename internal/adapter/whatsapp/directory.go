//go:build !nowhatsapp

package whatsapp

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/chat"
)

// groupFresh is how long a group's name and participants are taken as they were last asked:
// a message that needs them (a group's name for the prompt, mom's hidden id) asks again after
// that. Membership checks always ask afresh.
const groupFresh = 10 * time.Minute

// directory remembers the people and chats mom has heard from, named as the linked phone's
// address book and people's push names (the name each sets in their profile) say.
type directory struct {
	mu       sync.Mutex
	people   map[string]chat.User    // by user id
	jids     map[string]types.JID    // user id → JID
	byName   map[string]string       // lower-case username → user id
	byTag    map[string]types.JID    // the digits a mention is written with → JID
	pushed   map[string]string       // user id → the push name WhatsApp last announced
	chans    map[string]chat.Channel // by channel id
	groups   map[string]groupEntry   // by group JID
	dmPeople map[string]string       // DM channel id → user id
}

// groupEntry is what WhatsApp said of a group, and when.
type groupEntry struct {
	info *types.GroupInfo
	at   time.Time
}

func newDirectory() *directory {
	return &directory{people: map[string]chat.User{}, jids: map[string]types.JID{}, byName: map[string]string{},
		byTag: map[string]types.JID{}, pushed: map[string]string{}, chans: map[string]chat.Channel{},
		groups: map[string]groupEntry{}, dmPeople: map[string]string{}}
}

// learnPerson notes a person and returns them as a chat.User: named as the address book has
// them, else by their push name, else by number. Contact is a lookup in the device's own
// store, not a call to WhatsApp, so it is asked every time and follows renames.
func (d *directory) learnPerson(ctx context.Context, c Client, jid types.JID, pushName string) chat.User {
	id := userID(jid)
	name := ""
	if ci, err := c.Contact(ctx, jid); err == nil && ci.Found {
		name = cmp.Or(strings.TrimSpace(ci.FullName), strings.TrimSpace(ci.FirstName), strings.TrimSpace(ci.PushName), strings.TrimSpace(ci.BusinessName))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	name = cmp.Or(name, strings.TrimSpace(pushName), d.pushed[id], d.people[id].DisplayName)
	u := chat.User{ID: id, Username: handle(name, jid.User), DisplayName: cmp.Or(name, id)}
	if old, ok := d.people[id]; ok && !strings.EqualFold(old.Username, u.Username) {
		delete(d.byName, strings.ToLower(old.Username))
	}
	d.people[id], d.jids[id] = u, jid
	d.byName[strings.ToLower(u.Username)] = id
	d.byTag[jid.User] = jid
	return u
}

// learnName notes the push name WhatsApp announced for a person.
func (d *directory) learnName(jid types.JID, name string) {
	if name = strings.TrimSpace(name); name == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pushed[userID(jid)] = name
}

// handle is the username mom gives a person: their name with its spaces as underscores, so
// the model can write @Ada_Lovelace; or the digits of their number, without a name.
func handle(name, digits string) string {
	if h := strings.Join(strings.Fields(name), "_"); h != "" && !strings.HasPrefix(h, "+") {
		return h
	}
	return digits
}

// learnDM notes a 1:1 chat with person.
func (d *directory) learnDM(channel string, person chat.User) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.chans[channel] = chat.Channel{ID: channel, Name: "DM:" + person.Username, Kind: chat.KindDM}
	d.dmPeople[channel] = person.ID
}

// learnGroup notes a group, named as WhatsApp names it.
func (d *directory) learnGroup(ctx context.Context, c Client, jid types.JID, now time.Time) {
	id := jid.ToNonAD().String()
	name := id
	if g, err := d.groupInfo(ctx, c, jid, now); err == nil && strings.TrimSpace(g.Name) != "" {
		name = g.Name
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.chans[id]; !ok || name != id || old.Name == "" {
		d.chans[id] = chat.Channel{ID: id, Name: name, Kind: chat.KindGroup}
	}
}

// groupInfo is a group's name and participants, asked of WhatsApp at most every groupFresh.
func (d *directory) groupInfo(ctx context.Context, c Client, jid types.JID, now time.Time) (*types.GroupInfo, error) {
	id := jid.ToNonAD().String()
	d.mu.Lock()
	e, ok := d.groups[id]
	d.mu.Unlock()
	if ok && now.Sub(e.at) < groupFresh {
		return e.info, nil
	}
	g, err := c.GetGroupInfo(ctx, jid.ToNonAD())
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.groups[id] = groupEntry{info: g, at: now}
	d.mu.Unlock()
	return g, nil
}

// mention is the markup that mentions the person called username, for the renderer.
func (d *directory) mention(username string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	jid, ok := d.jids[d.byName[strings.ToLower(username)]]
	if !ok {
		return "", false
	}
	return "@" + jid.User, true
}

// tagPattern finds the mentions in a text mom sends.
var tagPattern = regexp.MustCompile(`@([0-9]{5,20})`)

// mentioned lists the JIDs of the people a text mom sends mentions, for its MentionedJID: a
// mention shows as the person's name only when the message names them there.
func (d *directory) mentioned(text string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, m := range tagPattern.FindAllStringSubmatch(text, -1) {
		if jid, ok := d.byTag[m[1]]; ok && !slices.Contains(out, jid.String()) {
			out = append(out, jid.String())
		}
	}
	return out
}

// Directory returns the people and chats mom has heard from since it started.
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

// dmOf is the person of a DM channel, "" for a group.
func (d *directory) dmOf(channel string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dmPeople[channel]
}
