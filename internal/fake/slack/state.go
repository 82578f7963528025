package fakeslack

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// User is a workspace member.
type User struct {
	ID       string
	Name     string // the handle (name in users.list)
	RealName string
	// DisplayName is profile.display_name; like many real users it may be empty.
	DisplayName string
	IsBot       bool
	BotID       string // profile.bot_id of a bot user
	Deleted     bool
	// TZ is an IANA zone name such as "Europe/Berlin"; users.list carries tz, tz_label and
	// tz_offset only when it is set.
	TZ string
}

// Channel kinds, as in Channel.Kind.
const (
	KindChannel = "channel" // public channel (channel_type "channel")
	KindPrivate = "private" // private channel (channel_type "group")
	KindIM      = "im"      // direct message with the bot (channel_type "im")
	KindMPIM    = "mpim"    // group direct message (channel_type "mpim")
)

// Channel is a conversation. The bot is always a member of its IMs; for the other kinds
// BotMember decides whether it can read the channel and receives its events.
type Channel struct {
	ID   string
	Name string
	Kind string // KindChannel (the default), KindPrivate, KindIM or KindMPIM
	// User is the other party of an IM.
	User      string
	Members   []string
	BotMember bool
	Archived  bool
	Topic     string
	Purpose   string
}

// File is a file attached to a message (Say WithFile) or uploaded by the bot.
type File struct {
	ID       string // set by the server
	Name     string
	Title    string // defaults to Name
	Mimetype string // guessed from Name when empty
	Content  []byte
	// ForgedURL, when set, is given as url_private and url_private_download instead of the
	// server's own address: a file event forged to send the bot token elsewhere.
	ForgedURL string
	// MovedTo, when set, makes the server answer the bot's download with a redirect here
	// instead of the content, as a file host may send a client on to a CDN.
	MovedTo string
}

// Message is a message as a person sees it now, after edits.
type Message struct {
	TS       string
	ThreadTS string // the parent's ts for a reply, TS for a parent with replies, else ""
	User     string
	BotID    string
	Subtype  string // "" for ordinary messages, or file_share, bot_message, channel_join…
	Text     string
	Files    []File
	// Edits counts the edits (chat.update or Edit) the message went through.
	Edits int
	// ReplyCount counts the thread's replies that were not deleted.
	ReplyCount int
}

// Upload is a file the bot uploaded with files.getUploadURLExternal, the upload URL and
// files.completeUploadExternal.
type Upload struct {
	FileID         string
	Channel        string // "" when the upload was completed without sharing
	ThreadTS       string
	Filename       string
	Title          string
	InitialComment string
	Content        []byte
}

type channel struct {
	Channel
	created int64
	msgs    []*message // every message, replies included, in ts order
}

type message struct {
	ts          string
	us          int64
	threadTS    string
	user        string
	botID       string
	appID       string
	subtype     string
	username    string
	text        string
	blocks      json.RawMessage
	files       []*file
	clientMsgID string
	edits       int
	editedBy    string
	editedTS    string
	deleted     bool
	upload      bool
	updates     []time.Time // the bot's chat.update calls on it within the last editWindow
}

type file struct {
	File
	user      string
	created   int64
	declared  int
	uploaded  bool
	completed bool
}

func (m *message) isReply() bool { return m.threadTS != "" && m.threadTS != m.ts }

// inChannel reports whether the message shows at the top level of the channel: it is not a
// reply, or it is a reply also sent to the channel.
func (m *message) inChannel() bool { return !m.isReply() || m.subtype == "thread_broadcast" }

func (c *channel) find(ts string) *message {
	for _, m := range c.msgs {
		if m.ts == ts {
			return m
		}
	}
	return nil
}

// insert adds m keeping the ts order.
func (c *channel) insert(m *message) {
	i, _ := slices.BinarySearchFunc(c.msgs, m.us, func(x *message, us int64) int {
		switch {
		case x.us < us:
			return -1
		case x.us > us:
			return 1
		}
		return 0
	})
	c.msgs = slices.Insert(c.msgs, i, m)
}

// replies returns the live replies of the thread rooted at ts, oldest first.
func (c *channel) replies(ts string) []*message {
	var out []*message
	for _, m := range c.msgs {
		if m.threadTS == ts && m.ts != ts && !m.deleted {
			out = append(out, m)
		}
	}
	return out
}

