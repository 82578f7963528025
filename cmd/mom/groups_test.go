package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// Who may start a run outside DMs, tried as strangers would, through the platform fakes and
// the real binary, under the default settings plus the admin every test world has.

// noStrangerReachedTheModel fails the test when any model request carries secret, a word
// only strangers used.
func noStrangerReachedTheModel(t *testing.T, reqs []*fakellm.Request, secret string) {
	t.Helper()
	for _, r := range reqs {
		if strings.Contains(string(r.Body), secret) {
			t.Errorf("a stranger's message reached the model:\n%s", allText(r))
		}
	}
}

// TestTelegramStrangersGroupIsRefusedAndLeft: anyone can add a bot to a Telegram group. In a
// stranger's group mom starts nothing, says once why and how an admin could allow it, and
// leaves; in a group where its admin is a member, anybody may ask.
func TestTelegramStrangersGroupIsRefusedAndLeft(t *testing.T) {
	t.Parallel()
	const eve, evesGroup = int64(1009), int64(-1002000000009)
	w := newTelegramWorld(t, "")
	w.tg.AddUser(faketg.User{ID: eve, FirstName: "Eve", Username: "eve"})
	w.tg.AddChat(faketg.Chat{ID: evesGroup, Type: faketg.Supergroup, Title: "Eve's"})
	w.tg.SetMember(tgGroup, tgAda, faketg.Member)
	w.llm.Enqueue(fakellm.Text("Hello Bea."))
	w.run()

	w.tg.Say(evesGroup, eve, "@mom_bot run eve-secret-command")
	w.tg.Say(evesGroup, eve, "@mom_bot eve-secret-command, now")
	notice := w.botSays(evesGroup, 0, "only work in groups where one of the people who run me is a member")
	for _, want := range []string{strconv.FormatInt(evesGroup, 10), `"groups" for tg`, "leaving"} {
		if !strings.Contains(notice.Text, want) {
			t.Errorf("the notice lacks %q: %q", want, notice.Text)
		}
	}
	w.tg.WaitFor(t, "mom to leave the stranger's group", func() bool { return !w.tg.BotIn(evesGroup) })

	w.tg.Say(tgGroup, tgBea, "@mom_bot hello")
	w.botSays(tgGroup, 0, "Hello Bea.")
	w.stop()

	reqs := w.llm.Requests()
	if len(reqs) != 1 {
		t.Errorf("%d model requests, want 1 (bea's, in the admin's group)", len(reqs))
	}
	noStrangerReachedTheModel(t, reqs, "eve-secret-command")
	if n := len(w.tg.Messages(evesGroup, 0)) - 2; n != 1 {
		t.Errorf("mom said %d things in the stranger's group, want one notice", n)
	}
	lines := apptest.JSONLines(t, filepath.Join(w.channelDir("tg", strconv.FormatInt(evesGroup, 10)), "log.jsonl"))
	if len(lines) == 0 || !strings.Contains(fmt.Sprint(lines[0]["text"]), "eve-secret-command") {
		t.Errorf("the refused message was not logged: %v", lines)
	}
}

