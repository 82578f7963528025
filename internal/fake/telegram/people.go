package faketelegram

import (
	"fmt"
	"net/http"
	"path"
	"regexp"
	"slices"
	"unicode/utf16"
)

// SayOption changes a message a person sends.
type SayOption func(*message)

// InTopic sends the message in a forum topic (the id CreateTopic returned).
func InTopic(thread int) SayOption { return func(m *message) { m.Thread = thread } }

// ReplyTo makes the message a reply to the message with that id.
func ReplyTo(id int) SayOption { return func(m *message) { m.ReplyTo = id } }

// WithDocument attaches a file, sent as a document; the text becomes its caption.
func WithDocument(name string, content []byte) SayOption {
	return withFile(File{Kind: Document, Name: name, MimeType: http.DetectContentType(content), Content: content})
}

// WithPhoto attaches a photo, a PNG, JPEG or GIF image; the text becomes its caption. As
// Telegram does, the fake keeps it as JPEG in several sizes, sent smallest first.
func WithPhoto(content []byte) SayOption {
	return func(m *message) {
		f, err := newPhoto(content)
		if err != nil {
			panic("faketelegram: WithPhoto of an image Telegram would refuse: " + err.desc)
		}
		m.fileRef = f
	}
}

// WithAudio attaches a music file, as a player shows it; name may be empty, as Telegram's
// file_name is optional. The text becomes its caption.
func WithAudio(name, mimeType string, content []byte) SayOption {
	return withFile(File{Kind: Audio, Name: name, MimeType: mimeType, Content: content})
}

// WithVideo attaches a video (MPEG-4, 640×360, as the fake reports it); name may be empty.
// The text becomes its caption.
func WithVideo(name string, content []byte) SayOption {
	return withFile(File{Kind: Video, Name: name, MimeType: "video/mp4", Content: content, Width: 640, Height: 360})
}

// WithVoice attaches a voice note (Ogg Opus, which Telegram gives no name).
func WithVoice(content []byte) SayOption {
	return withFile(File{Kind: Voice, MimeType: "audio/ogg", Content: content})
}

func withFile(f File) SayOption {
	return func(m *message) { m.fileRef = &file{File: f} }
}

// Say has user send text to a chat, as Telegram delivers it to the bot: the message gets the
// chat's next id, entities for @mentions and /commands, and an update for getUpdates (unless
// allowed_updates leaves messages out, or the bot is no longer in the chat); user becomes a
// member of the chat unless SetMember said otherwise. It returns the message's id.
func (s *Server) Say(chatID, user int64, text string, opts ...SayOption) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	if c == nil {
		panic(fmt.Sprintf("faketelegram: Say in unknown chat %d", chatID))
	}
	if s.users[user] == nil {
		panic(fmt.Sprintf("faketelegram: Say by unknown user %d", user))
	}
	if _, set := c.members[user]; !set {
		c.members[user] = membership{status: Member} // whoever speaks in a chat is in it
	}
	m := &message{Message: Message{ChatID: chatID, From: user, Date: timeNow(), Text: text}}
	for _, o := range opts {
		o(m)
	}
	if m.Thread != 0 && c.topics[m.Thread] == "" {
		panic(fmt.Sprintf("faketelegram: no topic %d in chat %d", m.Thread, chatID))
	}
	m.Entities = detectEntities(text)
	if f := m.fileRef; f != nil {
		s.addFile(f)
		m.File = &f.File
	}
	s.store(c, m)
	if s.botIn(c) {
		s.queue("message", s.wireMessage(c, m, false))
	}
	s.Notify()
	return m.ID
}

// folders are where Telegram keeps each kind of file, as getFile's file_path shows.
var folders = map[string]string{Document: "documents", Photo: "photos", Audio: "music", Video: "videos", Voice: "voice"}

// addFile gives f (and a photo's smaller sizes) ids and a path for getFile; s.mu is held.
func (s *Server) addFile(f *file) {
	for _, size := range f.sizes {
		s.addFile(size)
	}
	s.nextFile++
	f.ID = fmt.Sprintf("BQACAgIAAxkBAAI%06d", s.nextFile)
	f.uniqueID = fmt.Sprintf("AgAD%06d", s.nextFile)
	f.path = fmt.Sprintf("%s/file_%d%s", folders[f.Kind], s.nextFile, extOf(f.File))
	s.files[f.ID] = f
}

func extOf(f File) string {
	switch f.Kind {
	case Photo:
		return ".jpg"
	case Voice:
		return ".oga"
	}
	return path.Ext(f.Name)
}

var (
	mentionRe = regexp.MustCompile(`(^|[^\w@])(@[A-Za-z][A-Za-z0-9_]{3,31})`)
	commandRe = regexp.MustCompile(`(^|\s)(/[A-Za-z0-9_]{1,32}(?:@[A-Za-z][A-Za-z0-9_]{3,31})?)`)
)

// detectEntities finds the entities Telegram marks in what people type: @username mentions
// and /commands (with an optional @botname).
func detectEntities(text string) []Entity {
	var out []Entity
	add := func(kind string, re *regexp.Regexp) {
		for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
			start, end := loc[4], loc[5]
			out = append(out, Entity{Type: kind, Offset: utf16Len(text[:start]), Length: utf16Len(text[start:end])})
		}
	}
	add("mention", mentionRe)
	add("bot_command", commandRe)
	slices.SortFunc(out, func(a, b Entity) int { return a.Offset - b.Offset })
	return out
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }
