package telegram

import (
	"context"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	"github.com/mom-agent/mom/internal/store"
)

// acceptInbox takes every message, so the adapter learns its chats.
type acceptInbox struct{}

func (acceptInbox) Receive(context.Context, string, chat.Message) error { return nil }
func (acceptInbox) Answer(context.Context, string, chat.Answer) string  { return "" }

// Under user isolation a run sees the channels the person who asked is in: their DM, the
// groups where Telegram says they are a member (with all of a forum's topics), and no chat
// they left, were banned from, or that could not be asked about.
func TestMemberChannels(t *testing.T) {
	const (
		ada, bea = int64(1001), int64(1002)
		team     = int64(-1002000000001) // ada is a member
		forum    = int64(-1002000000002) // ada is restricted but still in it
		old      = int64(-1002000000003) // ada left
		banned   = int64(-1002000000004) // ada was banned
		gone     = int64(-1002000000005) // deleted after the bot heard from it
	)
	s := faketg.New()
	defer s.Close()
	for _, u := range []faketg.User{{ID: ada, FirstName: "Ada", Username: "ada"}, {ID: bea, FirstName: "Bea"}} {
		s.AddUser(u)
		s.AddChat(faketg.Chat{ID: u.ID, Type: faketg.Private})
	}
	for _, c := range []faketg.Chat{{ID: team, Type: faketg.Supergroup, Title: "Team"},
		{ID: forum, Type: faketg.Supergroup, Title: "Forum", IsForum: true},
		{ID: old, Type: faketg.Group, Title: "Old"}, {ID: banned, Type: faketg.Supergroup, Title: "Banned"},
		{ID: gone, Type: faketg.Supergroup, Title: "Gone"}} {
		s.AddChat(c)
	}
	topic := s.CreateTopic(forum, bea, "Plans")
	s.Say(ada, ada, "hi")
	s.Say(bea, bea, "hi")
	s.Say(team, ada, "morning")
	s.Say(forum, bea, "in general")
	s.Say(forum, bea, "in a topic", faketg.InTopic(topic))
	s.SetRestricted(forum, ada, true)
	s.Say(old, ada, "bye")
	s.SetMember(old, ada, faketg.Left)
	s.Say(banned, bea, "hi")
	s.SetMember(banned, ada, faketg.Kicked)
	s.Say(gone, ada, "hi")

	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := New(Options{Base: platform.Base{Name: "tg", Store: st}, Config: Config{BotToken: s.Token(), APIURL: s.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(context.Background(), acceptInbox{}); err != nil {
		t.Fatal(err)
	}
	defer a.Stop(context.Background())
	s.WaitFor(t, "every chat heard from", func() bool { return len(a.Directory().Channels) == 8 })
	s.DeleteChat(gone)

	ctx := context.Background()
	id := func(c int64) string { return strconv.FormatInt(c, 10) }
	got, err := a.MemberChannels(ctx, id(ada))
	want := []string{id(forum), id(forum) + ":" + strconv.Itoa(topic), id(team), id(ada)}
	slices.Sort(want)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ada's channels = %q, %v; want %q", got, err, want)
	}
	perChat := map[string]int{}
	for _, c := range s.Calls("getChatMember") {
		perChat[c.Params["chat_id"]]++
		if c.Params["chat_id"] == id(ada) || c.Params["chat_id"] == id(bea) {
			t.Errorf("a private chat was asked about: %v", c.Params)
		}
	}
	for _, c := range []int64{team, forum, old, banned, gone} {
		if perChat[id(c)] != 1 {
			t.Errorf("chat %d was asked about %d times, want once", c, perChat[id(c)])
		}
	}

	// Bea spoke in the forum and in the chat ada was banned from, so she is in both.
	got, err = a.MemberChannels(ctx, id(bea))
	want = []string{id(forum), id(forum) + ":" + strconv.Itoa(topic), id(banned), id(bea)}
	slices.Sort(want)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("bea's channels = %q, %v; want %q", got, err, want)
	}

	// Telegram knows nobody with this id: every lookup fails, which is an error, not "none".
	if got, err := a.MemberChannels(ctx, "999"); err == nil || !strings.Contains(err.Error(), "user not found") {
		t.Errorf("an unknown user got %q, %v; want the lookups' error", got, err)
	}
	if _, err := a.MemberChannels(ctx, "ada"); err == nil || !strings.Contains(err.Error(), `"ada"`) {
		t.Errorf("a user id that is no number got %v", err)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}
