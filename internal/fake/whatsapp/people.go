//go:build !nowhatsapp

package fakewhatsapp

import (
	"crypto/sha256"
	"slices"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"
	"google.golang.org/protobuf/proto"
)

// SayOption shapes a message a person sends.
type SayOption func(*saying)

type saying struct {
	mentions []types.JID
	replyTo  types.MessageID
	file     *File
	fail     error
}

// Mentioning makes the message mention people (by phone number JID): its text should hold
// their tags (Tag), as the apps write them.
func Mentioning(people ...types.JID) SayOption {
	return func(s *saying) { s.mentions = append(s.mentions, people...) }
}

// ReplyTo makes the message quote the message id of the same chat.
func ReplyTo(id types.MessageID) SayOption { return func(s *saying) { s.replyTo = id } }

// WithImage attaches a picture; the text is its caption.
func WithImage(data []byte, mimetype string) SayOption {
	return withFile(File{Kind: Image, Mimetype: mimetype, Data: data})
}

// WithDocument attaches a document named name; the text is its caption.
func WithDocument(name string, data []byte, mimetype string) SayOption {
	return withFile(File{Kind: Document, Name: name, Mimetype: mimetype, Data: data})
}

// WithAudio attaches an audio file.
func WithAudio(data []byte, mimetype string) SayOption {
	return withFile(File{Kind: Audio, Mimetype: mimetype, Data: data})
}

// WithVoice attaches a voice note, which the apps record as Ogg Opus.
func WithVoice(data []byte) SayOption {
	return withFile(File{Kind: Voice, Mimetype: "audio/ogg; codecs=opus", Data: data})
}

// WithVideo attaches a video; the text is its caption.
func WithVideo(data []byte, mimetype string) SayOption {
	return withFile(File{Kind: Video, Mimetype: mimetype, Data: data})
}

// WithSticker attaches a sticker, a WebP picture.
func WithSticker(data []byte) SayOption {
	return withFile(File{Kind: Sticker, Mimetype: "image/webp", Data: data})
}

func withFile(f File) SayOption { return func(s *saying) { s.file = &f } }

// FailingDownload makes the download of the message's file fail with err, as an expired
// file's does (whatsmeow.ErrMediaDownloadFailedWith410).
func FailingDownload(err error) SayOption { return func(s *saying) { s.fail = err } }

// Say has person from send text to chat (a group, or for a 1:1 chat with mom the person's own
// JID) and returns the message's id. It shows in the chat at once and reaches mom's device
// when it is connected, else after it connects.
func (s *Server) Say(chat, from types.JID, text string, opts ...SayOption) types.MessageID {
	s.mu.Lock()
	evt, seen := s.composeLocked(chat, from, text, s.nowLocked(), opts)
	s.chats[chat] = append(s.chats[chat], seen)
	s.pending = append(s.pending, &delivery{evt: evt})
	s.cond.Broadcast()
	s.mu.Unlock()
	s.Notify()
	return evt.Info.ID
}

// composeLocked makes the message person from sends to chat at the time `at`: the event mom's
// device hears, as whatsmeow decodes it, and the message as people see it in the chat.
func (s *Server) composeLocked(chat, from types.JID, text string, at time.Time, opts []SayOption) (*events.Message, *Message) {
	var say saying
	for _, o := range opts {
		o(&say)
	}
	g := s.groups[chat]
	p := s.people[from]
	if p == nil {
		p = &Person{JID: from}
	}
	info := types.MessageInfo{
		MessageSource: types.MessageSource{Chat: chat, Sender: from, IsGroup: g != nil},
		ID:            newID(), Timestamp: at.Truncate(1e9), PushName: p.PushName, Type: "text",
	}
	if from == s.mom.JID {
		info.IsFromMe, info.PushName = true, s.mom.PushName
	}
	if g != nil {
		info.AddressingMode = types.AddressingModePN
		if g.HidesNumbers {
			info.AddressingMode = types.AddressingModeLID
			info.Sender, info.SenderAlt = s.addressLocked(from, chat), from
		}
	}
	seen := &Message{ID: info.ID, From: from, At: at, Text: text}
	var ci *waE2E.ContextInfo
	if len(say.mentions) > 0 || say.replyTo != "" {
		ci = &waE2E.ContextInfo{}
		for _, m := range say.mentions {
			ci.MentionedJID = append(ci.MentionedJID, s.addressLocked(m, chat).String())
		}
		if q := s.findLocked(chat, say.replyTo); q != nil {
			ci.StanzaID = proto.String(q.ID)
			ci.Participant = proto.String(s.addressLocked(q.From, chat).String())
			ci.QuotedMessage = &waE2E.Message{Conversation: proto.String(q.Text)}
			seen.Quotes = q.ID
		}
		seen.Mentions = slices.Clone(ci.MentionedJID)
	}
	raw := &waE2E.Message{Conversation: proto.String(text)}
	if ci != nil {
		raw = &waE2E.Message{ExtendedTextMessage: &waE2E.ExtendedTextMessage{Text: proto.String(text), ContextInfo: ci}}
	}
	if f := say.file; f != nil {
		info.Type, info.MediaType = "media", f.Kind
		raw = s.mediaMessageLocked(f, text, ci, say.fail)
		seen.File = f
	}
	evt := &events.Message{Info: info, RawMessage: raw}
	evt.UnwrapRaw()
	return evt, seen
}

