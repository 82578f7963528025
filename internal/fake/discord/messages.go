package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// createBody is the part of Create Message's JSON the fake reads.
type createBody struct {
	Content string `json:"content"`
	// Components are action rows of buttons (components.go).
	Components       json.RawMessage `json:"components"`
	MessageReference *struct {
		MessageID string `json:"message_id"`
	} `json:"message_reference"`
	// AllowedMentions, when sent, pings a reply's author only with replied_user true.
	AllowedMentions *struct {
		RepliedUser bool `json:"replied_user"`
	} `json:"allowed_mentions"`
}

// filePart matches the multipart field names Discord takes for files.
var filePart = regexp.MustCompile(`^files\[\d+\]$`)

// createMessage is POST /channels/{id}/messages: JSON, or multipart/form-data with
// payload_json and files[n]. Call it with s.mu held.
func (s *Server) createMessage(r *http.Request, cid string, body []byte) (int, any, *restError) {
	const route = "POST /channels/{id}/messages"
	ch, rerr := s.channelFor(cid)
	if rerr != nil {
		return 0, nil, rerr
	}
	var p createBody
	var files []File
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		if err := json.Unmarshal(body, &p); err != nil {
			s.Violate("%s body is not JSON: %v", route, err)
			return 0, nil, &restError{status: http.StatusBadRequest, code: 50109, msg: "The request body contains invalid JSON."}
		}
	case "multipart/form-data":
		var err error
		if files, err = s.readMultipart(body, params["boundary"], &p); err != nil {
			s.Violate("%s multipart body: %v", route, err)
			return 0, nil, &restError{status: http.StatusBadRequest, code: 50035, msg: "Invalid Form Body"}
		}
	default:
		s.Violate("%s with Content-Type %q; Discord takes application/json or multipart/form-data", route, ct)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 50035, msg: "Invalid Form Body"}
	}
	if rerr := s.checkContent(route, p.Content); rerr != nil {
		return 0, nil, rerr
	}
	var rows [][]Button
	if p.Components != nil {
		if rows, rerr = s.readComponents(route, p.Components); rerr != nil {
			return 0, nil, rerr
		}
	}
	if strings.TrimSpace(p.Content) == "" && len(files) == 0 && len(rows) == 0 {
		s.Violate("%s with nothing to send", route)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 50006, msg: "Cannot send an empty message"}
	}
	m := &message{Message: Message{Author: s.cfg.botID, Content: p.Content, Files: files}, rows: rows}
	if ref := p.MessageReference; ref != nil {
		if ch.find(ref.MessageID) == nil {
			s.Violate("%s replies to message %s, which is not in channel %s", route, ref.MessageID, cid)
			return 0, nil, fieldError("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
		}
		m.Reference = ref.MessageID
		m.noPing = p.AllowedMentions != nil && !p.AllowedMentions.RepliedUser
	}
	s.post(ch, m)
	for _, f := range files {
		s.uploads = append(s.uploads, Upload{ChannelID: cid, MessageID: m.ID, Filename: f.Name, Content: f.Content, Text: p.Content})
	}
	return http.StatusOK, s.wireMessage(ch, m, true), nil
}

// readMultipart reads payload_json into p and returns the files[n] parts.
func (s *Server) readMultipart(body []byte, boundary string, p *createBody) ([]File, error) {
	parts, err := fakeserver.ReadParts(bytes.NewReader(body), boundary)
	if err != nil {
		return nil, err
	}
	var files []File
	sawPayload := false
	for _, part := range parts {
		switch {
		case part.Name == "payload_json":
			sawPayload = true
			if err := json.Unmarshal(part.Data, p); err != nil {
				return nil, fmt.Errorf("payload_json is not JSON: %w", err)
			}
		case filePart.MatchString(part.Name):
			if part.FileName == "" {
				return nil, fmt.Errorf("%s has no filename", part.Name)
			}
			files = append(files, File{Name: part.FileName, ContentType: part.ContentType, Content: part.Data})
		default:
			return nil, fmt.Errorf("unexpected field %q (Discord takes payload_json and files[n])", part.Name)
		}
	}
	if !sawPayload && len(files) == 0 {
		return nil, fmt.Errorf("neither payload_json nor files[n]")
	}
	return files, nil
}

