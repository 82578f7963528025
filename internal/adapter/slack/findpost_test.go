package slack

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/chat/chattest"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
	"github.com/mom-agent/mom/internal/store"
)

// TestFindPostFindsTheBotsOwnMessage: FindPost finds the oldest of the bot's messages between
// two moments with exactly the text asked for, at the top of a channel (conversations.history)
// or in a thread (conversations.replies); not an older one, not a newer one, not a person's,
// not one that says something else.
func TestFindPostFindsTheBotsOwnMessage(t *testing.T) {
	t.Parallel()
	s := fakeslack.New()
	t.Cleanup(s.Close)
	s.AddUser(fakeslack.User{ID: "U1", Name: "ann"})
	s.AddChannel(fakeslack.Channel{ID: "C1", Name: "general", BotMember: true, Members: []string{"U1"}})
	st, err := store.Open(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := New(Options{Base: platform.Base{Name: "acme", Store: st}, Config: Config{
		BotToken: s.BotToken(), AppToken: s.AppToken(), APIURL: s.URL()}})
	ctx := context.Background()
	if err := a.Start(ctx, &chattest.Inbox{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		a.Stop(context.Background())
		if v := s.Violations(); len(v) > 0 {
			t.Errorf("violations:\n%s", strings.Join(v, "\n"))
		}
	})
	top := chat.Place{ChannelID: "C1"}
	post := func(at chat.Place, text string) string {
		t.Helper()
		ts, err := a.Post(ctx, at, text)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	post(top, "_Thinking…_") // before the question: not the one
	q := s.Say("C1", "U1", "<@"+s.BotUserID()+"> a question", fakeslack.Silently())
	since := mustTS(q)
	s.Say("C1", "U1", "_Thinking…_", fakeslack.Silently())
	want := post(top, "_Thinking…_")
	post(top, "_Thinking…_")
	post(top, "an answer")
	thread := chat.Place{ChannelID: "C1", ThreadOf: q}
	post(thread, "an answer in the thread")
	inThread := post(thread, "_Thinking…_")

	later := time.Now().Add(time.Minute)
	for _, c := range []struct {
		at         chat.Place
		until      time.Time
		text, want string
	}{
		{top, later, "_Thinking…_", want},
		{thread, later, "_Thinking…_", inThread},
		{top, later, "_Restarted_", ""},
		{top, mustTS(want), "_Thinking…_", ""}, // posted from until on: a newer mom's
	} {
		got, err := a.FindPost(ctx, c.at, since, c.until, c.text)
		if err != nil || got != c.want {
			t.Errorf("FindPost(%+v, until %v, %q) = %q, %v; want %q", c.at, c.until, c.text, got, err, c.want)
		}
	}
}
