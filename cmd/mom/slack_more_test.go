package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// More Slack tests through the real binary: edits within Slack's rate limits, where answers
// go with replyIn, the directory kept current from workspace events, and backfill's bound.
// The fake records a client that retries before a 429's Retry-After or edits one message
// faster than Slack allows as a violation, which fails every test here (newChatWorld).

// TestSlackStreamedAnswerEditsWithinRateLimits: a long answer streamed in small pieces is
// shown as it grows without editing the message faster than Slack allows, and the final
// edit, which may come right after a throttled one, always writes the whole answer.
func TestSlackStreamedAnswerEditsWithinRateLimits(t *testing.T) {
	sw := newSlackWorld(t, "")
	var words []string
	for i := range 120 {
		words = append(words, fmt.Sprintf("word%03d", i))
	}
	answer := strings.Join(words, " ")
	sw.llm.Enqueue(fakellm.Reply{Text: answer, ChunkSize: 6, EventDelay: 15 * time.Millisecond})
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> count for me")
	m := sw.botShows(general, answer)
	if m.Edits < 2 {
		t.Errorf("the status message was edited %d times; want it to grow while the answer streamed", m.Edits)
	}
	sw.stop()
}

// TestSlackRateLimitedFinalEditIsWritten: when Slack refuses the edit that carries the answer,
// mom waits as told and writes it.
func TestSlackRateLimitedFinalEditIsWritten(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("worth the wait"))
	sw.run()
	sw.slack.RateLimit("chat.update", 1, time.Second)
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hi")
	sw.botShows(general, "worth the wait")
	calls := sw.slack.Calls("chat.update")
	if len(calls) < 2 || calls[0].Error != "ratelimited" {
		t.Errorf("chat.update calls %+v; want the first refused and retried", calls)
	}
	sw.stop()
}

// botShows waits until a top-level message of the bot in channel reads exactly text (a status
// message that merely contains it while the answer streams does not count) and returns it.
func (sw *slackWorld) botShows(channel, text string) fakeslack.Message {
	sw.t.Helper()
	return awaitMessage(sw.t, sw.slack.WaitFor, fmt.Sprintf("the bot to show exactly %q in %s", text, channel),
		func() []fakeslack.Message { return sw.slack.Messages(channel) },
		func(m fakeslack.Message) bool { return m.User == slackBot && m.Text == text })
}

// botReplies returns the bot's replies in a thread.
func (sw *slackWorld) botReplies(channel, thread string) []string {
	var out []string
	for _, m := range sw.slack.Replies(channel, thread) {
		if m.User == slackBot {
			out = append(out, m.Text)
		}
	}
	return out
}

// TestSlackReplyInChannel: with "replyIn": "channel" a mention inside someone's thread is
// answered at the top level of the channel, with the details under the answer, and the
// thread stays as people left it.
func TestSlackReplyInChannel(t *testing.T) {
	sw := newSlackWorld(t, `"replyIn": "channel"`)
	sw.run()
	root := sw.slack.Say(general, beaID, "the build is red")
	sw.llm.Enqueue(fakellm.Text("Looking at it from the top."))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> can you check?", fakeslack.InThread(root))
	answer := sw.botSays(general, "", "Looking at it from the top.")
	sw.botSays(general, answer.TS, " in, ") // the usage summary, under the answer
	if got := sw.botReplies(general, root); len(got) != 0 {
		t.Errorf("the bot wrote in the thread it was asked in: %q", got)
	}
	sw.stop()
}

// TestSlackDMThreadIsAnsweredAtTopLevel: in a DM the answer to a message written in a thread
// goes to the top level of the conversation whatever replyIn says, as it does for every DM.
func TestSlackDMThreadIsAnsweredAtTopLevel(t *testing.T) {
	for _, replyIn := range []string{"thread", "channel"} {
		t.Run(replyIn, func(t *testing.T) {
			sw := newSlackWorld(t, fmt.Sprintf(`"replyIn": %q`, replyIn))
			root := sw.slack.Say(adaDM, adaID, "a note to self", fakeslack.Silently())
			sw.run()
			sw.llm.Enqueue(fakellm.Text("Noted at the top."))
			sw.slack.Say(adaDM, adaID, "what about this one?", fakeslack.InThread(root))
			sw.botSays(adaDM, "", "Noted at the top.")
			if got := sw.botReplies(adaDM, root); len(got) != 0 {
				t.Errorf("the bot answered inside the DM thread: %q", got)
			}
			sw.stop()
			if got := sw.waitRequests(1)[0].LastUserText(); !strings.Contains(got, "what about this one?") {
				t.Errorf("the model saw %q", got)
			}
		})
	}
}

