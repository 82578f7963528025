package slack

import (
	"context"
	"fmt"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/chat/chattest"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
	"github.com/mom-agent/mom/internal/store"
)

// TestBackfillFindsThreadsWithOldParents: replies posted while mom was away in threads whose
// parents are older than its newest logged line are caught up, whether the thread shows
// through a reply also sent to the channel or through a logged reply; a thread that is gone
// does not stop the others, and a rate-limited conversations.replies is waited out.
func TestBackfillFindsThreadsWithOldParents(t *testing.T) {
	s := fakeslack.New()
	t.Cleanup(s.Close)
	s.AddUser(fakeslack.User{ID: "U1", Name: "ann"})
	s.AddUser(fakeslack.User{ID: "U2", Name: "bob"})
	s.AddChannel(fakeslack.Channel{ID: "C1", Name: "general", BotMember: true, Members: []string{"U1", "U2"}})
	st, err := store.Open(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ch, err := st.ChannelDir("acme", "C1")
	if err != nil {
		t.Fatal(err)
	}
	logged := func(ts, thread, text string) {
		t.Helper()
		if _, err := ch.AppendLog(chat.Message{ID: ts, ChannelID: "C1", TS: mustTS(ts), Text: text, ReplyTo: thread}); err != nil {
			t.Fatal(err)
		}
	}

	base := time.Now().Add(-time.Hour)
	at := func(min int) fakeslack.SayOption { return fakeslack.At(base.Add(time.Duration(min) * time.Minute)) }
	broadcasted := s.Say("C1", "U1", "release plan", fakeslack.Silently(), at(0))
	followed := s.Say("C1", "U2", "flaky test", fakeslack.Silently(), at(1))
	reply := s.Say("C1", "U1", "looking", fakeslack.InThread(followed), fakeslack.Silently(), at(2))
	seen := s.Say("C1", "U2", "lunch?", fakeslack.Silently(), at(3))
	logged(followed, "", "flaky test")
	logged(reply, followed, "looking")
	logged("1600000000.000100", "1600000000.000001", "a thread that was deleted since")
	logged(seen, "", "lunch?")

	s.Say("C1", "U2", "fixed it", fakeslack.InThread(followed), fakeslack.Silently(), at(4))
	s.Say("C1", "U2", "friday it is", fakeslack.InThread(broadcasted), fakeslack.AlsoToChannel(), fakeslack.Silently(), at(5))
	s.Say("C1", "U1", "thanks", fakeslack.InThread(followed), fakeslack.Silently(), at(6))
	s.Say("C1", "U1", "noted", fakeslack.InThread(broadcasted), fakeslack.Silently(), at(7))
	s.RateLimit("conversations.replies", 1, time.Second)

	a := New(Options{Base: platform.Base{Name: "acme", Store: st}, Config: Config{
		BotToken: s.BotToken(), AppToken: s.AppToken(), APIURL: s.URL()}})
	in := &chattest.Inbox{}
	if err := a.Start(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(fakeslack.DefaultWait)
	for len(in.All()) < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := a.Stop(context.Background()); err != nil {
		t.Error(err)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations:\n%s", strings.Join(v, "\n"))
	}
	var got []string
	for _, m := range in.All() {
		got = append(got, fmt.Sprintf("%s↳%s", m.Text, m.ReplyTo))
	}
	want := []string{"fixed it↳" + followed, "friday it is↳" + broadcasted, "thanks↳" + followed, "noted↳" + broadcasted}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("caught up %v; want %v", got, want)
	}
	calls := s.Calls("conversations.replies")
	if len(calls) == 0 || calls[0].Error != "ratelimited" {
		t.Errorf("conversations.replies calls %+v; want the first refused and retried", calls)
	}
}
