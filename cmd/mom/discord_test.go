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

// The preset guild's cast (fakediscord.NewPreset), by shorter names.
const (
	dBot     = fakediscord.PresetBot
	dGeneral = fakediscord.PresetGeneral
	dAda     = fakediscord.PresetAda // an admin
	dBea     = fakediscord.PresetBea // a colleague
	dCI      = fakediscord.PresetCI  // another bot
	dAdaDM   = fakediscord.PresetAdaDM
	dBeaDM   = fakediscord.PresetBeaDM
)

// newDiscordFake is the preset guild: two people, a CI bot, a channel and two DMs.
func newDiscordFake(t testing.TB, opts ...fakediscord.Option) *fakediscord.Server {
	s := fakediscord.NewPreset(opts...)
	t.Cleanup(s.Close)
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

// TestDiscordReplyWithoutPingStartsARun: a person may switch a reply's ping off, and Discord
// then leaves mom out of the message's mentions; a reply to mom still addresses mom, a reply
// to someone else does not.
func TestDiscordReplyWithoutPingStartsARun(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("first answer"))
	dw.llm.Enqueue(fakellm.Text("answer to the quiet reply"))
	dw.run()
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> what's the plan?")
	answer := dw.botSays(dGeneral, "first answer")
	dw.p.waitForErr("run finished")
	plan := dw.d.Say(dGeneral, dBea, "we ship on friday")
	dw.d.Say(dGeneral, dAda, "agreed", fakediscord.InReplyTo(plan), fakediscord.NoPing())
	dw.d.Say(dGeneral, dBea, "and the tests?", fakediscord.InReplyTo(answer.ID), fakediscord.NoPing())
	reply := dw.botSays(dGeneral, "answer to the quiet reply")
	if prompt := dw.waitRequests(2)[1].LastUserText(); !strings.Contains(prompt, "and the tests?") {
		t.Errorf("the model saw %q; want the reply", prompt)
	}
	dw.stop()
	if n := len(dw.llm.Requests()); n != 2 {
		t.Errorf("%d model requests; want the mention and the reply to mom", n)
	}
	mention := map[string]any{}
	for _, l := range jsonLines(t, filepath.Join(dw.channelDir("guild", dGeneral), "log.jsonl")) {
		mention[l["text"].(string)] = l["isMention"]
	}
	if mention["agreed"] == true || mention["and the tests?"] != true {
		t.Errorf("isMention in log.jsonl = %v; want the reply to mom alone to address it", mention)
	}
	if reply.ID == answer.ID {
		t.Errorf("the reply was answered by editing the first answer")
	}
}

// TestDiscordBotRoleMentionStartsARun: Discord gives an invited bot a managed role named like
// it, which sits next to the bot in the @ list; mentioning it means mom, and its markup is
// removed like mom's own mention.
func TestDiscordBotRoleMentionStartsARun(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("right here"))
	dw.run()
	dw.d.Say(dGeneral, dAda, "<@&"+dw.d.BotRoleID()+"> where are you?")
	dw.botSays(dGeneral, "right here")
	prompt := dw.waitRequests(1)[0].LastUserText()
	if !strings.Contains(prompt, "where are you?") || strings.Contains(prompt, dw.d.BotRoleID()) || strings.Contains(prompt, "@role") {
		t.Errorf("the model saw %q; want the text without the role's mention", prompt)
	}
	dw.stop()
	lines := jsonLines(t, filepath.Join(dw.channelDir("guild", dGeneral), "log.jsonl"))
	if len(lines) != 2 || lines[0]["isMention"] != true || lines[0]["text"] != "where are you?" {
		t.Errorf("log.jsonl = %v; want the mention of mom's role as a mention", lines)
	}
}

// TestDiscordRoleMentionReadsAsItsName: other roles reach the model as @name, and mentioning
// one does not start a run.
func TestDiscordRoleMentionReadsAsItsName(t *testing.T) {
	dw := newDiscordWorld(t, "")
	oncall := dw.d.AddRole(fakediscord.Role{Name: "oncall"})
	dw.llm.Enqueue(fakellm.Text("paging them"))
	dw.run()
	dw.d.Say(dGeneral, dBea, "<@&"+oncall+"> the db is down")
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> tell <@&"+oncall+"> what you see")
	dw.botSays(dGeneral, "paging them")
	prompt := dw.waitRequests(1)[0].LastUserText()
	for _, want := range []string{"@oncall the db is down", "tell @oncall what you see"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the model saw %q; want %q in it", prompt, want)
		}
	}
	dw.stop()
	if n := len(dw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests; a role's mention must not start a run", n)
	}
}

// TestDiscordThreadRefusedDetailsFollowTheAnswer: where mom may not create threads (an admin
// denied it Create Public Threads in the channel, and Discord answers 403 Missing
// Permissions), the details and the usage line come as replies below the answer, as in DMs.
func TestDiscordThreadRefusedDetailsFollowTheAnswer(t *testing.T) {
	dw := newDiscordWorld(t, "")
	dw.d.SetOwner(dAda)
	dw.d.SetOverwrites(dGeneral, fakediscord.Overwrite{ID: dw.d.BotRoleID(), Type: fakediscord.OverwriteRole,
		Deny: fakediscord.PermCreatePublicThreads})
	dw.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Look", "command": "echo looked"})))
	dw.llm.Enqueue(fakellm.Text("All done."))
	dw.run()
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> look around")
	answer := dw.botSays(dGeneral, "All done.")
	dw.botSays(dGeneral, " in, ") // the usage line comes last
	dw.stop()
	var shown []fakediscord.Message
	for _, m := range dw.d.Messages(dGeneral) {
		if m.Author == dBot {
			shown = append(shown, m)
		}
	}
	if len(shown) != 3 || shown[0].ID != answer.ID || answer.Thread != "" {
		t.Fatalf("the bot's messages in #general = %+v; want the answer, its detail and the usage line", shown)
	}
	for _, m := range shown[1:] {
		if m.Reference != answer.ID {
			t.Errorf("%q replies to %q; want the answer %s", m.Content, m.Reference, answer.ID)
		}
	}
	if !strings.Contains(shown[1].Content, "✓ bash") || !strings.Contains(shown[1].Content, "looked") {
		t.Errorf("the detail reads %q", shown[1].Content)
	}
	refused := 0
	for _, c := range dw.d.Calls("POST /channels/{id}/messages/{id}/threads") {
		if c.Status == 403 {
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("Discord never refused a thread; the test did not test the fallback")
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
