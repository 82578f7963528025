//go:build !nowhatsapp

package fakewhatsapp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"google.golang.org/protobuf/proto"
)

// errRefused is what the fake answers a message WhatsApp would not take.
var errRefused = errors.New("fakewhatsapp: WhatsApp refused the message")

// SendMessage takes a message of mom's: a new message, an edit (BuildEdit) or a deletion
// (BuildRevoke). It answers with the message's id and the server's time, as whatsmeow does.
func (c *Client) SendMessage(_ context.Context, to types.JID, msg *waE2E.Message, _ ...whatsmeow.SendRequestExtra) (whatsmeow.SendResponse, error) {
	s := c.s
	s.mu.Lock()
	if err := c.loggedInLocked(); err != nil {
		s.mu.Unlock()
		return whatsmeow.SendResponse{}, err
	}
	now := s.nowLocked()
	sent := Sent{To: to, Msg: proto.Clone(msg).(*waE2E.Message), At: now}
	id, problem := s.applyLocked(to, msg)
	sent.Err = problem
	s.sends = append(s.sends, sent)
	s.mu.Unlock()
	if problem != "" {
		s.Violate("%s", problem)
		s.Notify()
		return whatsmeow.SendResponse{}, fmt.Errorf("%w: %s", errRefused, problem)
	}
	s.Notify()
	return whatsmeow.SendResponse{ID: id, Timestamp: now.Truncate(1e9), Sender: s.mom.JID}, nil
}

// applyLocked changes the chat as msg from mom does and returns the id WhatsApp gives msg, or
// says which rule it breaks.
func (s *Server) applyLocked(to types.JID, msg *waE2E.Message) (types.MessageID, string) {
	if !s.knownChatLocked(to) {
		return "", fmt.Sprintf("message to %s, a chat mom is not in", to)
	}
	if e := msg.GetEditedMessage().GetMessage().GetProtocolMessage(); e != nil {
		return newID(), s.editLocked(to, e)
	}
	if p := msg.GetProtocolMessage(); p != nil {
		if p.GetType() != waE2E.ProtocolMessage_REVOKE {
			return "", fmt.Sprintf("protocol message of type %s to %s, which mom has no business sending", p.GetType(), to)
		}
		return newID(), s.revokeLocked(to, p)
	}
	m, problem := s.momMessageLocked(to, msg)
	if problem != "" {
		return "", problem
	}
	s.chats[to] = append(s.chats[to], m)
	return m.ID, ""
}

// momMessageLocked is what people see of a new message of mom's.
func (s *Server) momMessageLocked(to types.JID, msg *waE2E.Message) (*Message, string) {
	m := &Message{ID: newID(), From: s.mom.JID, At: s.nowLocked()}
	var ci *waE2E.ContextInfo
	var file *waE2E.Message
	switch {
	case msg.Conversation != nil:
		m.Text = msg.GetConversation()
	case msg.ExtendedTextMessage != nil:
		m.Text, ci = msg.ExtendedTextMessage.GetText(), msg.ExtendedTextMessage.GetContextInfo()
	case msg.ImageMessage != nil:
		m.Text, ci, file = msg.ImageMessage.GetCaption(), msg.ImageMessage.GetContextInfo(), msg
	case msg.DocumentMessage != nil:
		m.Text, ci, file = msg.DocumentMessage.GetCaption(), msg.DocumentMessage.GetContextInfo(), msg
	default:
		return nil, fmt.Sprintf("a message to %s of a kind mom does not send: %v", to, msg)
	}
	switch {
	case file == nil && m.Text == "":
		return nil, fmt.Sprintf("an empty message to %s", to)
	case len([]rune(m.Text)) > maxText:
		return nil, fmt.Sprintf("a message of %d characters to %s; WhatsApp takes %d", len([]rune(m.Text)), to, maxText)
	}
	if file != nil {
		f, problem := s.fileLocked(file)
		if problem != "" {
			return nil, problem
		}
		m.File = f
	}
	if q := ci.GetStanzaID(); q != "" {
		quoted := s.findLocked(to, q)
		if quoted == nil {
			return nil, fmt.Sprintf("a message to %s quotes %s, which is no message of that chat", to, q)
		}
		if want := s.addressLocked(quoted.From, to); ci.GetParticipant() != want.String() {
			return nil, fmt.Sprintf("a message to %s quotes %s of %s but names %q as its sender (apps would show the quote under the wrong name)", to, q, want, ci.GetParticipant())
		}
		if ci.GetQuotedMessage() == nil {
			return nil, fmt.Sprintf("a message to %s quotes %s without the quoted message, which apps show as the quote", to, q)
		}
		m.Quotes = q
	}
	m.Mentions = slices.Clone(ci.GetMentionedJID())
	for _, j := range m.Mentions {
		jid, err := types.ParseJID(j)
		if err != nil || !bytes.Contains([]byte(m.Text), []byte("@"+jid.User)) {
			return nil, fmt.Sprintf("a message to %s mentions %s, whose @%s its text lacks", to, j, jid.User)
		}
	}
	return m, ""
}

