package slack_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestSlackMentionGetsReplyWithDetailsInThread: a mention is answered once in the channel, in
// Slack's mrkdwn and with people's mentions in Slack's form; the tool's details and the usage
// summary go into the answer's thread; the model sees the message without the bot's mention
// and with bea's as @bea; log.jsonl holds the mention and the answer.
func TestSlackMentionGetsReplyWithDetailsInThread(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	sw.LLM.Enqueue(fakellm.Text("Done: **hi** to @bea"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> please greet <@"+beaID+">")

	answer := sw.botSays(general, "", "Done: *hi* to <@"+beaID+">")
	details := sw.botSays(general, answer.TS, "✓ bash")
	for _, want := range []string{"Say hi", "echo hi-from-bash", "Result:", "hi-from-bash"} {
		if !strings.Contains(details.Text, want) {
			t.Errorf("tool detail lacks %q:\n%s", want, details.Text)
		}
	}
	sw.botSays(general, answer.TS, " in, ") // the usage summary
	if answer.Edits == 0 {
		t.Errorf("the status message was never edited into the answer")
	}

	reqs := sw.WaitRequests(2)
	prompt := reqs[0].LastUserText()
	if !strings.Contains(prompt, "please greet @bea") || strings.Contains(prompt, slackBot) {
		t.Errorf("the model saw %q; want the bot's mention removed and bea's as @bea", prompt)
	}
	sw.Stop()
	if n := len(sw.LLM.Requests()); n != 2 {
		t.Errorf("%d model requests; a mention (message + app_mention events) must run once", n)
	}
	lines := apptest.JSONLines(t, filepath.Join(sw.ChannelDir("acme", general), "log.jsonl"))
	if len(lines) != 2 || lines[0]["isMention"] != true || lines[1]["sender"].(map[string]any)["isBot"] != true {
		t.Errorf("log.jsonl = %v; want the mention and mom's answer", lines)
	}
}
