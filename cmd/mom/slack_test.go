package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The Slack tests run the real binary against the loopback Slack fake: Web API and Socket
// Mode, with what people would see asserted on the fake's channels and threads.

const (
	slackBot = "U0BOT"
	general  = "C0GENERAL"
	adaID    = "U0ADA"   // an admin
	beaID    = "U0BEA"   // a colleague
	beaDM    = "D0BEADM" // bea's DM with mom
	adaDM    = "D0ADADM" // ada's DM with mom
)

// slackWorld is a data directory whose config has one Slack adapter, "acme", pointed at a
// fake workspace with two people, a channel and two DMs.
type slackWorld struct {
	*world
	slack *fakeslack.Server
	p     *proc
	// wrongTokens says the test gives mom bad tokens on purpose, which the fake records as
	// protocol violations.
	wrongTokens bool
}

func newSlackWorld(t testing.TB, settings string, opts ...fakeslack.Option) *slackWorld {
	t.Helper()
	w := newWorld(t)
	s := fakeslack.New(append([]fakeslack.Option{fakeslack.WithBot(slackBot, "mom")}, opts...)...)
	t.Cleanup(s.Close)
	s.AddUser(fakeslack.User{ID: adaID, Name: "ada", RealName: "Ada Lovelace"})
	s.AddUser(fakeslack.User{ID: beaID, Name: "bea", RealName: "Bea Smith"})
	s.AddChannel(fakeslack.Channel{ID: general, Name: "general", Members: []string{adaID, beaID, slackBot}, BotMember: true})
	s.AddChannel(fakeslack.Channel{ID: beaDM, Kind: fakeslack.KindIM, User: beaID})
	s.AddChannel(fakeslack.Channel{ID: adaDM, Kind: fakeslack.KindIM, User: adaID})
	if settings != "" {
		settings = ", " + settings
	}
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "adapters": {"acme": {"type": "slack", "botToken": %q, "appToken": %q, "apiUrl": %q,
                        "admins": [%q]%s}},
}`, w.llm.URL(), s.BotToken(), s.AppToken(), s.URL(), adaID, settings))
	sw := &slackWorld{world: w, slack: s}
	t.Cleanup(func() {
		if v := s.Violations(); len(v) > 0 && !sw.wrongTokens {
			t.Errorf("mom broke the Slack protocol:\n%s", strings.Join(v, "\n"))
		}
	})
	return sw
}

// run starts mom and waits until its socket is connected.
func (sw *slackWorld) run() *proc {
	sw.t.Helper()
	sw.p = sw.start()
	sw.slack.WaitFor(sw.t, "mom to connect to Socket Mode", sw.slack.Connected)
	sw.p.waitForErr("mom is running")
	return sw.p
}

// stop sends SIGTERM and expects a clean exit.
func (sw *slackWorld) stop() {
	sw.t.Helper()
	sw.p.cmd.Process.Signal(syscall.SIGTERM)
	if code := sw.p.wait(); code != 0 {
		sw.t.Errorf("mom exited %d after SIGTERM\nstderr:\n%s", code, sw.p.err)
	}
}

// botSays waits for a message from the bot in channel (thread "" for the top level) whose
// text contains want, and returns it.
func (sw *slackWorld) botSays(channel, thread, want string) fakeslack.Message {
	sw.t.Helper()
	var found fakeslack.Message
	sw.slack.WaitFor(sw.t, fmt.Sprintf("the bot to say %q in %s/%s", want, channel, thread), func() bool {
		for _, m := range sw.visible(channel, thread) {
			if m.User == slackBot && strings.Contains(m.Text, want) {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

func (sw *slackWorld) visible(channel, thread string) []fakeslack.Message {
	if thread == "" {
		return sw.slack.Messages(channel)
	}
	return sw.slack.Replies(channel, thread)
}

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

func TestSlackChatterIsLoggedNotRun(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.run()
	sw.slack.Say(general, beaID, "lunch at noon?")
	sw.slack.Say(general, beaID, "deploy done", fakeslack.FromBot("B0CI"))
	sw.llm.Enqueue(fakellm.Text("Noted."))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> what did bea say?")
	sw.botSays(general, "", "Noted.")
	prompt := sw.waitRequests(1)[0].LastUserText()
	if !strings.Contains(prompt, "lunch at noon?") || !strings.Contains(prompt, "deploy done") {
		t.Errorf("the channel's chatter did not reach the context:\n%s", prompt)
	}
	sw.stop()
	if n := len(sw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; only the mention may run", n)
	}
}

func TestSlackDMPolicy(t *testing.T) {
	sw := newSlackWorld(t, `"dm": "none"`)
	sw.run()
	sw.slack.Say(beaDM, beaID, "hi mom")
	sw.botSays(beaDM, "", "only take direct messages")
	sw.slack.Say(beaDM, beaID, "hello?")
	sw.llm.Enqueue(fakellm.Text("Hi Ada."))
	sw.slack.Say(adaDM, adaID, "hi")
	sw.botSays(adaDM, "", "Hi Ada.")
	sw.stop()
	refusals := 0
	for _, m := range sw.slack.Messages(beaDM) {
		if m.User == slackBot {
			refusals++
		}
	}
	if refusals != 1 {
		t.Errorf("bea was answered %d times; want one refusal", refusals)
	}
	if n := len(sw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; only the admin's DM may reach the model", n)
	}
	if lines := jsonLines(t, filepath.Join(sw.channelDir("acme", beaDM), "log.jsonl")); len(lines) != 2 {
		t.Errorf("refused DMs must still be logged: %v", lines)
	}
}

func TestSlackThreadMentionIsAnsweredInTheThread(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.run()
	root := sw.slack.Say(general, beaID, "the build is red")
	sw.llm.Enqueue(fakellm.Text("Looking at it."))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> can you check?", fakeslack.InThread(root))
	sw.botSays(general, root, "Looking at it.")
	for _, m := range sw.slack.Messages(general) {
		if m.User == slackBot {
			t.Errorf("the answer leaked to the top level: %q", m.Text)
		}
	}
	sw.stop()
}

func TestSlackStopDuringALongTool(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Wait a long time", "command": "sleep 120"})))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> wait for me")
	sw.botSays(general, "", "→ Wait a long time")
	sw.slack.Say(general, adaID, "<@"+slackBot+"> stop")
	sw.botSays(general, "", "Stopping…")
	sw.botSays(general, "", "_Stopped._")
	sw.stop()
}

func TestSlackBusyQueue(t *testing.T) {
	sw := newSlackWorld(t, `"busy": "queue"`)
	hold := make(chan struct{})
	sw.llm.Enqueue(fakellm.Reply{Text: "first answer", Hold: hold})
	sw.llm.Enqueue(fakellm.Text("second answer"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> one")
	sw.waitRequests(1)
	sw.slack.Say(general, beaID, "<@"+slackBot+"> two")
	sw.botSays(general, "", "Queued")
	close(hold)
	sw.botSays(general, "", "first answer")
	sw.botSays(general, "", "second answer")
	sw.stop()
}

func TestSlackLongAnswerIsSplitWithNothingLost(t *testing.T) {
	sw := newSlackWorld(t, "")
	var b strings.Builder
	for i := 0; b.Len() < 50_000; i++ {
		if i%40 == 0 {
			b.WriteString("```\n")
			for j := range 30 {
				fmt.Fprintf(&b, "code line %d.%d\n", i, j)
			}
			b.WriteString("```\n\n")
		}
		fmt.Fprintf(&b, "Paragraph %d of a long answer, with enough words to be a paragraph.\n\n", i)
	}
	answer := b.String()
	sw.llm.Enqueue(fakellm.Text(answer))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> tell me everything")
	main := sw.botSays(general, "", "(continued in the thread)")
	last := strings.TrimSpace(answer[strings.LastIndex(strings.TrimSpace(answer), "\n")+1:])
	sw.botSays(general, main.TS, last)
	sw.stop()

	parts := []string{main.Text}
	for _, m := range sw.slack.Replies(general, main.TS) {
		if m.User == slackBot && !strings.Contains(m.Text, " in, ") {
			parts = append(parts, m.Text)
		}
	}
	all := strings.Join(parts, "\n")
	for _, line := range strings.Split(answer, "\n") {
		if line = strings.TrimSpace(line); line != "" && line != "```" && !strings.Contains(all, line) {
			t.Fatalf("lost %q", line)
		}
	}
	for i, p := range parts {
		if n := len([]rune(p)); n > 8000 {
			t.Errorf("part %d has %d characters", i, n)
		}
		if n := strings.Count(p, "```"); n%2 != 0 {
			t.Errorf("part %d has an unbalanced code fence (%d fences)", i, n)
		}
	}
}

