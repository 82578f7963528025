//go:build !nowhatsapp

package fakewhatsapp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/proto/waCommon"
	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"
	"google.golang.org/protobuf/proto"
)

// momDevice is the device number of mom's linked device, as its JID carries it.
const momDevice = 7

// Client is mom's linked device as one *whatsmeow.Client sees it: one is made per mom start
// (Device), over the same device store. Its methods are those of the adapter's Client
// interface.
type Client struct {
	s *Server

	mu       sync.Mutex
	handlers []whatsmeow.EventHandlerWithSuccessStatus
	// conn is the number of the connection while connected, 0 otherwise; qr is the channel
	// GetQRChannel made for the next Connect to link on (link.go). Both guarded by s.mu.
	conn int
	qr   chan whatsmeow.QRChannelItem
}

// Device returns a new client on mom's device, not connected.
func (s *Server) Device() *Client { return &Client{s: s} }

// AddEventHandlerWithSuccessStatus adds a handler for every event; a message is acknowledged
// only when every handler returns true.
func (c *Client) AddEventHandlerWithSuccessStatus(h whatsmeow.EventHandlerWithSuccessStatus) uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handlers = append(c.handlers, h)
	return uint32(len(c.handlers))
}

// dispatch hands evt to every handler and reports whether all of them took it.
func (c *Client) dispatch(evt any) bool {
	c.mu.Lock()
	hs := slices.Clone(c.handlers)
	c.mu.Unlock()
	ok := true
	for _, h := range hs {
		if !h(evt) {
			ok = false
			break
		}
	}
	return ok
}

// Connect connects the device and starts delivering: events.Connected, then every message not
// acknowledged yet, in order, then events.OfflineSyncCompleted, then new messages as they
// come. A device the phone removed meanwhile hears events.LoggedOut instead.
func (c *Client) Connect() error {
	s := c.s
	s.mu.Lock()
	switch {
	case c.conn != 0:
		s.mu.Unlock()
		return whatsmeow.ErrAlreadyConnected
	case !s.keys && c.qr != nil:
		s.pairLocked(c)
		s.mu.Unlock()
		s.Notify()
		return nil
	case !s.keys:
		s.mu.Unlock()
		s.Violate("Connect on a device that is not linked, without GetQRChannel first: whatsmeow would start pairing with a QR code, in the background, with nobody to scan it")
		return errors.New("fakewhatsapp: the device is not linked")
	case !s.known:
		s.keys = false // whatsmeow deletes the device's keys on a logout
		s.mu.Unlock()
		go c.dispatch(&events.LoggedOut{OnConnect: true, Reason: events.ConnectFailureLoggedOut})
		return nil
	}
	if old := s.client; old != nil && old != c {
		s.disconnectLocked(old)
		go old.dispatch(&events.StreamReplaced{})
	}
	s.conns++
	c.conn = s.conns
	s.client = c
	offline := len(s.pending)
	s.mu.Unlock()
	go c.deliver(c.conn, offline)
	s.Notify()
	return nil
}

// deliver is one connection's event loop.
func (c *Client) deliver(conn, offline int) {
	s := c.s
	c.dispatch(&events.Connected{})
	if offline == 0 {
		c.dispatch(&events.OfflineSyncCompleted{})
	}
	for n := 1; ; n++ {
		d := s.next(c, conn)
		if d == nil {
			return
		}
		ok := c.dispatch(d.evt)
		s.settle(c, conn, d, ok)
		if n == offline {
			c.dispatch(&events.OfflineSyncCompleted{Count: offline})
		}
	}
}

// next waits for the next message to hand to connection conn; nil once it has ended.
func (s *Server) next(c *Client, conn int) *delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if c.conn != conn {
			return nil
		}
		for _, d := range s.pending {
			if d.conn != conn {
				d.conn = conn
				s.delivered[d.evt.Info.ID]++
				return d
			}
		}
		s.cond.Wait()
	}
}

// settle acknowledges d when its handlers took it while the connection was still open (and
// acknowledgements are not being lost).
func (s *Server) settle(c *Client, conn int, d *delivery, ok bool) {
	s.mu.Lock()
	if ok && c.conn == conn && !s.dropAcks {
		s.pending = slices.DeleteFunc(s.pending, func(p *delivery) bool { return p == d })
		s.acked[d.evt.Info.ID] = d.evt
	}
	s.mu.Unlock()
	s.Notify()
}

// Disconnect closes the connection; it does not log the device out. A message whose handler
// is still running is not acknowledged.
func (c *Client) Disconnect() {
	s := c.s
	s.mu.Lock()
	if s.pairing != nil && s.pairing.c == c {
		s.endPairingLocked()
	}
	if c.conn != 0 {
		s.disconnectLocked(c)
	}
	s.mu.Unlock()
	s.Notify()
}

// IsConnected reports whether the connection is open.
func (c *Client) IsConnected() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.conn != 0
}

// IsLoggedIn reports whether the connection is open and logged in as mom's device.
func (c *Client) IsLoggedIn() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.conn != 0 && c.s.keys && c.s.known
}

// Self is mom's device JID and push name; ok is false while the device is not linked.
func (c *Client) Self() (types.JID, string, bool) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.keys {
		return types.JID{}, "", false
	}
	jid := s.mom.JID
	jid.Device = momDevice
	return jid, s.mom.PushName, true
}

// Contact is what the linked phone's address book and push names say of a person.
func (c *Client) Contact(_ context.Context, jid types.JID) (types.ContactInfo, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.people[jid.ToNonAD()]
	if p == nil {
		return types.ContactInfo{}, nil
	}
	first, _, _ := cutSpace(p.Contact)
	return types.ContactInfo{Found: true, FirstName: first, FullName: p.Contact, PushName: p.PushName}, nil
}

