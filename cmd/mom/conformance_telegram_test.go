package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	tgadapter "github.com/mom-agent/mom/internal/adapter/telegram"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// The team of faketelegram.NewTeam, by the names the cmd/mom tests use.
const (
	tgAda   = faketg.TeamAda // an admin
	tgBea   = faketg.TeamBea // a colleague
	tgCI    = faketg.TeamCI  // another bot in the group
	tgGroup = faketg.TeamGroup
	tgForum = faketg.TeamForum
)

// newTelegramFake is a fake Telegram (configured by opts) with faketelegram.NewTeam's people
// and chats, closed at the test's end.
func newTelegramFake(t testing.TB, opts ...faketg.Option) *faketg.Server {
	s := faketg.NewTeam(opts...)
	t.Cleanup(s.Close)
	return s
}

// telegramPlatform is Telegram for the conformance suite.
type telegramPlatform struct{ s *faketg.Server }

func newTelegramPlatform(t *testing.T) platform { return &telegramPlatform{s: newTelegramFake(t)} }

func (tp *telegramPlatform) adapter() string {
	return fmt.Sprintf(`"type": "telegram", "botToken": %q, "apiUrl": %q`, tp.s.Token(), tp.s.URL())
}

func (tp *telegramPlatform) cast() cast {
	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	return cast{admin: id(tgAda), user: id(tgBea), group: id(tgGroup), adminDM: id(tgAda), userDM: id(tgBea)}
}

func (tp *telegramPlatform) started(t testing.TB, p *proc) {
	tp.s.WaitFor(t, "mom to poll for updates", tp.s.Polling)
}

func (tp *telegramPlatform) say(t *testing.T, m said) {
	chatID, _ := strconv.ParseInt(m.channel, 10, 64)
	from, _ := strconv.ParseInt(m.from, 10, 64)
	var opts []faketg.SayOption
	if m.file != nil {
		opts = append(opts, faketg.WithDocument(m.file.name, m.file.content))
	}
	tp.s.Say(chatID, from, m.addressed("@"+tp.s.Bot().Username), opts...)
}

// shown lists the bot's messages in the chat as sent: the HTML where it sent HTML (so code
// blocks can be checked), else the plain text.
func (tp *telegramPlatform) shown(channel string) []string {
	chatID, _ := strconv.ParseInt(channel, 10, 64)
	var out []string
	for _, m := range tp.s.Messages(chatID, 0) {
		if m.From != tp.s.Bot().ID {
			continue
		}
		if m.HTML != "" {
			out = append(out, m.HTML)
		} else {
			out = append(out, m.Text)
		}
	}
	return out
}

func (tp *telegramPlatform) deleted(channel string) int {
	n := 0
	for _, c := range tp.s.Calls("deleteMessage") {
		if c.Params["chat_id"] == channel && c.Error == "" {
			n++
		}
	}
	return n
}

func (tp *telegramPlatform) uploads(t *testing.T, channel string) []sentFile {
	var out []sentFile
	for _, u := range tp.s.Uploads() {
		if strconv.FormatInt(u.ChatID, 10) == channel {
			out = append(out, sentFile{name: u.Filename, content: u.Content})
		}
	}
	return out
}

func (tp *telegramPlatform) drop() { tp.s.DropPoll() }

// reconnected reports whether mom polls again after the drop.
func (tp *telegramPlatform) reconnected() bool { return tp.s.Polling() }

func (tp *telegramPlatform) lacks(feature) string { return "" }

func (tp *telegramPlatform) maxText() int { return tgadapter.MaxText }

// codeIntact reports whether every <pre> opened in a message is closed in it.
func (tp *telegramPlatform) codeIntact(text string) bool {
	return strings.Count(text, "<pre") == strings.Count(text, "</pre>")
}

func (tp *telegramPlatform) violations() []string { return tp.s.Violations() }

// decide presses the choice's button on the bot's newest message in the chat that has one.
func (tp *telegramPlatform) decide(t *testing.T, channel, from, choice string) {
	t.Helper()
	chatID, _ := strconv.ParseInt(channel, 10, 64)
	who, _ := strconv.ParseInt(from, 10, 64)
	msgs := tp.s.Messages(chatID, 0)
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, b := range tp.s.Buttons(chatID, msgs[i].ID) {
			if strings.HasSuffix(b.Data, ":"+choice) {
				if _, err := tp.s.Press(chatID, who, msgs[i].ID, b.Data); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	t.Fatalf("no message in %s has a %q button", channel, choice)
}

// refusals are the texts of the answers to button presses that showed one.
func (tp *telegramPlatform) refusals() []string {
	var out []string
	for _, a := range tp.s.CallbackAnswers() {
		if a.Text != "" {
			out = append(out, a.Text)
		}
	}
	return out
}
