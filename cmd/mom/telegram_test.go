package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// The Telegram adapter's behaviour tests live with it, in internal/adapter/telegram; its rows
// of the conformance suite are in conformance_telegram_test.go. Here are the world other
// cmd/mom tests and benchmarks run Telegram in, and what only the binary shows.

// tgWorld is a data directory whose config has one Telegram adapter, "tg", pointed at a fake
// Telegram (newTelegramFake).
type tgWorld struct {
	*chatWorld
	tg *faketg.Server
}

func newTelegramWorld(t testing.TB, settings string, opts ...faketg.Option) *tgWorld {
	t.Helper()
	tg := newTelegramFake(t, opts...)
	w := &tgWorld{chatWorld: newChatWorld(t, "tg", "Telegram Bot API", &telegramPlatform{s: tg}), tg: tg}
	w.configure(settings)
	return w
}

// run starts mom and waits until it polls; should the test fail, mom's log and the calls it
// made are shown.
func (w *tgWorld) run() {
	w.t.Helper()
	w.t.Cleanup(func() {
		if w.t.Failed() && w.p != nil {
			w.t.Logf("mom's log:\n%s", w.p.err)
			for _, c := range w.tg.Calls("") {
				w.t.Logf("call %s %s %v %q", c.At.Format("15:04:05.000"), c.Method, c.Params, c.Error)
			}
		}
	})
	w.chatWorld.run()
}

// botSays waits for a message of the bot in a chat's topic whose visible text holds want.
func (w *tgWorld) botSays(chatID int64, thread int, want string) faketg.Message {
	w.t.Helper()
	return apptest.AwaitMessage(w.t, w.tg.WaitFor, fmt.Sprintf("the bot to say %q in %d/%d", want, chatID, thread),
		func() []faketg.Message { return w.tg.Messages(chatID, thread) },
		func(m faketg.Message) bool { return m.From == w.tg.Bot().ID && strings.Contains(m.Text, want) })
}

// TestTelegramRefusedTokenIsNamed: the binary exits 1 and its stderr names the refused token
// without printing it. internal/adapter/telegram checks the error itself.
func TestTelegramRefusedTokenIsNamed(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	cfg, _ := os.ReadFile(filepath.Join(w.dir, "config.json"))
	id, _, _ := strings.Cut(w.tg.Token(), ":")
	w.writeConfig(strings.Replace(string(cfg), w.tg.Token(), id+":wrong-secret", 1))
	w.wrongToken = true
	res := w.mom("", w.dir)
	if res.code != 1 || !strings.Contains(res.stderr, "Telegram did not accept the bot token (getMe)") ||
		strings.Contains(res.stderr, "wrong-secret") {
		t.Errorf("exit %d; stderr:\n%s\nwant the refused token named, and not printed", res.code, res.stderr)
	}
}
