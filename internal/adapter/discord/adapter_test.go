package discord

import (
	"context"
	"errors"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/disgoorg/disgo/rest"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/chat/chattest"
	"github.com/mom-agent/mom/internal/config"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/store"
)

const (
	ada     = "1400000000000000001"
	bea     = "1400000000000000002"
	general = "1300000000000000001"
	adaDM   = "1500000000000000001"
)

func TestFromDiscord(t *testing.T) {
	a := New(Options{Base: platform.Base{Name: "guild"}})
	a.dir.setUser(chat.User{ID: ada, Username: "ada"})
	a.dir.chans[general] = chat.Channel{ID: general, Name: "general"}
	for _, tt := range []struct {
		in, want  string
		mentioned bool
	}{
		{"<@99> hello", "hello", true},
		{"hey <@!99>, ask <@" + ada + ">", "hey , ask @ada", true},
		{"<@123> and <@&456>", "@123 and @role", false},
		{"see <#" + general + "> and <#777>", "see #general and #777", false},
		{"nice <:party:1234> <a:wave:5678>", "nice :party: :wave:", false},
		{"1 < 2 and <b> or <@x>", "1 < 2 and <b> or <@x>", false},
		{"at <t:1700000000:R>", "at <t:1700000000:R>", false},
	} {
		got, m := a.fromDiscord(tt.in, "99")
		if got != tt.want || m != tt.mentioned {
			t.Errorf("fromDiscord(%q) = %q, %v; want %q, %v", tt.in, got, m, tt.want, tt.mentioned)
		}
	}
}

func TestThreadName(t *testing.T) {
	if got := threadName("  fix the build\nplease"); got != "fix the build" {
		t.Errorf("threadName = %q", got)
	}
	if got := threadName(""); got != "Details" {
		t.Errorf("threadName of nothing = %q", got)
	}
	if got := []rune(threadName(strings.Repeat("é", 200))); len(got) != 81 {
		t.Errorf("a long request gave a %d-character name", len(got))
	}
}

func TestRetryAfter(t *testing.T) {
	rs := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"2"}}}
	if d, ok := retryAfter(&rest.Error{Response: rs, RsBody: []byte(`{"retry_after": 0.25}`)}); !ok || d != 250*time.Millisecond {
		t.Errorf("body retry_after read as %v, %v", d, ok)
	}
	if d, ok := retryAfter(&rest.Error{Response: rs, RsBody: []byte(`{}`)}); !ok || d != 2*time.Second {
		t.Errorf("header Retry-After read as %v, %v", d, ok)
	}
	if _, ok := retryAfter(&rest.Error{Response: &http.Response{StatusCode: 403}}); ok {
		t.Error("a 403 was taken for a rate limit")
	}
	if _, ok := retryAfter(errors.New("boom")); ok {
		t.Error("a plain error was taken for a rate limit")
	}
}

func startAdapter(t *testing.T) (*Adapter, *fakediscord.Server, *chattest.Inbox) {
	t.Helper()
	s, st := newGuild(t)
	a, in := startOn(t, s, st)
	return a, s, in
}

// newGuild is a fake guild with ada, bea, #general and ada's DM, and an empty store.
func newGuild(t *testing.T) (*fakediscord.Server, *store.Store) {
	t.Helper()
	s := fakediscord.New(fakediscord.WithHeartbeatInterval(100 * time.Millisecond)) // many beats per test
	t.Cleanup(s.Close)
	s.AddUser(fakediscord.User{ID: ada, Username: "ada", GlobalName: "Ada", Nick: "Countess"})
	s.AddUser(fakediscord.User{ID: bea, Username: "bea"})
	s.AddChannel(fakediscord.Channel{ID: general, Name: "general"})
	s.AddChannel(fakediscord.Channel{ID: adaDM, Kind: fakediscord.KindDM, Recipient: ada})
	st, err := store.Open(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return s, st
}

// startOn starts an adapter named "guild" against s, with st for its files and logs.
func startOn(t *testing.T, s *fakediscord.Server, st *store.Store) (*Adapter, *chattest.Inbox) {
	t.Helper()
	a := New(Options{Base: platform.Base{Name: "guild", Store: st}, Config: Config{
		BotToken: s.Token(), APIURL: s.URL(), ReplyIn: config.ReplyInThread, Verbosity: config.Normal}})
	in := &chattest.Inbox{}
	if err := a.Start(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		a.Stop(context.Background())
		if v := s.Violations(); len(v) > 0 {
			t.Errorf("violations:\n%s", strings.Join(v, "\n"))
		}
	})
	return a, in
}

