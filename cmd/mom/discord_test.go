package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	discordadapter "github.com/mom-agent/mom/internal/adapter/discord"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The Discord tests run the real binary against the loopback Discord fake: REST v10 and the
// gateway, with what people would see asserted on the fake's channels and threads. The shared
// behaviours are in the conformance suite (discordPlatform below); these are Discord's own.

const (
	dBot     = "1100000000000000001"
	dGeneral = "1300000000000000001"
	dAda     = "1400000000000000001" // an admin
	dBea     = "1400000000000000002" // a colleague
	dCI      = "1400000000000000003" // another bot
	dAdaDM   = "1500000000000000001"
	dBeaDM   = "1500000000000000002"
)

// newDiscordFake is a guild with two people, a CI bot, a channel and two DMs.
func newDiscordFake(t testing.TB, opts ...fakediscord.Option) *fakediscord.Server {
	s := fakediscord.New(append([]fakediscord.Option{fakediscord.WithBot(dBot, "mom")}, opts...)...)
	t.Cleanup(s.Close)
	s.AddUser(fakediscord.User{ID: dAda, Username: "ada", GlobalName: "Ada Lovelace"})
	s.AddUser(fakediscord.User{ID: dBea, Username: "bea", GlobalName: "Bea Smith"})
	s.AddUser(fakediscord.User{ID: dCI, Username: "ci", Bot: true})
	s.AddChannel(fakediscord.Channel{ID: dGeneral, Name: "general"})
	s.AddChannel(fakediscord.Channel{ID: dAdaDM, Kind: fakediscord.KindDM, Recipient: dAda})
	s.AddChannel(fakediscord.Channel{ID: dBeaDM, Kind: fakediscord.KindDM, Recipient: dBea})
	return s
}

// discordWorld is a data directory whose config has one Discord adapter, "guild", pointed
// at a fake guild (newDiscordFake).
type discordWorld struct {
	*chatWorld
	d *fakediscord.Server
}

func newDiscordWorld(t testing.TB, settings string, opts ...fakediscord.Option) *discordWorld {
	t.Helper()
	d := newDiscordFake(t, opts...)
	dw := &discordWorld{chatWorld: newChatWorld(t, "guild", "Discord", newDiscordPlatformOn(d)), d: d}
	dw.configure(settings)
	return dw
}

// botSays waits for a message from the bot in a channel or thread whose text contains want.
func (dw *discordWorld) botSays(channel, want string) fakediscord.Message {
	dw.t.Helper()
	return awaitMessage(dw.t, dw.d.WaitFor, fmt.Sprintf("the bot to say %q in %s", want, channel),
		func() []fakediscord.Message { return dw.d.Messages(channel) },
		func(m fakediscord.Message) bool { return m.Author == dBot && strings.Contains(m.Content, want) })
}

func TestDiscordMentionGetsReplyWithDetailsInThread(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	dw.llm.Enqueue(fakellm.Text("Done: **hi** to @bea"))
	dw.run()
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> please greet <@"+dBea+">")

	answer := dw.botSays(dGeneral, "Done: **hi** to <@"+dBea+">")
	if answer.Thread == "" {
		t.Fatalf("no thread was created from the answer")
	}
	if th, _ := dw.d.Channel(answer.Thread); th.Name != "please greet @bea" {
		t.Errorf("thread named %q; want it named after the request", th.Name)
	}
	details := dw.botSays(answer.Thread, "✓ bash")
	for _, want := range []string{"Say hi", "echo hi-from-bash", "hi-from-bash"} {
		if !strings.Contains(details.Content, want) {
			t.Errorf("tool detail lacks %q:\n%s", want, details.Content)
		}
	}
	dw.botSays(answer.Thread, " in, ") // the usage summary
	if answer.Edits == 0 {
		t.Errorf("the status message was never edited into the answer")
	}
	if dw.d.Typing(dGeneral) == 0 {
		t.Errorf("mom never showed the typing indicator while working")
	}
	prompt := dw.waitRequests(2)[0].LastUserText()
	if !strings.Contains(prompt, "please greet @bea") || strings.Contains(prompt, dBot) {
		t.Errorf("the model saw %q; want the bot's mention removed and bea's as @bea", prompt)
	}
	dw.stop()
	lines := jsonLines(t, filepath.Join(dw.channelDir("guild", dGeneral), "log.jsonl"))
	if len(lines) != 2 || lines[0]["isMention"] != true || lines[1]["sender"].(map[string]any)["isBot"] != true {
		t.Errorf("log.jsonl = %v; want the mention and mom's answer", lines)
	}
}