// GetGroupInfo returns a group's name and participants, each named as the group names them.
func (c *Client) GetGroupInfo(_ context.Context, jid types.JID) (*types.GroupInfo, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := c.loggedInLocked(); err != nil {
		return nil, err
	}
	g := s.groups[jid]
	if g == nil {
		return nil, whatsmeow.ErrGroupNotFound
	}
	info := &types.GroupInfo{JID: g.JID, GroupName: types.GroupName{Name: g.Name}, AddressingMode: types.AddressingModePN}
	if g.HidesNumbers {
		info.AddressingMode = types.AddressingModeLID
	}
	for _, m := range append([]types.JID{s.mom.JID}, g.Members...) {
		p := types.GroupParticipant{JID: s.addressLocked(m, g.JID), PhoneNumber: m}
		if q := s.people[m]; q != nil {
			p.LID = q.LID
		} else if m == s.mom.JID {
			p.LID = s.mom.LID
		}
		info.Participants = append(info.Participants, p)
	}
	info.ParticipantCount = len(info.Participants)
	return info, nil
}

// loggedInLocked is the error whatsmeow gives a call made without a logged-in connection.
func (c *Client) loggedInLocked() error {
	switch {
	case !c.s.keys:
		return whatsmeow.ErrNotLoggedIn
	case c.conn == 0:
		return whatsmeow.ErrNotConnected
	}
	return nil
}

// BuildEdit wraps newContent as an edit of mom's message id in chat, as whatsmeow does.
func (c *Client) BuildEdit(chat types.JID, id types.MessageID, newContent *waE2E.Message) *waE2E.Message {
	return &waE2E.Message{
		EditedMessage: &waE2E.FutureProofMessage{
			Message: &waE2E.Message{
				ProtocolMessage: &waE2E.ProtocolMessage{
					Key: &waCommon.MessageKey{
						FromMe:    proto.Bool(true),
						ID:        proto.String(id),
						RemoteJID: proto.String(chat.String()),
					},
					Type:          waE2E.ProtocolMessage_MESSAGE_EDIT.Enum(),
					EditedMessage: newContent,
					TimestampMS:   proto.Int64(c.s.Now().UnixMilli()),
				},
			},
		},
	}
}

// BuildRevoke wraps a deletion for everyone of the message id that sender sent to chat, as
// whatsmeow does: an empty sender or mom's own means one of mom's messages.
func (c *Client) BuildRevoke(chat, sender types.JID, id types.MessageID) *waE2E.Message {
	key := &waCommon.MessageKey{FromMe: proto.Bool(true), ID: proto.String(id), RemoteJID: proto.String(chat.String())}
	mom := c.s.Mom()
	if !sender.IsEmpty() && sender.User != mom.JID.User && sender.User != mom.LID.User {
		key.FromMe = proto.Bool(false)
		if chat.Server == types.GroupServer {
			key.Participant = proto.String(sender.ToNonAD().String())
		}
	}
	return &waE2E.Message{ProtocolMessage: &waE2E.ProtocolMessage{Type: waE2E.ProtocolMessage_REVOKE.Enum(), Key: key}}
}

// SendChatPresence records "typing…" (or its end) in a chat.
func (c *Client) SendChatPresence(_ context.Context, jid types.JID, state types.ChatPresence, _ types.ChatPresenceMedia) error {
	s := c.s
	s.mu.Lock()
	if err := c.loggedInLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	if !s.knownChatLocked(jid) {
		s.mu.Unlock()
		s.Violate("chat presence in %s, a chat mom is not in", jid)
		return nil
	}
	s.presence = append(s.presence, Presence{Chat: jid, State: state, At: s.nowLocked()})
	s.mu.Unlock()
	s.Notify()
	return nil
}

// MarkRead records read receipts for messages of sender in chat. WhatsApp takes one sender's
// messages per receipt, and only messages people sent in that chat.
func (c *Client) MarkRead(_ context.Context, ids []types.MessageID, _ time.Time, chat, sender types.JID, _ ...types.ReceiptType) error {
	if len(ids) == 0 {
		return errors.New("no message IDs specified")
	}
	s := c.s
	s.mu.Lock()
	if err := c.loggedInLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	var problems []string
	for _, id := range ids {
		m := s.findLocked(chat, id)
		switch {
		case m == nil:
			problems = append(problems, fmt.Sprintf("read receipt for %s, which is no message of %s", id, chat))
		case m.From == s.mom.JID:
			problems = append(problems, fmt.Sprintf("read receipt for mom's own message %s", id))
		case s.addressLocked(m.From, chat).User != sender.ToNonAD().User:
			problems = append(problems, fmt.Sprintf("read receipt for %s of %s names %s as its sender", id, m.From, sender))
		}
	}
	s.reads = append(s.reads, Read{Chat: chat, Sender: sender, IDs: slices.Clone(ids)})
	s.mu.Unlock()
	for _, p := range problems {
		s.Violate("%s", p)
	}
	s.Notify()
	return nil
}

// knownChatLocked reports whether mom is in chat: a group of the world, or a person's chat.
func (s *Server) knownChatLocked(chat types.JID) bool {
	if chat.Server == types.GroupServer {
		return s.groups[chat] != nil
	}
	return s.people[chat.ToNonAD()] != nil
}

// findLocked is the message id of chat.
func (s *Server) findLocked(chat types.JID, id types.MessageID) *Message {
	for _, m := range s.chats[chat] {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// cutSpace splits a name at its first space.
func cutSpace(name string) (string, string, bool) {
	for i, r := range name {
		if r == ' ' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}
