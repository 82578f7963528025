//go:build !nowhatsapp

package fakewhatsapp

import (
	"slices"
	"time"

	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"google.golang.org/protobuf/proto"
)

// Message is a message as people see it in a chat now, after edits and deletions.
type Message struct {
	ID   types.MessageID
	From types.JID // the sender's phone number JID; mom's for mom's messages
	At   time.Time // when it was sent, by the fake's clock
	// Text is the text (or a file's caption), as last edited.
	Text string
	// Quotes is the id of the message it quotes, "" for none.
	Quotes types.MessageID
	// Mentions are the JIDs its ContextInfo mentions.
	Mentions []string
	// File is the picture, document, audio, video or sticker it carries, if any.
	File *File
	// Edits counts the edits that reached it; Deleted says it was taken back.
	Edits   int
	Deleted bool
}

// File kinds, as the waE2E message that carries them.
const (
	Image    = "image"
	Document = "document"
	Audio    = "audio"
	Voice    = "voice"
	Video    = "video"
	Sticker  = "sticker"
)

// File is a file a message carries.
type File struct {
	Kind     string
	Name     string // a document's file name; "" for the other kinds
	Mimetype string
	Data     []byte
}

// Sent is one SendMessage call of mom's, with the proto as it was sent.
type Sent struct {
	To  types.JID
	Msg *waE2E.Message
	At  time.Time
	Err string // why the fake refused it, "" when it went through
}

// Presence is one chat presence mom sent ("typing…").
type Presence struct {
	Chat  types.JID
	State types.ChatPresence
	At    time.Time
}

// Read is one read receipt mom sent.
type Read struct {
	Chat, Sender types.JID
	IDs          []types.MessageID
}

// Messages returns what people see in a chat now, oldest first, deleted messages included
// (marked Deleted: WhatsApp shows "This message was deleted" in their place).
func (s *Server) Messages(chat types.JID) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Message, 0, len(s.chats[chat]))
	for _, m := range s.chats[chat] {
		c := *m
		c.Mentions = slices.Clone(m.Mentions)
		out = append(out, c)
	}
	return out
}

// MomSaid returns the messages of mom in a chat that people still see, oldest first.
func (s *Server) MomSaid(chat types.JID) []Message {
	var out []Message
	for _, m := range s.Messages(chat) {
		if m.From == s.mom.JID && !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

// Sends returns mom's SendMessage calls, oldest first.
func (s *Server) Sends() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Sent, len(s.sends))
	for i, x := range s.sends {
		out[i] = x
		out[i].Msg = proto.Clone(x.Msg).(*waE2E.Message)
	}
	return out
}

// Presences returns the chat presences mom sent, oldest first.
func (s *Server) Presences() []Presence {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.presence)
}

// Reads returns the read receipts mom sent, oldest first.
func (s *Server) Reads() []Read {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Read, len(s.reads))
	for i, r := range s.reads {
		out[i] = Read{Chat: r.Chat, Sender: r.Sender, IDs: slices.Clone(r.IDs)}
	}
	return out
}

// Deliveries is how many times a message was handed to mom's device.
func (s *Server) Deliveries(id types.MessageID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delivered[id]
}