// TestDiscordBotsAndRepliesToMom: other bots are logged but never start a run, even when they
// mention mom; a Discord reply to one of mom's messages addresses mom.
func TestDiscordBotsAndRepliesToMom(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("first answer"))
	dw.llm.Enqueue(fakellm.Text("answer to the reply"))
	dw.run()
	dw.d.Say(dGeneral, dCI, "<@"+dBot+"> deploy done")
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> what did ci say?")
	answer := dw.botSays(dGeneral, "first answer")
	if prompt := dw.waitRequests(1)[0].LastUserText(); !strings.Contains(prompt, "deploy done") {
		t.Errorf("the bot's message did not reach the context:\n%s", prompt)
	}
	dw.p.waitForErr("run finished") // a message while mom is busy would be turned away
	dw.d.Say(dGeneral, dBea, "and then?", fakediscord.InReplyTo(answer.ID))
	dw.botSays(dGeneral, "answer to the reply")
	dw.stop()
	if n := len(dw.llm.Requests()); n != 2 {
		t.Errorf("%d model requests; the CI bot must not start a run", n)
	}
}

func TestDiscordThreadMentionIsAnsweredInTheThread(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("Looking at it."))
	dw.run()
	root := dw.d.Say(dGeneral, dBea, "the build is red")
	thread := dw.d.AddChannel(fakediscord.Channel{ID: root, Name: "build", Kind: fakediscord.KindThread, Parent: dGeneral})
	dw.d.Say(thread, dAda, "<@"+dBot+"> can you check?")
	dw.botSays(thread, "Looking at it.")
	for _, m := range dw.d.Messages(dGeneral) {
		if m.Author == dBot {
			t.Errorf("the answer leaked to the channel: %q", m.Content)
		}
	}
	dw.stop()
	lines := jsonLines(t, filepath.Join(dw.channelDir("guild", dGeneral), "log.jsonl"))
	if len(lines) != 3 || lines[1]["replyTo"] != thread {
		t.Errorf("log.jsonl = %v; want the thread's messages in the channel's log, marked with the thread", lines)
	}
}

// TestDiscordBackfillLogsWhatWasMissed: Discord keeps no backlog for a bot, so at start mom
// reads back what was said while it was stopped; the missed messages are history, never runs.
func TestDiscordBackfillLogsWhatWasMissed(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("first"))
	dw.run()
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> hello")
	dw.botSays(dGeneral, "first")
	dw.stop()

	dw.d.Say(dGeneral, dBea, "while mom was away", fakediscord.Silently())
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> are you there?", fakediscord.Silently())
	dw.run()
	logPath := filepath.Join(dw.channelDir("guild", dGeneral), "log.jsonl")
	eventually(t, "backfill to log the missed messages in order", func() bool {
		lines := jsonLines(t, logPath)
		return len(lines) >= 4 && lines[2]["text"] == "while mom was away" && lines[3]["text"] == "are you there?"
	})
	dw.stop()
	if lines := jsonLines(t, logPath); len(lines) != 4 {
		t.Errorf("log.jsonl has %d lines; want the mention, the answer and the two missed messages once", len(lines))
	}
	if n := len(dw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}

// TestDiscordDMDetailsFollowTheAnswer: DMs have no threads, so details come as replies below
// the answer.
func TestDiscordDMDetailsFollowTheAnswer(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Look", "command": "echo looked"})))
	dw.llm.Enqueue(fakellm.Text("All done."))
	dw.run()
	dw.d.Say(dAdaDM, dAda, "look around")
	answer := dw.botSays(dAdaDM, "All done.")
	detail := dw.botSays(dAdaDM, "✓ bash")
	if detail.Reference != answer.ID {
		t.Errorf("the detail replies to %q; want the answer %s", detail.Reference, answer.ID)
	}
	dw.stop()
}

func TestDiscordRateLimitIsHonoured(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("slow and steady"))
	dw.run()
	dw.d.RateLimit("POST /channels/{id}/messages", 2, time.Second)
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> hi")
	dw.botSays(dGeneral, "slow and steady")
	dw.stop()
	limited := 0
	for _, c := range dw.d.Calls("POST /channels/{id}/messages") {
		if c.Status == 429 {
			limited++
		}
	}
	if limited != 2 {
		t.Errorf("%d answers were 429; the test meant two", limited)
	}
}