// fileLocked checks that a picture or document of mom's names an upload of its own kind, with
// the upload's keys, and returns the file as people see it.
func (s *Server) fileLocked(msg *waE2E.Message) (*File, string) {
	type media interface {
		GetDirectPath() string
		GetMediaKey() []byte
		GetFileSHA256() []byte
		GetFileLength() uint64
		GetMimetype() string
	}
	var m media
	f := &File{}
	want := whatsmeow.MediaImage
	if v := msg.ImageMessage; v != nil {
		m, f.Kind = v, Image
	} else {
		v := msg.DocumentMessage
		m, f.Kind, f.Name, want = v, Document, v.GetFileName(), whatsmeow.MediaDocument
	}
	up := s.media[m.GetDirectPath()]
	sum := sha256.Sum256(up.dataOrNil())
	switch {
	case up == nil || !up.byMom:
		return nil, fmt.Sprintf("a %s message whose media (%q) mom never uploaded", f.Kind, m.GetDirectPath())
	case up.kind != string(want):
		return nil, fmt.Sprintf("a %s message with media uploaded as %q, which its recipients cannot decrypt (it needs %q)", f.Kind, up.kind, want)
	case !bytes.Equal(m.GetMediaKey(), up.key) || !bytes.Equal(m.GetFileSHA256(), sum[:]) || m.GetFileLength() != uint64(len(up.data)):
		return nil, fmt.Sprintf("a %s message whose media key, hash or length is not its upload's", f.Kind)
	case m.GetMimetype() == "":
		return nil, fmt.Sprintf("a %s message without a MIME type", f.Kind)
	case f.Kind == Document && f.Name == "":
		return nil, "a document without a file name"
	}
	f.Mimetype, f.Data = m.GetMimetype(), slices.Clone(up.data)
	return f, ""
}

func (m *medium) dataOrNil() []byte {
	if m == nil {
		return nil
	}
	return m.data
}

// editLocked applies an edit of mom's, within WhatsApp's rules.
func (s *Server) editLocked(to types.JID, p *waE2E.ProtocolMessage) string {
	key := p.GetKey()
	m := s.findLocked(to, key.GetID())
	switch {
	case p.GetType() != waE2E.ProtocolMessage_MESSAGE_EDIT:
		return fmt.Sprintf("an edited message whose protocol message is a %s", p.GetType())
	case m == nil:
		return fmt.Sprintf("an edit of %s, which is no message of %s", key.GetID(), to)
	case !key.GetFromMe() || m.From != s.mom.JID:
		return fmt.Sprintf("an edit of %s, which is not mom's", key.GetID())
	case key.GetRemoteJID() != to.String():
		return fmt.Sprintf("an edit sent to %s of a message keyed to %s", to, key.GetRemoteJID())
	case m.Deleted:
		return fmt.Sprintf("an edit of %s, which was deleted", key.GetID())
	case m.File != nil:
		return fmt.Sprintf("an edit of %s, which carries a file", key.GetID())
	}
	if age := s.nowLocked().Sub(m.At); age > EditWindow {
		return fmt.Sprintf("an edit of %s %s after it was sent; WhatsApp allows edits for %s", key.GetID(), age.Round(1e9), EditWindow)
	}
	n := p.GetEditedMessage()
	text := n.GetConversation()
	if t := n.GetExtendedTextMessage(); t != nil {
		text = t.GetText()
	}
	if text == "" {
		return fmt.Sprintf("an edit of %s to no text", key.GetID())
	}
	m.Text = text
	m.Mentions = slices.Clone(n.GetExtendedTextMessage().GetContextInfo().GetMentionedJID())
	m.Edits++
	return ""
}

