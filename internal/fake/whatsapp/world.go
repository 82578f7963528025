//go:build !nowhatsapp

package fakewhatsapp

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// EditWindow is how long after sending WhatsApp lets the sender edit a message.
const EditWindow = 15 * time.Minute

// maxText is the longest text WhatsApp takes in one message.
const maxText = 65536

// patience is how long WaitFor waits: the same hang guard as the tests that use the fake.
const patience = 60 * time.Second

// Person is someone on WhatsApp.
type Person struct {
	// JID is their phone number's JID ("431111111@s.whatsapp.net").
	JID types.JID
	// LID is their hidden id, which groups that hide numbers show instead.
	LID types.JID
	// PushName is the name they set in their profile, which comes with their messages.
	PushName string
	// Contact is the name the linked phone's address book has for them; "" for none.
	Contact string
}

// Group is a group chat.
type Group struct {
	JID  types.JID
	Name string
	// Members are the people in it, by phone number JID; mom is in every group of the world.
	Members []types.JID
	// HidesNumbers makes the group address people by their hidden ids (LIDs), as WhatsApp
	// does in communities and groups that hide phone numbers.
	HidesNumbers bool
}

// Option configures a Server.
type Option func(*Server)

// Unlinked starts the world without a linked device: mom's number exists, but the data
// directory has no device keys yet.
func Unlinked() Option { return func(s *Server) { s.keys, s.known = false, false } }

// Server is a WhatsApp world: mom's linked device, people, groups, the chats as people see
// them, and what mom did. It is safe for concurrent use.
type Server struct {
	*fakeserver.Recorder

	mu       sync.Mutex
	advanced time.Duration // how far the clock is ahead of the system clock
	mom      Person
	// keys says the device store holds the linked device's keys; known says WhatsApp still
	// knows the device. The phone can remove it while mom is away: then the keys are still
	// there, and the next connection is logged out.
	keys, known bool
	cond        *sync.Cond            // signalled when a delivery loop may have work
	people      map[types.JID]*Person // by phone number JID and by LID
	groups      map[types.JID]*Group
	chats       map[types.JID][]*Message
	pending     []*delivery // messages not acknowledged yet, oldest first
	// delivered counts the deliveries of each message to mom's device.
	delivered map[types.MessageID]int
	acked     map[types.MessageID]*events.Message // for Redeliver
	client    *Client                             // the connected device, if any
	pairing   *pairing                            // a device connected unlinked, showing codes (link.go)
	conns     int                                 // connections made
	dropAcks  bool
	media     map[string]*medium // by direct path: people's files and mom's uploads
	sends     []Sent
	presence  []Presence
	reads     []Read
}

// delivery is a message on its way to mom's device.
type delivery struct {
	evt *events.Message
	// conn is the connection it was last handed to; it is handed again on a later one.
	conn int
}

// medium is a file on WhatsApp's media servers.
type medium struct {
	data   []byte
	key    []byte
	kind   string // the whatsmeow.MediaType it was uploaded as
	fail   error  // what a download answers instead, if set
	byMom  bool
	direct string
}

// New returns an empty world where mom's number is linked (unless Unlinked).
func New(mom Person, opts ...Option) *Server {
	s := &Server{Recorder: fakeserver.NewRecorder("fakewhatsapp", patience), mom: mom, keys: true, known: true,
		people: map[types.JID]*Person{}, groups: map[types.JID]*Group{}, chats: map[types.JID][]*Message{},
		media: map[string]*medium{}, delivered: map[types.MessageID]int{},
		acked: map[types.MessageID]*events.Message{}}
	s.cond = sync.NewCond(&s.mu)
	for _, o := range opts {
		o(s)
	}
	return s
}

// AddPerson adds someone mom can hear from.
func (s *Server) AddPerson(p Person) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := p
	s.people[p.JID] = &q
	if !p.LID.IsEmpty() {
		s.people[p.LID] = &q
	}
}

// AddGroup adds a group that mom is in.
func (s *Server) AddGroup(g Group) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := g
	s.groups[g.JID] = &q
}

// Mom is mom's own account.
func (s *Server) Mom() Person { return s.mom }

// Tag is how a mention of p is written in a message's text: "@" and their number, or their
// hidden id in a group that hides numbers.
func (s *Server) Tag(p types.JID, in types.JID) string {
	return "@" + s.address(p, in).User
}

// address is how chat names person: by hidden id in a group that hides numbers.
func (s *Server) address(person, chat types.JID) types.JID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addressLocked(person, chat)
}

func (s *Server) addressLocked(person, chat types.JID) types.JID {
	g := s.groups[chat]
	if g == nil || !g.HidesNumbers {
		return person
	}
	if person.User == s.mom.JID.User {
		return s.mom.LID
	}
	if p := s.people[person]; p != nil && !p.LID.IsEmpty() {
		return p.LID
	}
	return person
}