// TestDiscordGatewayAsksToReconnect: Discord sends RECONNECT and INVALID_SESSION now and then;
// mom resumes or identifies again and goes on answering, running nothing twice.
func TestDiscordGatewayAsksToReconnect(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.run()
	dw.d.Reconnect()
	dw.d.WaitFor(t, "a resumed session", func() bool { return dw.d.Resumes() >= 1 && dw.d.Connected() })
	dw.d.InvalidateSession(false)
	dw.d.WaitFor(t, "a new session", func() bool { return dw.d.Identifies() >= 2 && dw.d.Connected() })
	dw.llm.Enqueue(fakellm.Text("still here"))
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> are you there?")
	dw.botSays(dGeneral, "still here")
	dw.stop()
	if n := len(dw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; want 1", n)
	}
}

func TestDiscordRefusedTokenIsNamed(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.wrongToken = true
	cfg, _ := os.ReadFile(filepath.Join(dw.dir, "config.json"))
	dw.writeConfig(strings.Replace(string(cfg), dw.d.Token(), "MTIz.wrong.token", 1))
	res := dw.mom("", dw.dir)
	if res.code != 1 || !strings.Contains(res.stderr, "Discord did not accept the bot token (GET /users/@me)") ||
		!strings.Contains(res.stderr, "Reset Token") {
		t.Errorf("exit %d; stderr:\n%s", res.code, res.stderr)
	}
}

func TestDiscordMissingIntentsAreNamed(t *testing.T) {
	dw := newDiscordWorld(t, "", fakediscord.WithPrivilegedIntents(0))
	res := dw.mom("", dw.dir)
	if res.code != 1 || !strings.Contains(res.stderr, "Privileged Gateway Intents") {
		t.Errorf("exit %d; stderr:\n%s", res.code, res.stderr)
	}
}

// discordPlatform runs the conformance suite against the Discord adapter and the Discord fake.
type discordPlatform struct {
	d *fakediscord.Server
	socketDrops
}

func newDiscordPlatform(t *testing.T) platform { return newDiscordPlatformOn(newDiscordFake(t)) }

func newDiscordPlatformOn(d *fakediscord.Server) *discordPlatform {
	return &discordPlatform{d: d, socketDrops: socketDrops{f: d}}
}

func (dp *discordPlatform) adapter() string {
	return fmt.Sprintf(`"type": "discord", "botToken": %q, "apiUrl": %q`, dp.d.Token(), dp.d.URL())
}

func (dp *discordPlatform) cast() cast {
	return cast{admin: dAda, user: dBea, group: dGeneral, adminDM: dAdaDM, userDM: dBeaDM}
}

func (dp *discordPlatform) started(t testing.TB, p *proc) {
	dp.d.WaitFor(t, "mom to connect to the gateway", dp.d.Connected)
}

func (dp *discordPlatform) say(t *testing.T, m said) {
	var opts []fakediscord.SayOption
	if m.file != nil {
		opts = append(opts, fakediscord.WithFile(fakediscord.File{Name: m.file.name, Content: m.file.content}))
	}
	dp.d.Say(m.channel, m.from, m.addressed("<@"+dBot+">"), opts...)
}

// shown lists the bot's messages in the channel and, after each message a thread was created
// from, the bot's messages in that thread.
func (dp *discordPlatform) shown(channel string) []string {
	var out []string
	for _, m := range dp.d.Messages(channel) {
		if m.Author == dBot {
			out = append(out, m.Content)
		}
		if m.Thread == "" {
			continue
		}
		for _, r := range dp.d.Messages(m.Thread) {
			if r.Author == dBot {
				out = append(out, r.Content)
			}
		}
	}
	return out
}

func (dp *discordPlatform) deleted(channel string) int {
	n := 0
	for _, c := range dp.d.Calls("DELETE /channels/{id}/messages/{id}") {
		if strings.HasPrefix(c.Path, "/channels/"+channel+"/") && c.Status == 204 {
			n++
		}
	}
	return n
}

func (dp *discordPlatform) uploads(t *testing.T, channel string) []sentFile {
	var out []sentFile
	for _, u := range dp.d.Uploads() {
		if u.ChannelID == channel {
			out = append(out, sentFile{name: u.Filename, content: u.Content})
		}
	}
	return out
}

func (dp *discordPlatform) lacks(feature) string { return "" }

func (dp *discordPlatform) maxText() int { return discordadapter.MaxText }

func (dp *discordPlatform) codeIntact(text string) bool { return balancedFences(text) }

func (dp *discordPlatform) violations() []string { return dp.d.Violations() }