// promptSays checks that a system prompt lists every one of want and none of unwanted.
func promptSays(t *testing.T, which, prompt string, want, unwanted []string) {
	t.Helper()
	var wrong []string
	for _, w := range want {
		if !strings.Contains(prompt, w) {
			wrong = append(wrong, fmt.Sprintf("does not list %q", w))
		}
	}
	for _, u := range unwanted {
		if strings.Contains(prompt, u) {
			wrong = append(wrong, fmt.Sprintf("still lists %q", u))
		}
	}
	if wrong != nil {
		t.Errorf("the %s system prompt %s; the prompt:\n%s", which, strings.Join(wrong, ", "), prompt)
	}
}

// TestSlackDirectoryFollowsWorkspaceChanges: a renamed person, a new member, a renamed,
// created, joined, archived or unarchived channel reach mom while it runs: the next run's
// system prompt lists people and channels as they are now (the bot's channels only: one it
// was not invited to is not listed), and messages are logged under people's new names.
func TestSlackDirectoryFollowsWorkspaceChanges(t *testing.T) {
	const (
		random = "C0RANDOM"
		launch = "C0LAUNCH"
		ops    = "C0OPS"
		cydID  = "U0CYD"
	)
	sw := newSlackWorld(t, "")
	sw.slack.AddChannel(fakeslack.Channel{ID: random, Name: "random", Members: []string{adaID}, BotMember: true})
	sw.run()
	sw.llm.Enqueue(fakellm.Text("before"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> who is here?")
	sw.botSays(general, "", "before")
	sw.p.waitOutput(sw.p.err, "log", "run finished", 1) // a mention while mom is busy would be turned away
	promptSays(t, "first", sw.waitRequests(1)[0].System,
		[]string{"@bea\t", "#DM:bea\t" + beaDM, "#general\t" + general, "#random\t" + random}, []string{"@cyd", "#ops"})

	sw.slack.RenameUser(beaID, "beatrix")
	sw.slack.JoinTeam(fakeslack.User{ID: cydID, Name: "cyd", RealName: "Cyd Vance"})
	sw.slack.RenameChannel(general, "town-square")
	sw.slack.CreateChannel(launch, "launch", adaID)
	sw.slack.CreateChannel(ops, "ops", adaID)
	sw.slack.JoinBot(ops)
	sw.slack.ArchiveChannel(random, adaID)
	sw.slack.Say(general, cydID, "hi all, I am new")
	sw.llm.Enqueue(fakellm.Text("after"))
	sw.slack.Say(general, beaID, "<@"+slackBot+"> and now?")
	sw.botSays(general, "", "after")
	sw.p.waitOutput(sw.p.err, "log", "run finished", 2)
	promptSays(t, "second", sw.waitRequests(2)[1].System,
		[]string{"@beatrix\tbeatrix", "@cyd\tCyd Vance", "#town-square\t" + general, "#ops\t" + ops, "#DM:beatrix\t" + beaDM},
		[]string{"@bea\t", "DM:bea\t", "#general", "#random", "#launch"})

	sw.slack.UnarchiveChannel(random, adaID)
	sw.llm.Enqueue(fakellm.Text("again"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> and the old room?")
	sw.botSays(general, "", "again")
	promptSays(t, "third", sw.waitRequests(3)[2].System, []string{"#random\t" + random}, []string{"#launch"})
	sw.stop()

	lines := jsonLines(t, filepath.Join(sw.channelDir("acme", general), "log.jsonl"))
	senders := map[string]string{}
	for _, l := range lines {
		s := l["sender"].(map[string]any)
		senders[l["text"].(string)] = s["username"].(string)
	}
	if senders["hi all, I am new"] != "cyd" || senders["and now?"] != "beatrix" {
		t.Errorf("log.jsonl senders by text: %v; want cyd and beatrix", senders)
	}
}

// TestSlackStartUpReadsEveryPage: when Slack hands out users and channels a few per page, mom
// reads every page before it starts, so the first run knows everyone.
func TestSlackStartUpReadsEveryPage(t *testing.T) {
	sw := newSlackWorld(t, "", fakeslack.WithPageSize(2))
	var want []string
	for i := range 5 {
		id, name := fmt.Sprintf("U0P%d", i), fmt.Sprintf("person%d", i)
		sw.slack.AddUser(fakeslack.User{ID: id, Name: name, RealName: "Person " + name})
		want = append(want, "@"+name+"\t")
		cid, cname := fmt.Sprintf("C0P%d", i), fmt.Sprintf("room%d", i)
		sw.slack.AddChannel(fakeslack.Channel{ID: cid, Name: cname, Members: []string{adaID}, BotMember: true})
		want = append(want, "#"+cname+"\t"+cid)
	}
	want = append(want, "@ada\t", "@bea\t", "#general\t"+general)
	sw.llm.Enqueue(fakellm.Text("hello everyone"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> who is here?")
	sw.botSays(general, "", "hello everyone")
	promptSays(t, "first", sw.waitRequests(1)[0].System, want, nil)
	for _, method := range []string{"users.list", "conversations.list"} {
		if n := len(sw.slack.Calls(method)); n < 3 {
			t.Errorf("%d %s calls; the workspace needs at least 3 pages of 2", n, method)
		}
	}
	sw.stop()
}

// TestSlackBackfillReadsEveryPageUpToItsBound: after a restart, a channel that missed more
// messages than one conversations.history page holds is caught up on completely, oldest
// first; a channel that missed more than mom's bound gets the newest 1,000, in order, and
// nothing older, however small the pages Slack hands out.
func TestSlackBackfillReadsEveryPageUpToItsBound(t *testing.T) {
	const (
		random = "C0RANDOM"
		bound  = 1000
	)
	// Pages smaller than the 200 mom asks for, as Slack gives some apps.
	sw := newSlackWorld(t, "", fakeslack.WithPageSize(15))
	sw.slack.AddChannel(fakeslack.Channel{ID: random, Name: "random", Members: []string{adaID}, BotMember: true})
	sw.run()
	sw.slack.Say(general, adaID, "before the restart")
	sw.slack.Say(random, adaID, "before the restart")
	for _, ch := range []string{general, random} {
		path := filepath.Join(sw.channelDir("acme", ch), "log.jsonl")
		waitForFile(t, path)
		eventually(t, ch+" to log the message", func() bool { return len(jsonLines(t, path)) == 1 })
	}
	sw.stop()

	missed := map[string]int{general: bound + 5, random: 250}
	for _, ch := range []string{general, random} {
		for i := range missed[ch] {
			sw.slack.Say(ch, beaID, fmt.Sprintf("missed %04d", i), fakeslack.Silently())
		}
	}
	p := sw.run()
	p.waitOutput(p.err, "log", "caught up on a channel", 2)
	sw.stop()

	for ch, n := range missed {
		lines := jsonLines(t, filepath.Join(sw.channelDir("acme", ch), "log.jsonl"))
		kept := min(n, bound)
		if len(lines) != 1+kept {
			t.Errorf("%s: %d lines in log.jsonl; want the first message and %d of the %d missed", ch, len(lines), kept, n)
			continue
		}
		for i, l := range lines[1:] {
			if want := fmt.Sprintf("missed %04d", n-kept+i); l["text"] != want {
				t.Errorf("%s: line %d is %q; want %q (the newest %d, oldest first)", ch, i+2, l["text"], want, kept)
				break
			}
		}
	}
	if n := len(sw.llm.Requests()); n != 0 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}

// TestSlackBackfillCatchesUpThreads: replies posted while mom was down, in a thread it had
// logged before and in a thread under a message that was itself posted while it was down, are
// logged after the restart once each, in time order among the channel's own messages, with
// their thread ids, and start no run. A reply also sent to the channel, which Slack lists both
// in the channel and in the thread, is logged once too.
func TestSlackBackfillCatchesUpThreads(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.run()
	parent := sw.slack.Say(general, adaID, "shall we ship on friday?")
	sw.slack.Say(general, beaID, "I think so", fakeslack.InThread(parent))
	logPath := filepath.Join(sw.channelDir("acme", general), "log.jsonl")
	waitForFile(t, logPath)
	eventually(t, "the thread to be logged", func() bool { return len(jsonLines(t, logPath)) == 2 })
	sw.stop()

	type line struct{ id, text, thread string }
	want := []line{{parent, "shall we ship on friday?", ""}, {"", "I think so", parent}}
	say := func(user, text, thread string, opts ...fakeslack.SayOption) string {
		opts = append(opts, fakeslack.Silently())
		if thread != "" {
			opts = append(opts, fakeslack.InThread(thread))
		}
		ts := sw.slack.Say(general, user, text, opts...)
		want = append(want, line{ts, text, thread})
		return ts
	}
	say(adaID, "what about the tests?", parent)
	lunch := say(beaID, "lunch anyone?", "")
	say(adaID, "yes, noodles", lunch)
	say(beaID, "the tests pass now", parent)
	say(adaID, "shipping on friday then", parent, fakeslack.AlsoToChannel())
	say(beaID, "me too", lunch)
	say(adaID, "see you all monday", "")

	p := sw.run()
	p.waitOutput(p.err, "log", "caught up on a channel", 1)
	sw.stop()

	lines := jsonLines(t, logPath)
	var got []line
	for _, l := range lines {
		thread, _ := l["replyTo"].(string)
		got = append(got, line{l["id"].(string), l["text"].(string), thread})
	}
	want[1].id = got[1].id // logged live before the restart
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("log.jsonl after the restart:\n%v\nwant every missed reply once, in time order, with its thread:\n%v", got, want)
	}
	if n := len(sw.llm.Requests()); n != 0 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}