func TestSlackSilentAnswerLeavesNoTrace(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Check", "command": "true"})))
	sw.llm.Enqueue(fakellm.Text("[SILENT]"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> anything new?")
	sw.waitRequests(2)
	sw.slack.WaitFor(t, "the status message to be deleted", func() bool {
		for _, m := range sw.slack.Messages(general) {
			if m.User == slackBot {
				return false
			}
		}
		return len(sw.slack.Calls("chat.delete")) >= 2
	})
	sw.stop()
}

func TestSlackFileInAndAttachOut(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> summarize this", fakeslack.WithFile(fakeslack.File{
		Name: "../../etc/passwd report.txt", Content: []byte("quarterly numbers")}))
	req := sw.waitRequests(1)[0]
	prompt := req.LastUserText()
	dir := sw.channelDir("acme", general)
	matches, _ := filepath.Glob(filepath.Join(dir, "attachments", "*report.txt"))
	if len(matches) != 1 {
		t.Fatalf("attachment not saved safely in %s/attachments: %v", dir, matches)
	}
	if data, _ := os.ReadFile(matches[0]); string(data) != "quarterly numbers" {
		t.Errorf("saved %q", data)
	}
	if !strings.Contains(prompt, matches[0]) {
		t.Errorf("the prompt does not name the file's path %s:\n%s", matches[0], prompt)
	}
	sw.llm.Enqueue(fakellm.Calls(fakellm.Call("write", map[string]any{"label": "Write", "path": "out/summary.txt", "content": "all good"})))
	sw.llm.Enqueue(fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Send", "path": "out/summary.txt", "title": "Summary"})))
	sw.llm.Enqueue(fakellm.Text("Attached."))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> send it back")
	sw.botSays(general, "", "Attached.")
	sw.stop()
	ups := sw.slack.Uploads()
	if len(ups) != 1 || ups[0].Channel != general || string(ups[0].Content) != "all good" || ups[0].Title != "Summary" {
		t.Errorf("uploads = %+v", ups)
	}
}