// post stores a message in a channel and dispatches MESSAGE_CREATE. Call it with s.mu held.
func (s *Server) post(ch *channel, m *message) {
	s.keep(ch, m)
	if ch.hidden || (s.left && ch.Kind != KindDM) {
		return
	}
	s.dispatch("MESSAGE_CREATE", messageIntent(ch), func(intents int64) any {
		return s.wireMessage(ch, m, s.showsContent(ch, m, intents))
	})
}

// keep stores a message in a channel with a new id, without telling anyone. Call it with s.mu
// held.
func (s *Server) keep(ch *channel, m *message) {
	m.ID = s.snowflake()
	m.ChannelID = ch.ID
	m.at = time.Now()
	for _, f := range m.Files {
		aid := s.snowflake()
		name := strings.ReplaceAll(f.Name, " ", "_")
		m.atts = append(m.atts, wireAttachment{ID: aid, Filename: f.Name, Size: len(f.Content),
			URL: s.cdnURL(ch.ID, aid, name, f), ProxyURL: s.cdnURL(ch.ID, aid, name, f), ContentType: f.ContentType})
	}
	ch.msgs = append(ch.msgs, m)
	s.Notify()
}

// showsContent applies the MESSAGE_CONTENT rule: without the intent, a bot still sees the
// content of DMs, of its own messages and of messages that mention it. Call it with s.mu held.
func (s *Server) showsContent(ch *channel, m *message, intents int64) bool {
	if intents&IntentMessageContent != 0 || ch.Kind == KindDM || m.Author == s.cfg.botID {
		return true
	}
	for _, id := range s.mentionsOf(ch, m) {
		if id == s.cfg.botID {
			return true
		}
	}
	return false
}

// SayOption changes how Say posts a message.
type SayOption func(*sayOpts)

type sayOpts struct {
	reference string
	noPing    bool
	files     []File
	silent    bool
}

// InReplyTo makes the message a reply to another message of the channel (type 19 with a
// message_reference, and the replied-to message as referenced_message); the replied-to
// author is mentioned, as a reply pings by default, unless NoPing is given too.
func InReplyTo(messageID string) SayOption { return func(o *sayOpts) { o.reference = messageID } }

// NoPing makes a reply (InReplyTo) one whose author switched its ping off, as the "@ ON/OFF"
// toggle of Discord's reply bar does: the replied-to author is then not in mentions.
func NoPing() SayOption { return func(o *sayOpts) { o.noPing = true } }

// WithFile attaches a file, served at a signed CDN URL.
func WithFile(f File) SayOption { return func(o *sayOpts) { o.files = append(o.files, f) } }

// Silently stores the message without dispatching MESSAGE_CREATE, as something said while the
// bot was offline: Discord keeps no backlog for a bot, so only Get Channel Messages shows it.
func Silently() SayOption { return func(o *sayOpts) { o.silent = true } }

// Say posts a message by a user (a person or another bot) in a channel, DM or thread, and
// dispatches MESSAGE_CREATE to the sessions whose intents cover it (unless Silently). Mention
// someone with "<@id>" in text. It returns the new message's id. An unknown channel, user or
// replied-to message panics: it is a mistake in the test.
func (s *Server) Say(channelID, userID, text string, opts ...SayOption) string {
	var o sayOpts
	for _, opt := range opts {
		opt(&o)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	if s.users[userID] == nil {
		panic(fmt.Sprintf("fakediscord: no user %s", userID))
	}
	if o.reference != "" && ch.find(o.reference) == nil {
		panic(fmt.Sprintf("fakediscord: no message %s in %s to reply to", o.reference, channelID))
	}
	m := &message{Message: Message{Author: userID, Content: text, Reference: o.reference, Files: o.files},
		noPing: o.noPing && o.reference != ""}
	if o.silent {
		s.keep(ch, m)
	} else {
		s.post(ch, m)
	}
	return m.ID
}