// revokeLocked applies a deletion for everyone of one of mom's messages.
func (s *Server) revokeLocked(to types.JID, p *waE2E.ProtocolMessage) string {
	key := p.GetKey()
	m := s.findLocked(to, key.GetID())
	switch {
	case m == nil:
		return fmt.Sprintf("a deletion of %s, which is no message of %s", key.GetID(), to)
	case !key.GetFromMe() || m.From != s.mom.JID:
		return fmt.Sprintf("a deletion of %s, which is not mom's (mom is no group admin)", key.GetID())
	case m.Deleted:
		return fmt.Sprintf("a second deletion of %s", key.GetID())
	}
	m.Deleted = true
	return ""
}

// Upload takes a file mom is about to send and answers with where it is and its keys.
func (c *Client) Upload(_ context.Context, plaintext []byte, mediaType whatsmeow.MediaType) (whatsmeow.UploadResponse, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := c.loggedInLocked(); err != nil {
		return whatsmeow.UploadResponse{}, err
	}
	m := s.storeLocked(plaintext, mediaType, true)
	sum := sha256.Sum256(plaintext)
	enc := sha256.Sum256(append(slices.Clone(m.key), plaintext...))
	return whatsmeow.UploadResponse{URL: "https://mmg.whatsapp.net" + m.direct, DirectPath: m.direct,
		MediaKey: slices.Clone(m.key), FileSHA256: sum[:], FileEncSHA256: enc[:], FileLength: uint64(len(plaintext))}, nil
}

// storeLocked puts a file on the media servers.
func (s *Server) storeLocked(data []byte, kind whatsmeow.MediaType, byMom bool) *medium {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	direct := "/v/t62.7118-24/" + hex.EncodeToString(key[:8])
	m := &medium{data: slices.Clone(data), key: key, kind: string(kind), byMom: byMom, direct: direct}
	s.media[direct] = m
	return m
}

// Download fetches the file a message of people's carries, checking its key and hash as
// whatsmeow's decryption does; a download the test made fail answers its error.
func (c *Client) Download(_ context.Context, msg whatsmeow.DownloadableMessage) ([]byte, error) {
	s := c.s
	s.mu.Lock()
	if err := c.loggedInLocked(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	m := s.media[msg.GetDirectPath()]
	var problem string
	switch {
	case m == nil:
		problem = fmt.Sprintf("download of %q, which is no file on WhatsApp's servers", msg.GetDirectPath())
	case !bytes.Equal(msg.GetMediaKey(), m.key):
		problem = fmt.Sprintf("download of %q with another message's media key", msg.GetDirectPath())
	}
	s.mu.Unlock()
	if problem != "" {
		s.Violate("%s", problem)
		return nil, whatsmeow.ErrMediaDownloadFailedWith404
	}
	if m.fail != nil {
		return nil, m.fail
	}
	if sum := sha256.Sum256(m.data); !bytes.Equal(msg.GetFileSHA256(), sum[:]) {
		return nil, whatsmeow.ErrInvalidMediaSHA256
	}
	return slices.Clone(m.data), nil
}
