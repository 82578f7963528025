package discord_test

import (
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordBackfillLogsWhatWasMissed: Discord keeps no backlog for a bot, so at start mom
// reads back what was said while it was stopped; the missed messages are history, never runs.
func TestDiscordBackfillLogsWhatWasMissed(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("first"))
	dw.run()
	dw.d.Say(general, adaID, "<@"+bot+"> hello")
	dw.botSays(general, "first")
	dw.Stop()

	dw.d.Say(general, beaID, "while mom was away", fakediscord.Silently())
	dw.d.Say(general, adaID, "<@"+bot+"> are you there?", fakediscord.Silently())
	dw.run()
	apptest.Eventually(t, "backfill to log the missed messages in order", func() bool {
		lines := dw.logLines(general)
		return len(lines) >= 4 && lines[2]["text"] == "while mom was away" && lines[3]["text"] == "are you there?"
	})
	dw.Stop()
	if lines := dw.logLines(general); len(lines) != 4 {
		t.Errorf("log.jsonl has %d lines; want the mention, the answer and the two missed messages once", len(lines))
	}
	if n := len(dw.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}