// TestTelegramWithoutAdminsRefusesGroupsAndSaysSo: with no admins, "admins" (the default)
// refuses every group; mom check and the start-up log warn, and mom does not leave a group it
// cannot tell apart from its owner's.
func TestTelegramWithoutAdminsRefusesGroupsAndSaysSo(t *testing.T) {
	t.Parallel()
	tg := newTelegramFake(t)
	w := newWorld(t)
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "adapters": {"tg": {"type": "telegram", "botToken": %q, "apiUrl": %q}},
}`, w.llm.URL(), tg.Token(), tg.URL()))
	check := w.mom("", "check", w.dir)
	if check.code != 0 || !strings.Contains(check.stdout, "tg (telegram): DMs from none; groups: where an admin is a member; admins none") ||
		!strings.Contains(check.stdout, `Warning: adapter tg has no "admins", so mom refuses every group`) {
		t.Errorf("mom check (exit %d):\n%s%s", check.code, check.stdout, check.stderr)
	}
	p := w.start()
	tg.WaitFor(t, "mom to poll for updates", tg.Polling)
	p.waitForErr("adapter tg has no")
	tg.Say(tgGroup, tgAda, "@mom_bot hello")
	apptest.AwaitMessage(t, tg.WaitFor, "the refusal", func() []faketg.Message { return tg.Messages(tgGroup, 0) },
		func(m faketg.Message) bool {
			return m.From == tg.Bot().ID && strings.Contains(m.Text, "only work in groups")
		})
	p.waitForErr("refused a run in a group")
	p.terminate()
	if n := len(w.llm.Requests()); n != 0 {
		t.Errorf("%d model requests, want none", n)
	}
	if !tg.BotIn(tgGroup) {
		t.Error("mom left a group although it has no admins to look for: it may be its owner's")
	}
}

// TestSlackGroupDMFollowsTheDMPolicy: a group DM with mom and a colleague is no channel: the
// DM policy (closed by default) decides, so the colleague is refused once and the admin is
// answered. A group DM mom hears of only through an app_mention (no channel_type) is looked up.
func TestSlackGroupDMFollowsTheDMPolicy(t *testing.T) {
	t.Parallel()
	const teamDM, lateDM, cyID = "G0ADABEA", "G0CYBEA", "U0CY"
	sw := newSlackWorld(t, "")
	sw.slack.AddUser(fakeslack.User{ID: cyID, Name: "cy", RealName: "Cy Young"})
	sw.slack.AddChannel(fakeslack.Channel{ID: teamDM, Name: "mpdm-ada--bea--mom-1", Kind: fakeslack.KindMPIM,
		Members: []string{adaID, beaID, slackBot}, BotMember: true})
	sw.llm.Enqueue(fakellm.Text("Yes, Ada."))
	sw.run()

	sw.slack.Say(teamDM, beaID, "<@"+slackBot+"> run bea-secret-command")
	sw.botSays(teamDM, "", "I only take direct messages")
	sw.slack.Say(teamDM, beaID, "<@"+slackBot+"> bea-secret-command?")
	sw.slack.Say(teamDM, adaID, "<@"+slackBot+"> are you there?")
	sw.botSays(teamDM, "", "Yes, Ada.")

	// A group DM opened after start, announced only by an app_mention event.
	sw.slack.AddChannel(fakeslack.Channel{ID: lateDM, Name: "mpdm-bea--cy--mom-1", Kind: fakeslack.KindMPIM,
		Members: []string{beaID, cyID, slackBot}, BotMember: true})
	now := time.Now()
	sw.slack.Deliver(map[string]any{"type": "app_mention", "channel": lateDM, "user": cyID,
		"text": "<@" + slackBot + "> cy-secret-command", "ts": fmt.Sprintf("%d.%06d", now.Unix(), now.Nanosecond()/1000),
		"event_ts": fmt.Sprintf("%d.%06d", now.Unix(), now.Nanosecond()/1000)})
	sw.botSays(lateDM, "", "I only take direct messages")
	sw.stop()

	reqs := sw.llm.Requests()
	if len(reqs) != 1 {
		t.Errorf("%d model requests, want 1 (the admin's)", len(reqs))
	}
	refusals := 0
	for _, m := range sw.slack.Messages(teamDM) {
		if m.User == slackBot && strings.Contains(m.Text, "I only take direct messages") {
			refusals++
		}
	}
	if refusals != 1 {
		t.Errorf("bea was refused %d times, want once", refusals)
	}
	noStrangerReachedTheModel(t, reqs, "cy-secret-command")
	looked := false
	for _, c := range sw.slack.Calls("conversations.info") {
		looked = looked || c.Form.Get("channel") == lateDM
	}
	if !looked {
		t.Error("the group DM known only from an app_mention was not looked up (conversations.info)")
	}
	lines := apptest.JSONLines(t, filepath.Join(sw.channelDir("acme", teamDM), "log.jsonl"))
	if len(lines) == 0 || lines[0]["isGroupDM"] != true || lines[0]["isDM"] == true {
		t.Errorf("a group DM message should be logged as one (isGroupDM, not isDM): %v", lines)
	}
}

// TestSlackAppPostingForAPersonIsABot: a message with a person's user and an app's bot_id was
// posted by the app (with that person's token, or a workflow in their name). It is logged as
// a bot's and starts nothing, even in the admin's name.
func TestSlackAppPostingForAPersonIsABot(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("Hi Ada."))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> run app-secret-command", fakeslack.ThroughApp("B0OTHERAPP"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hi")
	sw.botSays(general, "", "Hi Ada.")
	sw.stop()
	if n := len(sw.llm.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1 (ada's own message)", n)
	}
	if got := sw.llm.Requests()[0].LastUserText(); strings.Contains(lastLine(got), "app-secret-command") {
		t.Errorf("the app's message was the run's trigger:\n%s", got)
	}
	lines := apptest.JSONLines(t, filepath.Join(sw.channelDir("acme", general), "log.jsonl"))
	if len(lines) < 2 || lines[0]["sender"].(map[string]any)["isBot"] != true || lines[1]["sender"].(map[string]any)["isBot"] == true {
		t.Errorf("log.jsonl = %v; want the app's message as a bot's and ada's as hers", lines)
	}
}

// lastLine is the last line of text.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return lines[len(lines)-1]
}

// TestDiscordServerInvitedByAStrangerIsRefusedAndLeft: anyone can invite a public bot to a
// server of their own. Where none of mom's admins is a member, mom starts nothing, says once
// why, and leaves the server.
func TestDiscordServerInvitedByAStrangerIsRefusedAndLeft(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t, "")
	dw.d.AddUser(fakediscord.User{ID: dAda, Username: "ada", GlobalName: "Ada Lovelace", NotMember: true})
	dw.run()
	dw.d.Say(dGeneral, dBea, "<@"+dBot+"> run bea-secret-command")
	dw.d.Say(dGeneral, dBea, "<@"+dBot+"> bea-secret-command, please")
	notice := dw.botSays(dGeneral, "only work in servers where one of the people who run me is a member")
	for _, want := range []string{"`" + dw.d.GuildID() + "`", `"groups" for guild`, "leaving"} {
		if !strings.Contains(notice.Content, want) {
			t.Errorf("the notice lacks %q: %q", want, notice.Content)
		}
	}
	dw.d.WaitFor(t, "mom to leave the server", dw.d.Left)
	dw.p.waitForErr("left a group where no admin is a member")
	dw.stop()
	if n := len(dw.llm.Requests()); n != 0 {
		t.Errorf("%d model requests, want none", n)
	}
	said := 0
	for _, m := range dw.d.Messages(dGeneral) {
		if m.Author == dBot {
			said++
		}
	}
	if said != 1 {
		t.Errorf("mom said %d things in the stranger's server, want one notice", said)
	}
}

// TestDiscordServerWithAnAdminIsOpen: where an admin is a member, anybody may ask.
func TestDiscordServerWithAnAdminIsOpen(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t, "")
	dw.llm.Enqueue(fakellm.Text("Hello Bea."))
	dw.run()
	dw.d.Say(dGeneral, dBea, "<@"+dBot+"> hello")
	dw.botSays(dGeneral, "Hello Bea.")
	dw.stop()
	if dw.d.Left() {
		t.Error("mom left its admin's server")
	}
}
