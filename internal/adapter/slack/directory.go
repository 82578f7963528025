package slack

import (
	"context"
	"fmt"
	"strings"
	"sync"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/mom-agent/mom/internal/chat"
)

// directory knows the workspace's users and the bot's channels: loaded at start-up, kept
// current from Slack's user and channel events, and filled in on demand for strangers.
type directory struct {
	a *Adapter

	mu       sync.Mutex
	byID     map[string]chat.User
	chans    map[string]chat.Channel
	imOf     map[string]string // IM channel id → the other person's user id
	unknowns map[string]bool   // user ids users.info could not tell, so it is asked once
}

// Directory returns the workspace's people and bots, and the conversations the bot is a
// member of.
func (a *Adapter) Directory() chat.Directory {
	return chat.Directory{Users: a.dir.users(), Channels: a.dir.channels()}
}

func newDirectory(a *Adapter) *directory {
	return &directory{a: a, byID: make(map[string]chat.User), chans: make(map[string]chat.Channel),
		imOf: make(map[string]string), unknowns: make(map[string]bool)}
}

// load reads every user and every conversation the bot is in, page by page.
func (d *directory) load(ctx context.Context) error {
	users, err := d.a.allUsers(ctx)
	if err != nil {
		return fmt.Errorf("could not list the workspace's users (users.list): %w", explain(err))
	}
	var chans []slackgo.Channel
	cursor := ""
	for {
		var page []slackgo.Channel
		err := d.a.rate.Do(ctx, func() (err error) {
			page, cursor, err = d.a.api.GetConversationsContext(ctx, &slackgo.GetConversationsParameters{
				Cursor: cursor, ExcludeArchived: true, Limit: 200,
				Types: []string{"public_channel", "private_channel", "mpim", "im"},
			})
			return err
		})
		if err != nil {
			return fmt.Errorf("could not list the bot's channels (conversations.list): %w", explain(err))
		}
		chans = append(chans, page...)
		if cursor == "" {
			break
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, u := range users {
		if !u.Deleted {
			d.byID[u.ID] = userOf(u.ID, u.Name, u.Profile.DisplayName, u.RealName, u.IsBot)
		}
	}
	for _, c := range chans {
		if c.IsIM || c.IsMember {
			d.addLocked(c)
		}
	}
	return nil
}

// allUsers pages through users.list, waiting out rate limits.
func (a *Adapter) allUsers(ctx context.Context) ([]slackgo.User, error) {
	p := a.api.GetUsersPaginated(slackgo.GetUsersOptionLimit(200))
	var out []slackgo.User
	for {
		var err error
		err = a.rate.Do(ctx, func() error {
			next, err := p.Next(ctx)
			if err == nil {
				p = next
			}
			return err
		})
		if p.Done(err) {
			return out, nil
		}
		if err != nil {
			return nil, p.Failure(err)
		}
		out = append(out, p.Users...)
	}
}

func (d *directory) addLocked(c slackgo.Channel) {
	ch := chat.Channel{ID: c.ID, Name: c.Name, Kind: chat.KindChannel}
	switch {
	case c.IsIM:
		ch.Kind = chat.KindDM
		d.imOf[c.ID] = c.User
		ch.Name = "DM:" + c.User
		if u, ok := d.byID[c.User]; ok {
			ch.Name = "DM:" + u.Username
		}
	case c.IsMpIM:
		ch.Kind = chat.KindGroup
	}
	d.chans[c.ID] = ch
}

// userOf builds a chat.User the way people recognize them: the handle as username, the name
// they chose to show (or their real name) as display name.
func userOf(id, name, display, real string, bot bool) chat.User {
	shown := display
	if shown == "" {
		shown = real
	}
	if shown == "" {
		shown = name
	}
	return chat.User{ID: id, Username: name, DisplayName: shown, IsBot: bot}
}

func (d *directory) user(id string) (chat.User, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	u, ok := d.byID[id]
	return u, ok
}

func (d *directory) channel(id string) (chat.Channel, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.chans[id]
	return c, ok
}

func (d *directory) isIM(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.imOf[id]
	return ok || strings.HasPrefix(id, "D")
}

func (d *directory) users() []chat.User {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.SortedUsers(d.byID)
}

func (d *directory) channels() []chat.Channel {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.SortedChannels(d.chans)
}

// byUsername finds a user by handle, for turning the model's @username into a mention.
func (d *directory) byUsername(name string) (chat.User, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.UserNamed(d.byID, name)
}

// sender names who wrote a message, asking Slack about people who joined since start-up. A
// message with a bot_id was posted by an app, even when it carries a person's user (an app
// posting with that person's token, a workflow): it is a bot's, and bots never start runs.
func (d *directory) sender(ctx context.Context, userID, botID string) chat.User {
	u := d.person(ctx, userID, botID)
	if botID != "" {
		u.IsBot = true
	}
	return u
}

// person is the user a message names, looked up as sender describes.
func (d *directory) person(ctx context.Context, userID, botID string) chat.User {
	if userID == "" {
		return chat.User{ID: botID, Username: botID, IsBot: true}
	}
	if u, ok := d.user(userID); ok {
		return u
	}
	d.mu.Lock()
	asked := d.unknowns[userID]
	d.unknowns[userID] = true
	d.mu.Unlock()
	if !asked {
		if u, err := d.a.api.GetUserInfoContext(ctx, userID); err == nil {
			cu := userOf(u.ID, u.Name, u.Profile.DisplayName, u.RealName, u.IsBot)
			d.mu.Lock()
			d.byID[u.ID] = cu
			d.mu.Unlock()
			return cu
		}
	}
	return chat.User{ID: userID, Username: userID, IsBot: botID != ""}
}

// directoryEvent applies a user or channel change Slack reported.
func (a *Adapter) directoryEvent(ctx context.Context, data any) {
	d := a.dir
	switch e := data.(type) {
	case *slackevents.UserChangeEvent:
		u := e.User
		d.set(userOf(u.ID, u.Name, u.Profile.DisplayName, u.RealName, u.IsBot), u.Deleted)
	case *slackevents.TeamJoinEvent:
		if u := e.User; u != nil {
			d.set(userOf(u.ID, u.Name, u.Profile.DisplayName, u.RealName, u.IsBot), u.Deleted)
		}
	case *slackevents.ChannelRenameEvent:
		d.rename(e.Channel.ID, e.Channel.Name)
	case *slackevents.GroupRenameEvent:
		d.rename(e.Channel.ID, e.Channel.Name)
	case *slackevents.MemberJoinedChannelEvent:
		if e.User == a.Bot().ID {
			a.refreshChannel(ctx, e.Channel, true)
		}
	case *slackevents.MemberLeftChannelEvent:
		if e.User == a.Bot().ID {
			d.forget(e.Channel)
		}
	case *slackevents.ChannelLeftEvent:
		d.forget(e.Channel)
	// An archived channel takes no more messages, and start-up leaves it out too.
	case *slackevents.ChannelArchiveEvent:
		d.forget(e.Channel)
	case *slackevents.GroupArchiveEvent:
		d.forget(e.Channel)
	case *slackevents.ChannelUnarchiveEvent:
		a.refreshChannel(ctx, e.Channel, false)
	case *slackevents.GroupUnarchiveEvent:
		a.refreshChannel(ctx, e.Channel, false)
	}
}

// forget drops a channel the bot can no longer talk in.
func (d *directory) forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.chans, id)
}

