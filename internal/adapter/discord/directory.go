package discord

import (
	"sync"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// directory knows the people and channels of the bot's guilds: filled by GUILD_CREATE, kept
// current by member, channel and thread events, and by the authors and mentions of messages.
type directory struct {
	mu      sync.Mutex
	users   map[string]chat.User
	chans   map[string]chat.Channel // guild text channels and DMs
	threads map[string]string       // thread id → the channel it belongs to
	guilds  map[string]string       // guild text channel id → its guild's id
	dmWith  map[string]string       // DM channel id → the person it is with
}

func newDirectory() *directory {
	return &directory{users: map[string]chat.User{}, chans: map[string]chat.Channel{}, threads: map[string]string{},
		guilds: map[string]string{}, dmWith: map[string]string{}}
}

// userOf builds a chat.User the way people recognize them: the handle as username, the name
// they show in the guild (nickname, else global display name) as display name.
func userOf(u discord.User, nick *string) chat.User {
	shown := u.Username
	if u.GlobalName != nil && *u.GlobalName != "" {
		shown = *u.GlobalName
	}
	if nick != nil && *nick != "" {
		shown = *nick
	}
	return chat.User{ID: u.ID.String(), Username: u.Username, DisplayName: shown, IsBot: u.Bot}
}

func (d *directory) setUser(u chat.User) {
	d.mu.Lock()
	defer d.mu.Unlock()
	// A message author carries no nickname; keep the one GUILD_CREATE gave.
	if old, ok := d.users[u.ID]; ok && u.DisplayName == u.Username && old.DisplayName != "" {
		u.DisplayName = old.DisplayName
	}
	d.users[u.ID] = u
}

func (d *directory) removeUser(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.users, id)
}

func (d *directory) user(id string) (chat.User, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	u, ok := d.users[id]
	return u, ok
}

// byUsername finds a user by handle, for turning the model's @username into a mention.
func (d *directory) byUsername(name string) (chat.User, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.UserNamed(d.users, name)
}

// addChannel learns a guild channel: text and announcement channels become channels, threads
// are remembered with the channel they belong to, other kinds (voice, categories) are skipped.
func (d *directory) addChannel(c discord.GuildChannel) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch c.Type() {
	case discord.ChannelTypeGuildText, discord.ChannelTypeGuildNews:
		d.chans[c.ID().String()] = chat.Channel{ID: c.ID().String(), Name: c.Name(), Kind: chat.KindChannel}
		d.guilds[c.ID().String()] = c.GuildID().String()
	case discord.ChannelTypeGuildPublicThread, discord.ChannelTypeGuildPrivateThread, discord.ChannelTypeGuildNewsThread:
		if p := c.ParentID(); p != nil {
			d.threads[c.ID().String()] = p.String()
		}
	}
}

func (d *directory) removeChannel(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.chans, id)
	delete(d.threads, id)
	delete(d.guilds, id)
	delete(d.dmWith, id)
}

func (d *directory) addThread(id, parent string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.threads[id] = parent
}

// addDM learns a DM channel from its first message.
func (d *directory) addDM(id string, with chat.User) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.chans[id] = chat.Channel{ID: id, Name: "DM:" + with.Username, Kind: chat.KindDM}
	d.dmWith[id] = with.ID
}

// dmsWith returns the ids of the DM channels the bot has with a person.
func (d *directory) dmsWith(user string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var ids []string
	for id, with := range d.dmWith {
		if with == user {
			ids = append(ids, id)
		}
	}
	return ids
}

// guildChannels returns the known guild text channels by the id of their guild.
func (d *directory) guildChannels() map[string][]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := map[string][]string{}
	for id, g := range d.guilds {
		out[g] = append(out[g], id)
	}
	return out
}

func (d *directory) isDM(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.chans[id].Kind == chat.KindDM
}

// parentOf returns the channel a thread belongs to; ok is false for ids that are not known
// threads.
func (d *directory) parentOf(id string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.threads[id]
	return p, ok
}

// threadsOf returns the ids of the known threads of a channel.
func (d *directory) threadsOf(parent string) []snowflake.ID {
	d.mu.Lock()
	defer d.mu.Unlock()
	var ids []snowflake.ID
	for th, p := range d.threads {
		if id, err := snowflake.Parse(th); p == parent && err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

func (d *directory) known(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.chans[id]
	return ok
}

func (d *directory) channelName(id string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.chans[id]
	return c.Name, ok
}

// Directory returns the members of the bot's guilds and the people who wrote to it, and the
// guild text channels the bot can see and the DMs it has had.
func (a *Adapter) Directory() chat.Directory {
	return chat.Directory{Users: a.dir.userList(), Channels: a.dir.channelList()}
}

func (d *directory) userList() []chat.User {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.SortedUsers(d.users)
}

func (d *directory) channelList() []chat.Channel {
	d.mu.Lock()
	defer d.mu.Unlock()
	return chat.SortedChannels(d.chans)
}

// guildOf returns the id of the guild a text channel belongs to, "" when it is not known.
func (d *directory) guildOf(channel string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.guilds[channel]
}

// forgetGuild drops the channels and threads of a guild the bot left or was removed from.
func (d *directory) forgetGuild(guild string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, g := range d.guilds {
		if g != guild {
			continue
		}
		delete(d.guilds, id)
		delete(d.chans, id)
		for th, p := range d.threads {
			if p == id {
				delete(d.threads, th)
			}
		}
	}
}
