package discord_test

import (
	"testing"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordThreadMentionIsAnsweredInTheThread: a mention inside a thread is answered there,
// and the thread's messages are logged in its channel's log, marked with the thread.
func TestDiscordThreadMentionIsAnsweredInTheThread(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("Looking at it."))
	dw.run()
	root := dw.d.Say(general, beaID, "the build is red")
	thread := dw.d.AddChannel(fakediscord.Channel{ID: root, Name: "build", Kind: fakediscord.KindThread, Parent: general})
	dw.d.Say(thread, adaID, "<@"+bot+"> can you check?")
	dw.botSays(thread, "Looking at it.")
	for _, m := range dw.d.Messages(general) {
		if m.Author == bot {
			t.Errorf("the answer leaked to the channel: %q", m.Content)
		}
	}
	dw.Stop()
	lines := dw.logLines(general)
	if len(lines) != 3 || lines[1]["replyTo"] != thread {
		t.Errorf("log.jsonl = %v; want the thread's messages in the channel's log, marked with the thread", lines)
	}
}
