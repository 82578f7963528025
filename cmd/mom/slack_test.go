package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The Slack tests run the real binary against the loopback Slack fake (slackWorld, in
// conformance_slack_test.go): Web API and Socket Mode, with what people would see asserted
// on the fake's channels and threads.

func TestSlackMentionGetsReplyWithDetailsInThread(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	sw.llm.Enqueue(fakellm.Text("Done: **hi** to @bea"))
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

	reqs := sw.waitRequests(2)
	prompt := reqs[0].LastUserText()
	if !strings.Contains(prompt, "please greet @bea") || strings.Contains(prompt, slackBot) {
		t.Errorf("the model saw %q; want the bot's mention removed and bea's as @bea", prompt)
	}
	sw.stop()
	if n := len(sw.llm.Requests()); n != 2 {
		t.Errorf("%d model requests; a mention (message + app_mention events) must run once", n)
	}
	lines := jsonLines(t, filepath.Join(sw.channelDir("acme", general), "log.jsonl"))
	if len(lines) != 2 || lines[0]["isMention"] != true || lines[1]["sender"].(map[string]any)["isBot"] != true {
		t.Errorf("log.jsonl = %v; want the mention and mom's answer", lines)
	}
}

func TestSlackRateLimitIsHonoured(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("slow and steady"))
	sw.run()
	sw.slack.RateLimit("chat.postMessage", 2, time.Second)
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hi")
	sw.botSays(general, "", "slow and steady")
	sw.stop()
}

func TestSlackBackfillLogsWhatWasMissed(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("first"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hello")
	sw.botSays(general, "", "first")
	sw.stop()

	sw.slack.Say(general, beaID, "while mom was away", fakeslack.Silently())
	sw.slack.Say(general, adaID, "<@"+slackBot+"> are you there?", fakeslack.Silently())
	sw.run()
	logPath := filepath.Join(sw.channelDir("acme", general), "log.jsonl")
	eventually(t, "backfill to log the missed messages in order", func() bool {
		lines := jsonLines(t, logPath)
		return len(lines) >= 4 && lines[2]["text"] == "while mom was away" && lines[3]["text"] == "are you there?"
	})
	sw.stop()
	if n := len(sw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}

func TestSlackDownloadAndManifest(t *testing.T) {
	sw := newSlackWorld(t, "")
	root := sw.slack.Say(general, adaID, "first line\nsecond line", fakeslack.Silently())
	sw.slack.Say(general, beaID, "a reply", fakeslack.InThread(root), fakeslack.Silently())
	sw.slack.Say(general, adaID, "a reply also sent to the channel", fakeslack.InThread(root), fakeslack.AlsoToChannel(), fakeslack.Silently())
	res := sw.mom("", "download", sw.dir, "acme/"+general)
	if res.code != 0 {
		t.Fatalf("download exited %d: %s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], "] ada: first line") ||
		strings.TrimSpace(lines[1]) != "second line" || !strings.HasPrefix(lines[2], "  [") || !strings.HasSuffix(lines[2], "bea: a reply") ||
		!strings.HasPrefix(lines[3], "  [") || !strings.HasSuffix(lines[3], "ada: a reply also sent to the channel") {
		t.Errorf("transcript (each reply once, in its thread):\n%s", res.stdout)
	}

	res = sw.mom("", "slack-manifest", "--name", "Helper Bot")
	for _, want := range []string{`name: "Helper Bot"`, "socket_mode_enabled: true", "app_mentions:read", "files:read", "message.im"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("manifest lacks %q:\n%s", want, res.stdout)
		}
	}
}

func TestSlackRefusedTokensAreNamed(t *testing.T) {
	for _, tt := range []struct{ name, bot, app, want string }{
		{"bot token", "xoxb-wrong", "", "Slack did not accept the bot token (auth.test)"},
		{"app token", "", "xapp-wrong", "Slack did not accept the app token (apps.connections.open)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sw := newSlackWorld(t, "")
			sw.wrongToken = true
			cfg, _ := os.ReadFile(filepath.Join(sw.dir, "config.json"))
			text := string(cfg)
			if tt.bot != "" {
				text = strings.Replace(text, sw.slack.BotToken(), tt.bot, 1)
			}
			if tt.app != "" {
				text = strings.Replace(text, sw.slack.AppToken(), tt.app, 1)
			}
			sw.writeConfig(text)
			res := sw.mom("", sw.dir)
			if res.code != 1 || !strings.Contains(res.stderr, tt.want) || !strings.Contains(res.stderr, "invalid_auth") {
				t.Errorf("exit %d; stderr:\n%s\nwant it to say %q", res.code, res.stderr, tt.want)
			}
		})
	}
}

// TestSlackRefreshRequestReconnects: Slack asks clients to reconnect every few hours; mom opens
// a new connection and goes on answering, without running anything twice.
func TestSlackRefreshRequestReconnects(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.run()
	sw.slack.Refresh()
	sw.slack.WaitFor(t, "a second connection", func() bool { return sw.slack.Connections() >= 2 && sw.slack.Connected() })
	sw.llm.Enqueue(fakellm.Text("still here"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> are you there?")
	sw.botSays(general, "", "still here")
	sw.slack.WaitFor(t, "every event acknowledged", func() bool { return len(sw.slack.Unacked()) == 0 })
	sw.stop()
	if n := len(sw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; want 1", n)
	}
}