func (d *directory) set(u chat.User, deleted bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if deleted {
		delete(d.byID, u.ID)
		return
	}
	d.byID[u.ID] = u
	// A DM is named after the person, so it follows a rename.
	for id, other := range d.imOf {
		if c, ok := d.chans[id]; ok && other == u.ID {
			c.Name = "DM:" + u.Username
			d.chans[id] = c
		}
	}
}

func (d *directory) rename(id, name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c, ok := d.chans[id]; ok && name != "" {
		c.Name = name
		d.chans[id] = c
	}
}

// refreshChannel learns about a channel the bot was just added to (joined) or that was
// unarchived. Slack announces unarchiving to every app that may see the channel, so such a
// channel is listed only when the bot is in it.
func (a *Adapter) refreshChannel(ctx context.Context, id string, joined bool) {
	c, err := a.api.GetConversationInfoContext(ctx, &slackgo.GetConversationInfoInput{ChannelID: id})
	a.dir.mu.Lock()
	defer a.dir.mu.Unlock()
	switch {
	case err != nil && joined:
		a.log.Warn("could not look up a channel the bot joined", "channel", id, "err", err)
		a.dir.chans[id] = chat.Channel{ID: id, Name: id, Kind: chat.KindChannel}
	case err != nil:
		a.log.Warn("could not look up an unarchived channel", "channel", id, "err", err)
	case joined || c.IsMember:
		a.dir.addLocked(*c)
	}
}