func (c *channel) channelType() string {
	switch c.Kind {
	case KindPrivate:
		return "group"
	case KindIM:
		return "im"
	case KindMPIM:
		return "mpim"
	}
	return "channel"
}

// botMember reports whether the bot reads the channel and receives its events.
func (c *channel) botMember() bool { return c.Kind == KindIM || c.BotMember }

// visible reports whether the bot can see the channel at all (conversations.info/list).
func (c *channel) visible() bool { return c.Kind == KindChannel || c.botMember() }

// AddUser adds a user, or replaces the user with the same id.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.ID == "" {
		panic("fakeslack: AddUser needs an ID")
	}
	if i := slices.IndexFunc(s.users, func(x *User) bool { return x.ID == u.ID }); i >= 0 {
		s.users[i] = &u
	} else {
		s.users = append(s.users, &u)
	}
	s.Notify()
}

// AddChannel adds a conversation, or replaces the settings of the one with the same id
// (keeping its messages). Kind defaults to KindChannel.
func (s *Server) AddChannel(c Channel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.ID == "" {
		panic("fakeslack: AddChannel needs an ID")
	}
	if c.Kind == "" {
		c.Kind = KindChannel
	}
	switch c.Kind {
	case KindChannel, KindPrivate, KindIM, KindMPIM:
	default:
		panic(fmt.Sprintf("fakeslack: unknown channel kind %q", c.Kind))
	}
	if ch := s.chans[c.ID]; ch != nil {
		ch.Channel = c
	} else {
		ch := &channel{Channel: c, created: s.now().Unix()}
		s.chans[c.ID] = ch
		s.chanOrder = append(s.chanOrder, ch)
	}
	s.Notify()
}

func (s *Server) user(id string) *User {
	for _, u := range s.users {
		if u.ID == id {
			return u
		}
	}
	return nil
}

// mustChannel returns a channel a test helper names, or panics: naming an unknown channel is
// a mistake in the test.
func (s *Server) mustChannel(id string) *channel {
	ch := s.chans[id]
	if ch == nil {
		panic(fmt.Sprintf("fakeslack: no channel %q (AddChannel it first)", id))
	}
	return ch
}

// lookupChannel resolves what a client passes as channel: an id, a #name or name, or the id
// of a user the bot has an IM with.
func (s *Server) lookupChannel(ref string) *channel {
	if ch := s.chans[ref]; ch != nil {
		return ch
	}
	name := strings.TrimPrefix(ref, "#")
	for _, ch := range s.chanOrder {
		if ch.Kind != KindIM && ch.Name != "" && ch.Name == name {
			return ch
		}
		if ch.Kind == KindIM && ch.User == ref {
			return ch
		}
	}
	return nil
}

// Messages returns the top-level messages of a channel, oldest first, as a person sees them:
// thread parents with their ReplyCount, without deleted messages and without replies other
// than those also sent to the channel.
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	var out []Message
	for _, m := range ch.msgs {
		if !m.deleted && m.inChannel() {
			out = append(out, s.export(ch, m))
		}
	}
	return out
}

// Replies returns the replies of a thread, oldest first, without the parent and without
// deleted replies.
func (s *Server) Replies(channelID, threadTS string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	var out []Message
	for _, m := range ch.replies(threadTS) {
		out = append(out, s.export(ch, m))
	}
	return out
}

func (s *Server) export(ch *channel, m *message) Message {
	out := Message{TS: m.ts, ThreadTS: m.threadTS, User: m.user, BotID: m.botID, Subtype: m.subtype,
		Text: m.text, Edits: m.edits}
	if !m.isReply() {
		out.ReplyCount = len(ch.replies(m.ts))
		if out.ReplyCount > 0 {
			out.ThreadTS = m.ts
		}
	}
	for _, f := range m.files {
		fc := f.File
		fc.Content = slices.Clone(f.Content)
		out.Files = append(out.Files, fc)
	}
	return out
}

// Uploads returns the files the bot uploaded and completed, in order.
func (s *Server) Uploads() []Upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.uploads)
	for i := range out {
		out[i].Content = slices.Clone(out[i].Content)
	}
	return out
}
