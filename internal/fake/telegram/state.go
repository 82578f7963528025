package faketelegram

import (
	"slices"
	"time"
)

// User is a Telegram account: a person or a bot.
type User struct {
	ID        int64
	FirstName string
	LastName  string
	Username  string // without '@'; may be empty, as for many real people
	IsBot     bool
}

// Chat kinds, as in Chat.Type.
const (
	Private    = "private"
	Group      = "group"
	Supergroup = "supergroup"
)

// Chat is a conversation the bot is in. A private chat's id is the other person's user id.
type Chat struct {
	ID    int64
	Type  string // Private, Group or Supergroup
	Title string // for groups
	// IsForum makes a supergroup a forum, whose messages live in topics (CreateTopic).
	IsForum bool
}

// Entity is a message entity: a span of the text with a meaning (bold, mention, bot_command,
// …), offset and length in UTF-16 code units as in the Bot API.
type Entity struct {
	Type     string `json:"type"`
	Offset   int    `json:"offset"`
	Length   int    `json:"length"`
	URL      string `json:"url,omitempty"`
	Language string `json:"language,omitempty"`
}

// Message is a message as people see it now, after edits.
type Message struct {
	ID     int
	ChatID int64
	// Thread is the forum topic's id, 0 outside topics.
	Thread int
	From   int64
	Date   time.Time
	// Text is the visible text (or a file's caption); HTML sent by the bot is parsed, so Text
	// holds no tags, and Entities say what was formatted.
	Text     string
	Entities []Entity
	// HTML is the markup the bot sent, when it sent parse_mode HTML.
	HTML string
	// ReplyTo is the id of the message this one replies to, 0 for none.
	ReplyTo int
	// File is the document, photo (its largest size), audio, video or voice note the
	// message carries, if any.
	File *File
	// Edits counts the editMessageText calls that changed it.
	Edits int
	// Buttons is the message's inline keyboard, in order; nil when it has none.
	Buttons []Button
}

// Kinds of file, named as the Message fields that carry them.
const (
	Document = "document"
	Photo    = "photo"
	Audio    = "audio"
	Video    = "video"
	Voice    = "voice"
)

// File is a file attached to a message.
type File struct {
	ID string
	// Kind is Document, Photo, Audio, Video or Voice.
	Kind     string
	Name     string // empty for photos and voice notes, which Telegram gives no name
	MimeType string
	Content  []byte
	// Width and Height are a photo's or a video's size in pixels.
	Width, Height int
}

// Upload is a file the bot sent with sendDocument or sendPhoto.
type Upload struct {
	Method    string // "sendDocument" or "sendPhoto"
	ChatID    int64
	Thread    int
	MessageID int
	Filename  string
	Caption   string
	Content   []byte
}

// Action is a sendChatAction call.
type Action struct {
	ChatID int64
	Thread int
	Action string
}

type chat struct {
	Chat
	msgs    []*message // in id order
	nextID  int
	topics  map[int]string
	members map[int64]membership // statuses set or learned; see memberOf
}

type message struct {
	Message
	deleted bool
	topic   *topicCreated // set on the service message that opened a topic
	fileRef *file
}

type topicCreated struct{ name string }

type file struct {
	File
	uniqueID string
	path     string
	// sizes are a photo's smaller sizes, smallest first; the file itself is the largest.
	sizes []*file
}

// AddUser adds a person (or another bot) who can then talk in chats.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := u
	s.users[u.ID] = &cp
}

// AddChat adds a chat the bot is a member of.
func (s *Server) AddChat(c Chat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats[c.ID] = &chat{Chat: c, nextID: 1, topics: map[int]string{}, members: map[int64]membership{}}
}

// DeleteChat removes a chat, as when its owner deletes the group: calls that name it answer
// 400 "chat not found".
func (s *Server) DeleteChat(chatID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.chats, chatID)
}

// CreateTopic opens a topic in a forum chat, by user, and returns its message_thread_id (the
// id of the service message that opened it, as in Telegram).
func (s *Server) CreateTopic(chatID, user int64, name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	m := s.store(c, &message{Message: Message{ChatID: chatID, From: user, Date: timeNow()}, topic: &topicCreated{name}})
	m.Thread = m.ID
	c.topics[m.ID] = name
	s.Notify()
	return m.ID
}

// store gives m the chat's next message id and keeps it; s.mu is held.
func (s *Server) store(c *chat, m *message) *message {
	m.ID = c.nextID
	c.nextID++
	c.msgs = append(c.msgs, m)
	return m
}

func (c *chat) msg(id int) *message {
	i, ok := slices.BinarySearchFunc(c.msgs, id, func(m *message, id int) int { return m.ID - id })
	if !ok || c.msgs[i].deleted {
		return nil
	}
	return c.msgs[i]
}

// Messages returns what people see in a chat's topic (0: outside topics, or every message
// when the chat is no forum), oldest first, deleted messages left out.
func (s *Server) Messages(chatID int64, thread int) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	if c == nil {
		return nil
	}
	var out []Message
	for _, m := range c.msgs {
		if !m.deleted && m.topic == nil && m.Thread == thread {
			out = append(out, m.Message)
		}
	}
	return out
}

// Uploads returns the files the bot sent, in order.
func (s *Server) Uploads() []Upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.uploads)
}

// Actions returns the chat actions the bot sent, in order.
func (s *Server) Actions() []Action {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.actions)
}

func timeNow() time.Time { return time.Now() }
