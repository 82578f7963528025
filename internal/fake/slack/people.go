package fakeslack

import (
	"fmt"
	"slices"
	"time"
)

// SayOption changes how Say posts a message.
type SayOption func(*sayOpts)

type sayOpts struct {
	thread    string
	broadcast bool
	files     []File
	silent    bool
	botID     string
	asUser    bool
	at        time.Time
}

// InThread posts the message as a reply in the thread of threadTS (a parent, or any reply of
// the thread).
func InThread(threadTS string) SayOption { return func(o *sayOpts) { o.thread = threadTS } }

// AlsoToChannel makes a reply (InThread) one its author "also sent to the channel": subtype
// thread_broadcast, shown in conversations.history and Messages as well as in the thread.
func AlsoToChannel() SayOption { return func(o *sayOpts) { o.broadcast = true } }

// WithFile attaches a file: the message gets subtype file_share and a files[] entry whose
// url_private and url_private_download the server serves to the bot token.
func WithFile(f File) SayOption { return func(o *sayOpts) { o.files = append(o.files, f) } }

// Silently stores the message without delivering any event, as history that happened while
// the bot was away (for backfill through conversations.history).
func Silently() SayOption { return func(o *sayOpts) { o.silent = true } }

// FromBot posts as another integration: subtype bot_message with this bot_id.
func FromBot(botID string) SayOption { return func(o *sayOpts) { o.botID = botID } }

// ThroughApp posts as an app acting for the person: the message carries the person's user and
// the app's bot_id, and no subtype, as when an app posts with a user's token or a workflow
// posts in someone's name.
func ThroughApp(botID string) SayOption {
	return func(o *sayOpts) { o.botID, o.asUser = botID, true }
}

// At backdates the message to t (its ts is t, or the first unused microsecond after it)
// instead of now. Combine it with Silently for history.
func At(t time.Time) SayOption { return func(o *sayOpts) { o.at = t } }

// Say posts a message by user (a person, or another bot with FromBot) into a channel and
// delivers the events Slack would deliver to the bot (see the package documentation). It
// returns the new message's ts. An unknown channel or thread panics: it is a mistake in the
// test.
func (s *Server) Say(channelID, user, text string, opts ...SayOption) string {
	var o sayOpts
	for _, opt := range opts {
		opt(&o)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	m := &message{user: user, text: text}
	if o.at.IsZero() {
		m.ts, m.us = s.stamp()
	} else {
		m.ts, m.us = s.stampAt(o.at)
	}
	if o.thread != "" {
		p := ch.find(o.thread)
		if p == nil || p.deleted {
			panic(fmt.Sprintf("fakeslack: no message %s in %s to reply to", o.thread, channelID))
		}
		m.threadTS = p.ts
		if p.isReply() {
			m.threadTS = p.threadTS
		}
	}
	if o.broadcast {
		if o.thread == "" || o.botID != "" || len(o.files) > 0 {
			panic("fakeslack: AlsoToChannel is for a person's text reply InThread")
		}
		m.subtype = "thread_broadcast"
	}
	switch {
	case o.asUser:
		m.botID, m.appID = o.botID, "A0"+o.botID
	case o.botID != "":
		m.botID, m.subtype = o.botID, "bot_message"
		if u := s.user(user); u != nil {
			m.username = u.Name
		}
	default:
		m.clientMsgID = uuid()
	}
	for _, f := range o.files {
		m.files = append(m.files, s.newFile(f, user, true))
	}
	if len(m.files) > 0 && m.subtype == "" {
		m.subtype = "file_share"
	}
	ch.insert(m)
	if !o.silent {
		s.announce(ch, m)
	}
	s.Notify()
	return m.ts
}

// newFile stores a file. Call it with s.mu held.
func (s *Server) newFile(f File, user string, uploaded bool) *file {
	f.ID = s.id("F0", 9)
	if f.Title == "" {
		f.Title = f.Name
	}
	if f.Mimetype == "" {
		f.Mimetype = guessMimetype(f.Name)
	}
	f.Content = slices.Clone(f.Content)
	nf := &file{File: f, user: user, created: s.now().Unix(), declared: len(f.Content), uploaded: uploaded}
	s.files[f.ID] = nf
	return nf
}

// Edit changes the text of a message as its author would and delivers message_changed.
func (s *Server) Edit(channelID, ts, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	m := ch.find(ts)
	if m == nil || m.deleted {
		panic(fmt.Sprintf("fakeslack: no message %s in %s to edit", ts, channelID))
	}
	s.edit(ch, m, m.user, text, nil)
	s.Notify()
}

// edit applies an edit and queues its event. Call it with s.mu held.
func (s *Server) edit(ch *channel, m *message, by, text string, blocks []byte) {
	prev := s.wire(ch, m)
	m.text = text
	if blocks != nil {
		m.blocks = blocks
	}
	m.edits++
	m.editedBy = by
	m.editedTS, _ = s.stamp()
	s.announceEdit(ch, m, prev)
}

// Delete deletes a message as its author would and delivers message_deleted.
func (s *Server) Delete(channelID, ts string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	m := ch.find(ts)
	if m == nil || m.deleted {
		panic(fmt.Sprintf("fakeslack: no message %s in %s to delete", ts, channelID))
	}
	s.remove(ch, m)
	s.Notify()
}

// remove deletes a message and queues its event. Call it with s.mu held.
func (s *Server) remove(ch *channel, m *message) string {
	prev := s.wire(ch, m)
	m.deleted = true
	ts, _ := s.stamp()
	s.announceDelete(ch, m, prev, ts)
	return ts
}

// JoinBot makes the bot a member of a channel. Like Slack it delivers member_joined_channel
// for the bot and posts the channel_join message ("<@U…> has joined the channel"), which is
// delivered too.
func (s *Server) JoinBot(channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	if ch.botMember() {
		return
	}
	ch.BotMember = true
	if !slices.Contains(ch.Members, s.cfg.botUser) {
		ch.Members = append(ch.Members, s.cfg.botUser)
	}
	ts, us := s.stamp()
	kind := "C"
	if ch.Kind != KindChannel {
		kind = "G"
	}
	s.enqueue(map[string]any{"type": "member_joined_channel", "user": s.cfg.botUser, "channel": ch.ID,
		"channel_type": kind, "team": s.cfg.teamID, "event_ts": ts})
	m := &message{ts: ts, us: us, user: s.cfg.botUser, subtype: "channel_join",
		text: "<@" + s.cfg.botUser + "> has joined the channel"}
	ch.insert(m)
	s.announce(ch, m)
	s.Notify()
}

// RenameChannel renames a channel and delivers channel_rename (group_rename for a private
// channel) when the bot can see the channel.
func (s *Server) RenameChannel(channelID, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	ch.Name = name
	typ := "channel_rename"
	if ch.Kind != KindChannel {
		typ = "group_rename"
	}
	if ch.visible() {
		ts, _ := s.stamp()
		s.enqueue(map[string]any{"type": typ, "event_ts": ts,
			"channel": map[string]any{"id": ch.ID, "name": name, "created": ch.created}})
	}
	s.Notify()
}

// RenameUser changes a user's name and display name and delivers user_change with the whole
// user object.
func (s *Server) RenameUser(userID, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.user(userID)
	if u == nil {
		panic(fmt.Sprintf("fakeslack: no user %q", userID))
	}
	u.Name, u.DisplayName = name, name
	ts, _ := s.stamp()
	s.enqueue(map[string]any{"type": "user_change", "user": s.wireUser(u), "cache_ts": s.now().Unix(), "event_ts": ts})
	s.Notify()
}
