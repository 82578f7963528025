package discord

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/chat/chattest"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	"github.com/mom-agent/mom/internal/store"
)

// logged writes a line into a channel's log.jsonl, as the hub or the agent did before mom
// stopped.
func logged(t *testing.T, st *store.Store, channel string, m chat.Message) {
	t.Helper()
	ch, err := st.ChannelDir("guild", channel)
	if err != nil {
		t.Fatal(err)
	}
	m.ChannelID = channel
	if _, err := ch.AppendLog(m); err != nil {
		t.Fatal(err)
	}
}

// texts lists what reached the hub for one channel, in order, with thread replies marked.
func texts(in *chattest.Inbox, channel string) string {
	var out []string
	for _, m := range in.All() {
		if m.ChannelID != channel {
			continue
		}
		if m.ReplyTo != "" {
			out = append(out, "↳"+m.Text)
		} else {
			out = append(out, m.Text)
		}
	}
	return strings.Join(out, ",")
}

// TestBackfillLogsWhatWasMissed: at start, channels and DMs with a log get what was said
// after their newest line, oldest first, threads under their channel and files downloaded;
// the bot's own posts, channels without a log and channels mom can no longer see are skipped.
func TestBackfillLogsWhatWasMissed(t *testing.T) {
	s, st := newGuild(t)
	seen := s.Say(general, bea, "already logged")
	logged(t, st, general, chat.Message{ID: seen, TS: time.Now(), Text: "already logged"})
	logged(t, st, adaDM, chat.Message{ID: fmt.Sprintf("mom-%d", time.Now().UnixNano()), TS: time.Now(), Text: "mom's answer"})
	secret := s.AddChannel(fakediscord.Channel{Name: "secret"})
	logged(t, st, secret, chat.Message{ID: s.Say(secret, bea, "old"), TS: time.Now(), Text: "old"})
	s.HideChannel(secret)
	other := s.AddChannel(fakediscord.Channel{Name: "other"})

	root := s.Say(general, bea, "the build is red", fakediscord.Silently())
	thread := s.AddChannel(fakediscord.Channel{ID: root, Name: "build", Kind: fakediscord.KindThread, Parent: general})
	s.Say(thread, ada, "on it", fakediscord.Silently())
	s.Say(general, s.BotID(), "mom's own post", fakediscord.Silently())
	s.Say(general, ada, "<@"+s.BotID()+"> the log", fakediscord.Silently(),
		fakediscord.WithFile(fakediscord.File{Name: "build.log", ContentType: "text/plain", Content: []byte("FAIL")}))
	s.Say(adaDM, ada, "are you there?", fakediscord.Silently())
	s.Say(other, bea, "never logged here", fakediscord.Silently())

	a, in := startOn(t, s, st)
	s.Say(general, bea, "live")
	eventually(t, "the missed messages and the live one", func() bool { return len(in.All()) == 5 })
	if got := texts(in, general); got != "the build is red,↳on it,the log,live" {
		t.Errorf("#general got %s", got)
	}
	if got := texts(in, adaDM); got != "are you there?" {
		t.Errorf("the DM got %s", got)
	}
	for _, m := range in.All() {
		switch m.Text {
		case "on it":
			if m.ReplyTo != thread {
				t.Errorf("the thread's message = %+v; want it in #general, marked with the thread", m)
			}
		case "the log":
			if !m.IsMention || len(m.Attachments) != 1 || m.Attachments[0].Error != "" {
				t.Fatalf("the message with a file = %+v", m)
			}
			data, err := os.ReadFile(filepath.Join(st.Workspace(), "channels", "guild", general, m.Attachments[0].LocalPath))
			if string(data) != "FAIL" {
				t.Errorf("attachment = %q, %v", data, err)
			}
		case "are you there?":
			if !m.IsDM || m.Sender.Username != "ada" {
				t.Errorf("the DM = %+v", m)
			}
		}
	}
	if !a.Connected() {
		t.Error("a channel mom cannot see stopped the adapter")
	}
}

// TestBackfillAndGatewayDeliverOnce: a message said while the catch-up waits out a rate limit
// arrives over the gateway and in the history; whichever comes first, it is handed over once,
// after the older missed message.
func TestBackfillAndGatewayDeliverOnce(t *testing.T) {
	s, st := newGuild(t)
	logged(t, st, general, chat.Message{ID: s.Say(general, bea, "logged"), TS: time.Now(), Text: "logged"})
	s.Say(general, bea, "missed", fakediscord.Silently())
	s.RateLimit("GET /channels/{id}/messages", 1, 300*time.Millisecond)

	_, in := startOn(t, s, st)
	s.WaitFor(t, "the catch-up to be rate limited", func() bool {
		calls := s.Calls("GET /channels/{id}/messages")
		return len(calls) > 0 && calls[0].Status == 429
	})
	s.Say(general, ada, "both ways")
	eventually(t, "the catch-up", func() bool { return len(s.Calls("GET /channels/{id}/messages")) == 2 })
	s.Say(general, bea, "after")
	eventually(t, "the last message", func() bool { return strings.HasSuffix(texts(in, general), "after") })
	if got := texts(in, general); got != "missed,both ways,after" {
		t.Errorf("#general got %s", got)
	}
}

func TestSince(t *testing.T) {
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	if got := since(chat.Message{ID: "1300000000000000001", TS: at}); got.String() != "1300000000000000001" {
		t.Errorf("since a Discord message = %s; want its id", got)
	}
	if got := since(chat.Message{ID: "mom-123", TS: at}); !got.Time().Equal(at) {
		t.Errorf("since mom's line = %s (%v); want an id of its time", got, got.Time())
	}
}
