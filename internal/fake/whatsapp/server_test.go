//go:build !nowhatsapp

package fakewhatsapp

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"
	"google.golang.org/protobuf/proto"
)

// recorder is a device's event handler that keeps what it heard and answers handled() for
// messages.
type recorder struct {
	mu      sync.Mutex
	heard   []any
	handled func(*events.Message) bool
}

func (r *recorder) handle(evt any) bool {
	r.mu.Lock()
	r.heard = append(r.heard, evt)
	h := r.handled
	r.mu.Unlock()
	if m, ok := evt.(*events.Message); ok && h != nil {
		return h(m)
	}
	return true
}

func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.heard {
		if m, ok := e.(*events.Message); ok {
			out = append(out, m.Message.GetConversation()+m.Message.GetExtendedTextMessage().GetText())
		}
	}
	return out
}

func connect(t *testing.T, s *Server, r *recorder) *Client {
	t.Helper()
	c := s.Device()
	c.AddEventHandlerWithSuccessStatus(r.handle)
	if err := c.Connect(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestUnacknowledgedMessagesComeAgainInOrder: a message whose handler said false, or that was
// sent while the device was away, is delivered again after the next Connect, in order.
func TestUnacknowledgedMessagesComeAgainInOrder(t *testing.T) {
	t.Parallel()
	s := NewCast()
	r := &recorder{handled: func(m *events.Message) bool { return m.Message.GetConversation() != "refused" }}
	c := connect(t, s, r)
	s.Say(CastAda.JID, CastAda.JID, "taken")
	s.Say(CastAda.JID, CastAda.JID, "refused")
	s.WaitFor(t, "both to be delivered", func() bool { return len(r.messages()) == 2 })
	c.Disconnect()
	s.Say(CastAda.JID, CastAda.JID, "while away")
	if s.Pending() != 2 {
		t.Fatalf("%d pending; want the refused one and the one sent while away", s.Pending())
	}
	r2 := &recorder{}
	connect(t, s, r2)
	s.WaitFor(t, "the backlog", func() bool { return s.Pending() == 0 })
	if got := strings.Join(r2.messages(), ","); got != "refused,while away" {
		t.Errorf("the next connection heard %q", got)
	}
}

// TestEditsAndDeletionsFollowWhatsAppsRules: mom may edit its own text messages for 15 minutes
// and delete its own messages; anything else is refused and recorded.
func TestEditsAndDeletionsFollowWhatsAppsRules(t *testing.T) {
	t.Parallel()
	s := NewCast()
	c := connect(t, s, &recorder{})
	ctx := context.Background()
	ada := CastAda.JID
	theirs := s.Say(ada, ada, "hello")
	sent, err := c.SendMessage(ctx, ada, &waE2E.Message{Conversation: proto.String("first")})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(id types.MessageID, text string) error {
		_, err := c.SendMessage(ctx, ada, c.BuildEdit(ada, id, &waE2E.Message{Conversation: proto.String(text)}))
		return err
	}
	if err := edit(sent.ID, "second"); err != nil {
		t.Fatal(err)
	}
	if got := s.MomSaid(ada); len(got) != 1 || got[0].Text != "second" || got[0].Edits != 1 {
		t.Errorf("after the edit people see %+v", got)
	}
	if len(s.Violations()) != 0 {
		t.Fatalf("a valid edit was refused: %q", s.Violations())
	}
	s.Advance(EditWindow + time.Second)
	if err := edit(sent.ID, "third"); err == nil {
		t.Error("an edit past 15 minutes went through")
	}
	if err := edit(theirs, "forged"); err == nil {
		t.Error("an edit of ada's message went through")
	}
	if _, err := c.SendMessage(ctx, ada, c.BuildRevoke(ada, ada, theirs)); err == nil {
		t.Error("a deletion of ada's message went through")
	}
	if _, err := c.SendMessage(ctx, ada, c.BuildRevoke(ada, types.EmptyJID, sent.ID)); err != nil {
		t.Errorf("mom could not delete its own message: %v", err)
	}
	if v := s.Violations(); len(v) != 3 || !strings.Contains(v[0], "WhatsApp allows edits for 15m0s") {
		t.Errorf("violations = %q; want the late edit, the forged edit and the forged deletion", v)
	}
	if said := s.MomSaid(ada); len(said) != 0 {
		t.Errorf("after the deletion people see %+v", said)
	}
}

// TestMediaNeedsItsUploadAndItsKey: a picture mom sends must name its upload, with its keys;
// people's files download only with their own key.
func TestMediaNeedsItsUploadAndItsKey(t *testing.T) {
	t.Parallel()
	s := NewCast()
	r := &recorder{}
	c := connect(t, s, r)
	ctx := context.Background()
	up, err := c.Upload(ctx, []byte("\x89PNG picture"), whatsmeow.MediaImage)
	if err != nil {
		t.Fatal(err)
	}
	image := func(key []byte) *waE2E.Message {
		return &waE2E.Message{ImageMessage: &waE2E.ImageMessage{URL: proto.String(up.URL), DirectPath: proto.String(up.DirectPath),
			MediaKey: key, Mimetype: proto.String("image/png"), FileSHA256: up.FileSHA256, FileEncSHA256: up.FileEncSHA256,
			FileLength: proto.Uint64(up.FileLength)}}
	}
	if _, err := c.SendMessage(ctx, CastAda.JID, image(up.MediaKey)); err != nil {
		t.Errorf("a picture with its upload's keys was refused: %v", err)
	}
	if _, err := c.SendMessage(ctx, CastAda.JID, image([]byte("another key"))); err == nil {
		t.Error("a picture with a wrong key went through")
	}
	s.Say(CastFamily.JID, CastBea.JID, "look", WithDocument("a.txt", []byte("text"), "text/plain"))
	s.WaitFor(t, "the document", func() bool { return s.Pending() == 0 })
	var doc *waE2E.DocumentMessage
	r.mu.Lock()
	for _, e := range r.heard {
		if m, ok := e.(*events.Message); ok {
			doc = m.Message.GetDocumentMessage()
		}
	}
	r.mu.Unlock()
	if data, err := c.Download(ctx, doc); err != nil || string(data) != "text" {
		t.Errorf("Download = %q, %v", data, err)
	}
	if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "media key, hash or length") {
		t.Errorf("violations = %q; want the wrong key", v)
	}
}
