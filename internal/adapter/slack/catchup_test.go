package slack_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// Backfill: what people said while mom was away is logged after a restart (Stop, then run on
// the same data directory) in order; chatter starts no run, a recent mention is answered late
// (the README's "Restarts").

// TestSlackBackfillLogsWhatWasMissed: what was said while mom was away, a mention among it, is
// logged after the restart in order, and the mention is answered once, as one that waited.
func TestSlackBackfillLogsWhatWasMissed(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.LLM.Enqueue(fakellm.Text("first"), fakellm.Text("back now"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hello")
	sw.botSays(general, "", "first")
	sw.WaitIdle()
	sw.Stop()

	sw.slack.Say(general, beaID, "while mom was away", fakeslack.Silently())
	sw.slack.Say(general, adaID, "<@"+slackBot+"> are you there?", fakeslack.Silently())
	sw.run()
	sw.botSays(general, "", "back now")
	logPath := filepath.Join(sw.ChannelDir("acme", general), "log.jsonl")
	apptest.Eventually(t, "backfill to log the missed messages in order", func() bool {
		lines := apptest.JSONLines(t, logPath)
		return len(lines) >= 4 && lines[2]["text"] == "while mom was away" && lines[3]["text"] == "are you there?"
	})
	sw.Stop()
	reqs := sw.LLM.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastUserText(), "while you were restarting") {
		t.Errorf("%d model requests; want the missed mention answered once, as one that waited", len(reqs))
	}
}

// TestSlackBackfillReadsEveryPageUpToItsBound: after a restart, a channel that missed more
// messages than one conversations.history page holds is caught up on completely, oldest
// first; a channel that missed more than mom's bound gets the newest 1,000, in order, and
// nothing older, however small the pages Slack hands out.
func TestSlackBackfillReadsEveryPageUpToItsBound(t *testing.T) {
	t.Parallel()
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
		path := filepath.Join(sw.ChannelDir("acme", ch), "log.jsonl")
		apptest.WaitForFile(t, path)
		apptest.Eventually(t, ch+" to log the message", func() bool { return len(apptest.JSONLines(t, path)) == 1 })
	}
	sw.Stop()

	missed := map[string]int{general: bound + 5, random: 250}
	for _, ch := range []string{general, random} {
		for i := range missed[ch] {
			sw.slack.Say(ch, beaID, fmt.Sprintf("missed %04d", i), fakeslack.Silently())
		}
	}
	mark := sw.run()
	sw.waitLogged(mark, "caught up on a channel", 2)
	sw.Stop()

	for ch, n := range missed {
		lines := apptest.JSONLines(t, filepath.Join(sw.ChannelDir("acme", ch), "log.jsonl"))
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
	if n := len(sw.LLM.Requests()); n != 0 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}

// TestSlackBackfillCatchesUpThreads: replies posted while mom was down, in a thread it had
// logged before and in a thread under a message that was itself posted while it was down, are
// logged after the restart once each, in time order among the channel's own messages, with
// their thread ids, and start no run. A reply also sent to the channel, which Slack lists both
// in the channel and in the thread, is logged once too.
func TestSlackBackfillCatchesUpThreads(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.run()
	parent := sw.slack.Say(general, adaID, "shall we ship on friday?")
	sw.slack.Say(general, beaID, "I think so", fakeslack.InThread(parent))
	logPath := filepath.Join(sw.ChannelDir("acme", general), "log.jsonl")
	apptest.WaitForFile(t, logPath)
	apptest.Eventually(t, "the thread to be logged", func() bool { return len(apptest.JSONLines(t, logPath)) == 2 })
	sw.Stop()

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

	mark := sw.run()
	sw.waitLogged(mark, "caught up on a channel", 1)
	sw.Stop()

	lines := apptest.JSONLines(t, logPath)
	var got []line
	for _, l := range lines {
		thread, _ := l["replyTo"].(string)
		got = append(got, line{l["id"].(string), l["text"].(string), thread})
	}
	want[1].id = got[1].id // logged live before the restart
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("log.jsonl after the restart:\n%v\nwant every missed reply once, in time order, with its thread:\n%v", got, want)
	}
	if n := len(sw.LLM.Requests()); n != 0 {
		t.Errorf("%d model requests; missed messages are history, not triggers", n)
	}
}
