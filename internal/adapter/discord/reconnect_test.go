package discord_test

import (
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordGatewayAsksToReconnect: Discord sends RECONNECT and INVALID_SESSION now and then;
// mom resumes or identifies again and goes on answering, running nothing twice.
func TestDiscordGatewayAsksToReconnect(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.run()
	dw.d.Reconnect()
	dw.d.WaitFor(t, "a resumed session", func() bool { return dw.d.Resumes() >= 1 && dw.d.Connected() })
	dw.d.InvalidateSession(false)
	dw.d.WaitFor(t, "a new session", func() bool { return dw.d.Identifies() >= 2 && dw.d.Connected() })
	dw.LLM.Enqueue(fakellm.Text("still here"))
	dw.d.Say(general, adaID, "<@"+bot+"> are you there?")
	dw.botSays(general, "still here")
	dw.Stop()
	if n := len(dw.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; want 1", n)
	}
}