func TestAdapterDirectoryAndInbound(t *testing.T) {
	a, s, in := startAdapter(t)
	if !a.Connected() {
		t.Error("not connected after Start")
	}
	if u, ok := a.dir.user(ada); !ok || u.DisplayName != "Countess" {
		t.Errorf("ada = %+v; want her guild nickname shown", u)
	}
	if cs := a.Directory().Channels; len(cs) != 1 || cs[0].Name != "general" {
		t.Errorf("channels = %+v", cs)
	}
	s.Say(general, bea, "chatter")
	s.Say(general, ada, "<@"+s.BotID()+"> look", fakediscord.WithFile(fakediscord.File{Name: "a.txt", Content: []byte("data")}))
	s.Say(adaDM, ada, "psst")
	eventually(t, "three messages", func() bool { return len(in.All()) == 3 })
	byText := map[string]chat.Message{}
	for _, m := range in.All() {
		byText[m.Text] = m
	}
	if m := byText["chatter"]; m.IsMention || m.IsDM {
		t.Errorf("chatter = %+v", m)
	}
	m := byText["look"]
	if !m.IsMention || len(m.Attachments) != 1 || m.Attachments[0].Error != "" || m.ChannelID != general {
		t.Fatalf("mention = %+v", m)
	}
	data, err := os.ReadFile(filepath.Join(a.opts.Store.Workspace(), "channels", "guild", general, m.Attachments[0].LocalPath))
	if err != nil || string(data) != "data" {
		t.Errorf("attachment = %q, %v", data, err)
	}
	if dm := byText["psst"]; !dm.IsDM || !dm.IsMention || !a.dir.isDM(adaDM) {
		t.Errorf("DM = %+v", dm)
	}
}

// TestAdapterResumeDeliversOnce: what is said while the gateway is down arrives once, after
// the session is resumed.
func TestAdapterResumeDeliversOnce(t *testing.T) {
	a, s, in := startAdapter(t)
	s.Say(general, bea, "before")
	eventually(t, "the first message", func() bool { return len(in.All()) == 1 })
	s.DropSocket()
	s.Say(general, bea, "during")
	eventually(t, "a resume", func() bool { return s.Resumes() == 1 && a.Connected() })
	s.Say(general, bea, "after")
	eventually(t, "three messages", func() bool { return len(in.All()) == 3 })
	s.Reconnect() // resumes again; the replay must not double anything
	s.WaitFor(t, "a second resume", func() bool { return s.Resumes() == 2 })
	s.Say(general, bea, "last")
	eventually(t, "four messages", func() bool { return len(in.All()) >= 4 })
	var texts []string
	for _, m := range in.All() {
		texts = append(texts, m.Text)
	}
	if got := strings.Join(texts, ","); got != "before,during,after,last" {
		t.Errorf("messages = %s", got)
	}
}

func TestAdapterOutbound(t *testing.T) {
	a, s, _ := startAdapter(t)
	ctx := context.Background()
	at := chat.Place{ChannelID: general}
	id, err := render.Post(ctx, a.Surface(), a.Dialect(), at, "hi @ada, "+strings.Repeat("word ", 500))
	if err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages(general)
	if len(msgs) != 2 || msgs[0].ID != id || !strings.HasPrefix(msgs[0].Content, "hi <@"+ada+">, ") {
		t.Fatalf("a 2,500-character post became %d messages: %+v", len(msgs), msgs)
	}
	if err := a.Edit(ctx, at, id, "edited"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Post(ctx, chat.Place{ChannelID: general, ThreadOf: id}, "in the thread"); err != nil {
		t.Fatal(err)
	}
	if th := s.Messages(id); len(th) != 1 || th[0].Content != "in the thread" {
		t.Errorf("thread = %+v", th)
	}
	body := strings.NewReader("file body")
	if err := a.Upload(ctx, at, chat.File{Name: "out.txt", Content: body, Size: body.Size(), Title: "Report"}); err != nil {
		t.Fatal(err)
	}
	if ups := s.Uploads(); len(ups) != 1 || string(ups[0].Content) != "file body" || ups[0].Text != "**Report**" {
		t.Errorf("uploads = %+v", ups)
	}
	if err := a.Delete(ctx, at, msgs[1].ID); err != nil {
		t.Fatal(err)
	}
	s.RateLimit("PATCH /channels/{id}/messages/{id}", 1, 200*time.Millisecond)
	if err := a.Edit(ctx, at, id, "after a 429"); err != nil {
		t.Fatal(err)
	}
	if got := s.Messages(general)[0]; got.Content != "after a 429" {
		t.Errorf("after the 429 the message reads %q", got.Content)
	}
}

// eventually polls cond, for conditions on the adapter's side that the fake cannot wait on.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(fakediscord.DefaultWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: gave up", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
