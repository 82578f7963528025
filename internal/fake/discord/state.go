package fakediscord

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// User is a Discord account: a person, another bot, or the bot itself.
type User struct {
	ID       string
	Username string
	// GlobalName is the display name people chose; may be empty.
	GlobalName string
	// Nick is the guild nickname; may be empty.
	Nick string
	Bot  bool
	// Roles are the ids of the member's guild roles (AddRole); @everyone is implied.
	Roles []string
	// NotMember makes the user someone outside the guild: they can DM the bot, but Get Guild
	// Member answers 404 Unknown Member and GUILD_CREATE does not list them.
	NotMember bool
}

// Channel kinds, as Discord's channel types.
const (
	KindText   = 0  // GUILD_TEXT
	KindDM     = 1  // DM
	KindThread = 11 // PUBLIC_THREAD
)

// Channel is a conversation: a guild text channel, a DM with the bot, or a thread.
type Channel struct {
	ID   string
	Name string
	// Kind is KindText (the default), KindDM or KindThread.
	Kind int
	// Recipient is the other person of a DM.
	Recipient string
	// Parent is the channel a thread belongs to.
	Parent string
	// Overwrites are a guild text channel's permission overwrites.
	Overwrites []Overwrite
}

// File is a file attached to a message, by a person (Say WithFile) or by the bot (an upload).
type File struct {
	Name        string
	ContentType string
	Content     []byte
}

// Message is a message as people see it now, after edits.
type Message struct {
	ID        string
	ChannelID string
	Author    string
	Content   string
	// Reference is the id of the message this one replies to.
	Reference string
	Files     []File
	// Edits counts the edits the message went through.
	Edits int
	// Thread is the id of the thread created from this message, if any.
	Thread string
}

// Upload is a file the bot sent with a message (multipart files[n]).
type Upload struct {
	ChannelID string
	MessageID string
	Filename  string
	Content   []byte
	// Text is the message's content.
	Text string
}

type channel struct {
	Channel
	msgs   []*message
	hidden bool // the bot lost View Channel (HideChannel)
}

type message struct {
	Message
	at      time.Time
	deleted bool
	atts    []wireAttachment
	noPing  bool // a reply that does not mention the replied-to author
	rows    [][]Button
	via     *interaction // the slash command this message responds to, if any
}

// discordEpoch is the first millisecond of 2015, where snowflake timestamps count from.
const discordEpoch = 1420070400000

// snowflake returns a new id whose timestamp is now, as Discord's are. Call it with s.mu held.
func (s *Server) snowflake() string {
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

// AddUser adds a member to the guild. A user with an empty ID gets one.
func (s *Server) AddUser(u User) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUserLocked(u)
}

func (s *Server) addUserLocked(u User) string {
	if u.ID == "" {
		u.ID = s.snowflake()
	}
	if _, ok := s.users[u.ID]; !ok {
		s.order = append(s.order, u.ID)
	}
	s.users[u.ID] = &u
	s.Notify()
	return u.ID
}

// AddChannel adds a channel: a guild text channel, a DM (Recipient set, Kind KindDM) or a
// thread (Kind KindThread, Parent set; a thread started from a message has that message's
// id). A channel with an empty ID gets one. Connected clients hear of a guild channel through
// CHANNEL_CREATE and of a thread through THREAD_CREATE, as when a person creates one.
func (s *Server) AddChannel(c Channel) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.ID == "" {
		c.ID = s.snowflake()
	}
	ch := s.addChannelLocked(c)
	switch c.Kind {
	case KindText:
		s.dispatch("CHANNEL_CREATE", IntentGuilds, func(int64) any { return s.wireChannel(ch) })
	case KindThread:
		if p := s.channels[c.Parent]; p != nil {
			if m := p.find(c.ID); m != nil {
				m.Thread = c.ID
			}
		}
		s.dispatch("THREAD_CREATE", IntentGuilds, func(int64) any {
			d := s.wireChannel(ch)
			d["newly_created"] = true
			return d
		})
	}
	return c.ID
}

func (s *Server) addChannelLocked(c Channel) *channel {
	ch := &channel{Channel: c}
	if _, ok := s.channels[c.ID]; !ok {
		s.chOrder = append(s.chOrder, c.ID)
	}
	s.channels[c.ID] = ch
	s.Notify()
	return ch
}

func (s *Server) mustChannel(id string) *channel {
	ch := s.channels[id]
	if ch == nil {
		panic(fmt.Sprintf("fakediscord: no channel %s", id))
	}
	return ch
}

func (ch *channel) find(id string) *message {
	for _, m := range ch.msgs {
		if m.ID == id && !m.deleted {
			return m
		}
	}
	return nil
}

// Messages returns the messages of a channel (a thread is a channel of its own) that were not
// deleted, oldest first.
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[channelID]
	if ch == nil {
		return nil
	}
	var out []Message
	for _, m := range ch.msgs {
		if !m.deleted {
			c := m.Message
			c.Files = slices.Clone(c.Files)
			out = append(out, c)
		}
	}
	return out
}

// Channel returns a channel as it stands, threads the bot created included.
func (s *Server) Channel(id string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[id]
	if !ok {
		return Channel{}, false
	}
	return ch.Channel, true
}

// Uploads returns the files the bot sent, in order.
func (s *Server) Uploads() []Upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.uploads)
}

// Typing returns how often the bot triggered the typing indicator in a channel.
func (s *Server) Typing(channelID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.typing {
		if c == channelID {
			n++
		}
	}
	return n
}

// Downloads returns the CDN paths the client fetched, in order.
func (s *Server) Downloads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.downloads)
}
