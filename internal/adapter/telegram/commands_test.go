package telegram_test

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// TestTelegramCommandMenu: at start mom lists its chat commands in the bot's command menu,
// as Telegram takes them; a command picked from the menu in a group ("/status@mom_bot", or
// "/help" where mom is the only bot) is answered by mom like a typed "@mom_bot /help", while
// a bare command mom does not have is left to the other bots.
func TestTelegramCommandMenu(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, `"busy": "queue"`)
	w.run()
	w.tg.WaitFor(t, "mom to set its command menu", func() bool { return w.tg.MyCommands(faketg.DefaultScope, "") != nil })
	menu := w.tg.MyCommands(faketg.DefaultScope, "")
	cmds := chat.Commands()
	if len(menu) != len(cmds) {
		t.Fatalf("menu = %+v; want one entry per chat command", menu)
	}
	for i, c := range cmds {
		if menu[i].Command != c.Name || !strings.HasPrefix(menu[i].Description, c.Summary) {
			t.Errorf("menu entry %d = %+v; want /%s: %s", i, menu[i], c.Name, c.Summary)
		}
		if c.Args != "" && !strings.Contains(menu[i].Description, c.Usage()) {
			t.Errorf("the menu does not say what /%s takes: %q", c.Name, menu[i].Description)
		}
	}

	w.tg.Say(group, ada, "/help")
	help := w.botSays(group, 0, "/compact [focus]")
	typed := w.tg.Say(group, ada, "@mom_bot /help")
	w.tg.WaitFor(t, "the typed /help to be answered", func() bool {
		n := 0
		for _, m := range w.tg.Messages(group, 0) {
			if m.From == w.tg.Bot().ID && m.Text == help.Text && m.ID > typed {
				n++
			}
		}
		return n == 1
	})
	w.tg.Say(group, bea, "/status@mom_bot")
	w.botSays(group, 0, "no run here since mom started")
	w.tg.Say(group, bea, "/weather") // some other bot's command
	w.LLM.Enqueue(fakellm.Text("Here."))
	w.tg.Say(group, bea, "@mom_bot are you there?")
	w.botSays(group, 0, "Here.")
	w.Stop()
	reqs := w.LLM.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests; want only the question (commands are mom's, /weather is not for mom)", len(reqs))
	}
	if !strings.Contains(reqs[0].LastUserText(), "/weather") {
		t.Errorf("the other bot's command is missing from the history the model saw:\n%s", reqs[0].LastUserText())
	}
}
