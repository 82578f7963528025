package telegram

import (
	"context"
	"errors"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	"github.com/mom-agent/mom/internal/store"
)

func TestStripMention(t *testing.T) {
	bot := chat.User{ID: "7", Username: "Mom_Bot"}
	ent := func(kind models.MessageEntityType, off, n int) models.MessageEntity {
		return models.MessageEntity{Type: kind, Offset: off, Length: n}
	}
	tests := []struct {
		name, text string
		entities   []models.MessageEntity
		want       string
		mentioned  bool
	}{
		{"leading mention", "@mom_bot hi", []models.MessageEntity{ent("mention", 0, 8)}, "hi", true},
		{"inner mention", "ask @mom_bot now", []models.MessageEntity{ent("mention", 4, 8)}, "ask now", true},
		{"after emoji (UTF-16 offsets)", "😀 @mom_bot hi", []models.MessageEntity{ent("mention", 3, 8)}, "😀 hi", true},
		{"someone else", "@ada hi", []models.MessageEntity{ent("mention", 0, 4)}, "@ada hi", false},
		{"command for the bot", "/ask@mom_bot why", []models.MessageEntity{ent("bot_command", 0, 12)}, "/ask why", true},
		{"command for another bot", "/ask@other_bot why", []models.MessageEntity{ent("bot_command", 0, 14)}, "/ask@other_bot why", false},
		{"mention without an entity", "@mom_bot hi", nil, "@mom_bot hi", false},
		{"entity out of range", "hi", []models.MessageEntity{ent("mention", 1, 9)}, "hi", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, m := stripMention(tt.text, tt.entities, bot)
			if got != tt.want || m != tt.mentioned {
				t.Errorf("stripMention(%q) = %q, %v; want %q, %v", tt.text, got, m, tt.want, tt.mentioned)
			}
		})
	}
	text := "@mom_bot hi"
	tm := []models.MessageEntity{{Type: "text_mention", Offset: 0, Length: 8, User: &models.User{ID: 7}}}
	if got, m := stripMention(text, tm, bot); got != "hi" || !m {
		t.Errorf("a text_mention of the bot: %q %v", got, m)
	}
}

func TestChannelIDs(t *testing.T) {
	for _, tt := range []struct {
		chat  int64
		topic int
		id    string
	}{{-1001234567890, 0, "-1001234567890"}, {-1001234567890, 42, "-1001234567890:42"}, {1001, 0, "1001"}} {
		if got := channelID(tt.chat, tt.topic); got != tt.id {
			t.Errorf("channelID(%d, %d) = %q, want %q", tt.chat, tt.topic, got, tt.id)
		}
		c, topic, err := parseChannel(tt.id)
		if err != nil || c != tt.chat || topic != tt.topic {
			t.Errorf("parseChannel(%q) = %d, %d, %v", tt.id, c, topic, err)
		}
	}
	for _, bad := range []string{"", "general", "12:x", "C0123"} {
		if _, _, err := parseChannel(bad); err == nil {
			t.Errorf("parseChannel(%q) accepted it", bad)
		}
	}
}

func TestMessageTime(t *testing.T) {
	live := time.Unix(1700000000, 600_000_000)
	if got := messageTime(1700000000, live); !got.Equal(live) {
		t.Errorf("a live message from the second mom began listening in got %v, want %v", got, live)
	}
	if got := messageTime(1700000000, time.Time{}); !got.Equal(time.Unix(1700000000, 0)) {
		t.Errorf("a message that waited for mom got %v, want its own date", got)
	}
	if got := messageTime(1700000001, live); !got.Equal(time.Unix(1700000001, 0)) {
		t.Errorf("a later message got %v", got)
	}
	if got := messageTime(1699999990, live); !got.Equal(time.Unix(1699999990, 0)) {
		t.Errorf("an older message got %v", got)
	}
}

func TestPeopleWithoutUsernamesAreMentionedByLink(t *testing.T) {
	d := newDirectory()
	d.learn(&models.Message{From: &models.User{ID: 5, FirstName: "Bea", LastName: "<Smith>"}, Chat: models.Chat{ID: 5, Type: "private"}}, "5")
	d.learn(&models.Message{From: &models.User{ID: 6, FirstName: "Ada", Username: "ada"}, Chat: models.Chat{ID: 6, Type: "private"}}, "6")
	if got, ok := d.mention("bea_<smith>"); !ok || got != `<a href="tg://user?id=5">Bea &lt;Smith&gt;</a>` {
		t.Errorf("mention of a person without username = %q, %v", got, ok)
	}
	if got, ok := d.mention("ADA"); !ok || got != "@ada" {
		t.Errorf("mention of @ada = %q, %v", got, ok)
	}
	if _, ok := d.mention("nobody"); ok {
		t.Errorf("an unknown name was resolved")
	}
	if ch := d.channels(); len(ch) != 2 || ch[0].Kind != chat.KindDM {
		t.Errorf("channels = %+v", ch)
	}
}

// flakyInbox fails to log the first message it gets, as a full disk would, and records the
// rest.
type flakyInbox struct {
	mu     sync.Mutex
	failed bool
	got    []chat.Message
}

func (f *flakyInbox) Answer(context.Context, string, chat.Answer) string { return "" }

func (f *flakyInbox) Receive(_ context.Context, _ string, m chat.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.failed {
		f.failed = true
		return errors.New("disk full")
	}
	f.got = append(f.got, m)
	return nil
}

func (f *flakyInbox) messages() []chat.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]chat.Message(nil), f.got...)
}

// A message that could not be logged is not confirmed: Telegram sends it again, and the next
// one is neither lost nor logged twice.
func TestUpdatesAreConfirmedOnlyOnceLogged(t *testing.T) {
	s := faketg.New()
	defer s.Close()
	s.AddUser(faketg.User{ID: 1001, FirstName: "Ada", Username: "ada"})
	s.AddChat(faketg.Chat{ID: 1001, Type: faketg.Private})
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := New(Options{Base: platform.Base{Name: "tg", Store: st}, Config: Config{BotToken: s.Token(), APIURL: s.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	in := &flakyInbox{}
	s.Say(1001, 1001, "first")
	s.Say(1001, 1001, "second")
	if err := a.Start(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	defer a.Stop(context.Background())
	s.WaitFor(t, "both messages logged and confirmed", func() bool { return len(in.messages()) == 2 && s.Pending() == 0 })
	got := in.messages()
	if got[0].Text != "first" || got[1].Text != "second" || !got[0].IsDM || !got[0].IsMention {
		t.Errorf("logged %+v", got)
	}
	if !a.Connected() {
		t.Errorf("not connected while polling")
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}

func TestIsOwnCommand(t *testing.T) {
	cmd := func(off, n int) []models.MessageEntity {
		return []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Offset: off, Length: n}}
	}
	for _, tt := range []struct {
		text     string
		entities []models.MessageEntity
		want     bool
	}{
		{"/help", cmd(0, 5), true},
		{"/Model local", cmd(0, 6), true},
		{"/compact\nkeep the plan", cmd(0, 8), true},
		{"/weather", cmd(0, 8), false},         // another bot's
		{"/help@other_bot", cmd(0, 15), false}, // addressed to another bot
		{"see /help", cmd(4, 5), false},        // not at the start
		{"/help", nil, false},                  // Telegram did not mark it a command
		{"/helpme", cmd(0, 7), false},          // a longer word
		{"/help", cmd(0, 9), false},            // an entity past the text
	} {
		if got := isOwnCommand(tt.text, tt.entities); got != tt.want {
			t.Errorf("isOwnCommand(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