// mediaMessageLocked puts a person's file on the media servers and returns the message that
// carries it, with text as its caption (a document's caption wraps it, as the apps send it).
func (s *Server) mediaMessageLocked(f *File, text string, ci *waE2E.ContextInfo, fail error) *waE2E.Message {
	kind := map[string]whatsmeow.MediaType{Image: whatsmeow.MediaImage, Document: whatsmeow.MediaDocument,
		Audio: whatsmeow.MediaAudio, Voice: whatsmeow.MediaAudio, Video: whatsmeow.MediaVideo, Sticker: whatsmeow.MediaImage}[f.Kind]
	m := s.storeLocked(f.Data, kind, false)
	m.fail = fail
	sum := sha256.Sum256(f.Data)
	enc := sha256.Sum256(append(slices.Clone(m.key), f.Data...))
	url, direct, key, size := proto.String("https://mmg.whatsapp.net"+m.direct), proto.String(m.direct), m.key, proto.Uint64(uint64(len(f.Data)))
	mime, caption := proto.String(f.Mimetype), optional(text)
	switch f.Kind {
	case Image:
		return &waE2E.Message{ImageMessage: &waE2E.ImageMessage{URL: url, DirectPath: direct, MediaKey: key, FileSHA256: sum[:],
			FileEncSHA256: enc[:], FileLength: size, Mimetype: mime, Caption: caption, ContextInfo: ci}}
	case Document:
		doc := &waE2E.Message{DocumentMessage: &waE2E.DocumentMessage{URL: url, DirectPath: direct, MediaKey: key, FileSHA256: sum[:],
			FileEncSHA256: enc[:], FileLength: size, Mimetype: mime, FileName: proto.String(f.Name), Title: proto.String(f.Name),
			Caption: caption, ContextInfo: ci}}
		if caption == nil {
			return doc
		}
		return &waE2E.Message{DocumentWithCaptionMessage: &waE2E.FutureProofMessage{Message: doc}}
	case Audio, Voice:
		return &waE2E.Message{AudioMessage: &waE2E.AudioMessage{URL: url, DirectPath: direct, MediaKey: key, FileSHA256: sum[:],
			FileEncSHA256: enc[:], FileLength: size, Mimetype: mime, PTT: proto.Bool(f.Kind == Voice), ContextInfo: ci}}
	case Video:
		return &waE2E.Message{VideoMessage: &waE2E.VideoMessage{URL: url, DirectPath: direct, MediaKey: key, FileSHA256: sum[:],
			FileEncSHA256: enc[:], FileLength: size, Mimetype: mime, Caption: caption, ContextInfo: ci}}
	}
	return &waE2E.Message{StickerMessage: &waE2E.StickerMessage{URL: url, DirectPath: direct, MediaKey: key, FileSHA256: sum[:],
		FileEncSHA256: enc[:], FileLength: size, Mimetype: mime, ContextInfo: ci}}
}

// Redeliver sends a message of people's to mom's device once more, as WhatsApp does with a
// retry or a duplicate, whether or not it was acknowledged.
func (s *Server) Redeliver(id types.MessageID) {
	s.mu.Lock()
	defer s.Notify()
	defer s.mu.Unlock()
	for _, d := range s.pending {
		if d.evt.Info.ID == id {
			s.pending = append(s.pending, &delivery{evt: d.evt})
			s.cond.Broadcast()
			return
		}
	}
	if evt := s.acked[id]; evt != nil {
		s.pending = append(s.pending, &delivery{evt: evt})
		s.cond.Broadcast()
	}
}

// optional is s as an optional proto field: absent when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return proto.String(s)
}