// Now is the fake's clock: the system clock, moved on by Advance.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Now().Add(s.advanced)
}

func (s *Server) nowLocked() time.Time { return time.Now().Add(s.advanced) }

// Advance moves the clock on by d, as if that much time had passed.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	s.advanced += d
	s.mu.Unlock()
	s.Notify()
}

// Linked reports whether mom's device is linked.
func (s *Server) Linked() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys && s.known
}

// Connections is how many times mom's device connected.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// Connected reports whether mom's device is connected now.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client != nil
}

// Pending is how many messages wait for mom's acknowledgement.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
}

// DropAcks makes the acknowledgements of messages get lost on their way (on), as when mom
// dies between logging a message and acknowledging it; the messages stay pending and come
// again after the next Connect.
func (s *Server) DropAcks(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropAcks = on
}

// Drop cuts the connection the way a network failure does: the device hears
// events.Disconnected, and messages sent from now on wait for it to connect again.
func (s *Server) Drop() {
	s.mu.Lock()
	c := s.client
	if c != nil {
		s.disconnectLocked(c)
	}
	s.mu.Unlock()
	if c != nil {
		c.dispatch(&events.Disconnected{})
	}
	s.Notify()
}

// KeepAliveTimeout plays a connection that stays open but stops answering: the device hears
// that n keep-alive pings failed.
func (s *Server) KeepAliveTimeout(n int) {
	if c := s.connected(); c != nil {
		c.dispatch(&events.KeepAliveTimeout{ErrorCount: n, LastSuccess: time.Now().Add(-time.Duration(n) * 25 * time.Second)})
	}
}

// KeepAliveRestored plays a silent connection that answers again.
func (s *Server) KeepAliveRestored() {
	if c := s.connected(); c != nil {
		c.dispatch(&events.KeepAliveRestored{})
	}
}

// RemoveDevice plays the phone's owner removing mom's linked device (WhatsApp → Linked
// devices → Log out): a connected device hears events.LoggedOut, and the device is unlinked,
// as whatsmeow deletes its keys; a device that is not connected hears it when it next
// connects.
func (s *Server) RemoveDevice() {
	s.mu.Lock()
	s.known = false
	c := s.client
	if c != nil {
		s.keys = false // whatsmeow deletes the device's keys on a logout
		s.disconnectLocked(c)
	}
	s.mu.Unlock()
	if c != nil {
		c.dispatch(&events.LoggedOut{Reason: events.ConnectFailureLoggedOut})
	}
	s.Notify()
}

func (s *Server) connected() *Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// disconnectLocked ends c's connection; its delivery loop ends after the event in hand.
func (s *Server) disconnectLocked(c *Client) {
	if s.client == c {
		s.client = nil
	}
	c.conn = 0
	s.cond.Broadcast()
}

// newID is a message id in the form whatsmeow makes them ("3EB0" and hex).
func newID() types.MessageID {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return types.MessageID("3EB0" + strings.ToUpper(hex.EncodeToString(b)))
}

// The cast of NewCast. Tests of the WhatsApp adapter use it; ada is made mom's admin there.
var (
	// CastMom is mom's own number; its device is linked as device 7.
	CastMom = Person{JID: types.NewJID("43660000001", types.DefaultUserServer), LID: types.NewJID("900000000000001", types.HiddenUserServer), PushName: "mom"}
	// CastAda is in the phone's address book as "Ada Lovelace".
	CastAda = Person{JID: types.NewJID("431111111", types.DefaultUserServer), LID: types.NewJID("900000000000002", types.HiddenUserServer), PushName: "Ada", Contact: "Ada Lovelace"}
	// CastBea is not in the address book; mom knows her by her push name.
	CastBea = Person{JID: types.NewJID("432222222", types.DefaultUserServer), LID: types.NewJID("900000000000003", types.HiddenUserServer), PushName: "Bea"}
	// CastFamily is a group of ada, bea and mom.
	CastFamily = Group{JID: types.NewJID("120363000000000001", types.GroupServer), Name: "Family",
		Members: []types.JID{CastAda.JID, CastBea.JID}}
	// CastClub is a group of ada, bea and mom that hides phone numbers.
	CastClub = Group{JID: types.NewJID("120363000000000002", types.GroupServer), Name: "Club",
		Members: []types.JID{CastAda.JID, CastBea.JID}, HidesNumbers: true}
)

// NewCast returns a world with mom, ada, bea, the Family group and the Club group.
func NewCast(opts ...Option) *Server {
	s := New(CastMom, opts...)
	s.AddPerson(CastAda)
	s.AddPerson(CastBea)
	s.AddGroup(CastFamily)
	s.AddGroup(CastClub)
	return s
}
