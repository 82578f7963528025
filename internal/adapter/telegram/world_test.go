package telegram_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	"github.com/mom-agent/mom/internal/store"
)

// The Telegram adapter's behaviour tests run a whole mom in-process (package apptest) against
// the loopback Bot API fake, and assert what people would see in the fake's chats. The shared
// behaviours (mention, DMs, stop, busy, long answers, files, [SILENT], drops) are rows of the
// conformance suite in cmd/mom; the tests here cover what only Telegram has: replies and
// /commands as triggers, forum topics, typing, photos and other files, the plain-text
// fallback, 409 and 429.

// The people and chats of faketelegram.NewTeam; ada is mom's admin.
const (
	ada, bea, ciBot = faketg.TeamAda, faketg.TeamBea, faketg.TeamCI
	group, forum    = faketg.TeamGroup, faketg.TeamForum
)

// tgWorld is a data directory whose config has one Telegram adapter, "tg", pointed at a fake
// Telegram with faketelegram.NewTeam's people and chats.
type tgWorld struct {
	*apptest.World
	t  *testing.T
	tg *faketg.Server
	// wrongToken says the test gives mom a bad token on purpose, which the fake records as a
	// protocol violation.
	wrongToken bool
}

// newTelegramWorld makes the world; settings are extra JSON members of the adapter's entry
// (`"busy": "queue"`, or ""). At the test's end it fails the test if mom broke the Bot API's
// rules, and should the test fail, it shows the calls mom made.
func newTelegramWorld(t *testing.T, settings string, opts ...faketg.Option) *tgWorld {
	t.Helper()
	tg := faketg.NewTeam(opts...)
	t.Cleanup(tg.Close)
	w := &tgWorld{World: apptest.New(t), t: t, tg: tg}
	t.Cleanup(func() {
		w.Stop() // before the fake looks back on what mom did
		if v := tg.Violations(); len(v) > 0 && !w.wrongToken {
			t.Errorf("mom broke the Telegram Bot API protocol:\n%s", strings.Join(v, "\n"))
		}
		if t.Failed() {
			for _, c := range tg.Calls("") {
				t.Logf("call %s %s %v %q", c.At.Format("15:04:05.000"), c.Method, c.Params, c.Error)
			}
		}
	})
	if settings != "" {
		settings = ", " + settings
	}
	w.Configure("tg", fmt.Sprintf(`"type": "telegram", "botToken": %q, "apiUrl": %q, "admins": ["%d"]%s`,
		tg.Token(), tg.URL(), ada, settings))
	return w
}

// run starts mom and waits until it polls for updates.
func (w *tgWorld) run() {
	w.t.Helper()
	w.Start()
	w.tg.WaitFor(w.t, "mom to poll for updates", w.tg.Polling)
}

// botSays waits for a message of the bot in a chat's topic (0 for none) whose visible text
// holds want, and returns it.
func (w *tgWorld) botSays(chatID int64, topic int, want string) faketg.Message {
	w.t.Helper()
	return apptest.AwaitMessage(w.t, w.tg.WaitFor, fmt.Sprintf("the bot to say %q in %d/%d", want, chatID, topic),
		func() []faketg.Message { return w.tg.Messages(chatID, topic) },
		func(m faketg.Message) bool { return m.From == w.tg.Bot().ID && strings.Contains(m.Text, want) })
}

// chatDir is the directory of a chat's channel, or of a forum topic's (topic 0 for none).
func (w *tgWorld) chatDir(chatID int64, topic int) string {
	w.t.Helper()
	name := strconv.FormatInt(chatID, 10)
	if topic != 0 {
		name = fmt.Sprintf("%d:%d", chatID, topic)
	}
	dir, err := store.PathComponent(name)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.ChannelDir("tg", dir)
}