func TestSlackSocketDropMidRun(t *testing.T) {
	sw := newSlackWorld(t, "")
	hold := make(chan struct{})
	sw.llm.Enqueue(fakellm.Reply{Text: "survived the drop", Hold: hold})
	sw.llm.Enqueue(fakellm.Text("second run"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> long one")
	sw.waitRequests(1)
	sw.slack.DropSocket()
	sw.slack.Say(general, beaID, "said while the socket was down")
	close(hold)
	sw.botSays(general, "", "survived the drop")
	sw.slack.WaitFor(t, "a second connection", func() bool { return sw.slack.Connections() >= 2 && sw.slack.Connected() })
	sw.slack.Refresh()
	sw.slack.WaitFor(t, "a third connection", func() bool { return sw.slack.Connections() >= 3 && sw.slack.Connected() })
	sw.slack.Say(general, adaID, "<@"+slackBot+"> anything I missed?")
	defer func() {
		if t.Failed() {
			for _, d := range sw.slack.Deliveries() {
				t.Logf("delivery %+v", d)
			}
			t.Logf("mom's log:\n%s", sw.p.err)
		}
	}()
	sw.botSays(general, "", "second run")
	sw.slack.WaitFor(t, "every event acknowledged", func() bool { return len(sw.slack.Unacked()) == 0 })
	sw.stop()
	reqs := sw.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests; want 2: no run lost or doubled across the drop", len(reqs))
	}
	if prompt := reqs[1].LastUserText(); !strings.Contains(prompt, "said while the socket was down") {
		t.Errorf("the message sent during the drop was lost:\n%s", prompt)
	}
	if lost := sw.slack.Lost(); lost != 0 {
		t.Errorf("%d events were never acknowledged", lost)
	}
	lines := jsonLines(t, filepath.Join(sw.channelDir("acme", general), "log.jsonl"))
	seen := map[string]int{}
	for _, l := range lines {
		seen[l["id"].(string)]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("message %s was logged %d times", id, n)
		}
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
	res := sw.mom("", "download", sw.dir, "acme/"+general)
	if res.code != 0 {
		t.Fatalf("download exited %d: %s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], "] ada: first line") ||
		strings.TrimSpace(lines[1]) != "second line" || !strings.HasPrefix(lines[2], "  [") || !strings.HasSuffix(lines[2], "bea: a reply") {
		t.Errorf("transcript:\n%s", res.stdout)
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
			sw.wrongTokens = true
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
