package discord_test

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordBackfillLogsWhatWasMissed: Discord keeps no backlog for a bot, so at start mom
// reads back what was said while it was stopped and logs it in order; a recent mention among
// it is answered, once, and the model is told it waited (the README's "Restarts").
func TestDiscordBackfillLogsWhatWasMissed(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("first"), fakellm.Text("back now"))
	dw.run()
	dw.d.Say(general, adaID, "<@"+bot+"> hello")
	dw.botSays(general, "first")
	dw.WaitIdle()
	dw.Stop()

	dw.d.Say(general, beaID, "while mom was away", fakediscord.Silently())
	dw.d.Say(general, adaID, "<@"+bot+"> are you there?", fakediscord.Silently())
	dw.run()
	dw.botSays(general, "back now")
	apptest.Eventually(t, "backfill to log the missed messages in order", func() bool {
		lines := dw.logLines(general)
		return len(lines) >= 4 && lines[2]["text"] == "while mom was away" && lines[3]["text"] == "are you there?"
	})
	dw.Stop()
	if lines := dw.logLines(general); len(lines) != 5 {
		t.Errorf("log.jsonl has %d lines; want the mention, the answer, the two missed messages once and the late answer", len(lines))
	}
	reqs := dw.LLM.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastUserText(), "while you were restarting") {
		t.Errorf("%d model requests; want the missed mention answered once, as one that waited", len(reqs))
	}
}
