package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The restart tests kill mom with SIGKILL at the worst moments, over Slack, Telegram and
// Discord through their fakes (which send again what mom had not acknowledged, or let it read
// back what was said meanwhile, as the platforms do) and in the web chat, and check what
// people see once it is back: every recent question answered once, no status message left
// saying "Thinking…", older ones told to ask again.

// restartPlatforms are the platforms the restart tests run on.
func restartPlatforms() []conformer {
	return []conformer{{"slack", newSlackPlatform}, {"telegram", newTelegramPlatform},
		{"discord", newDiscordPlatform}, {"web", newWebPlatform}}
}

// signedIn is what mom logs on each restart platform once it is connected, before it finishes
// what the last mom left: a kill right then is a kill while starting.
var signedIn = map[string]string{
	"slack": "signed in to Slack", "telegram": "signed in to Telegram", "discord": "connected to Discord",
	"web": "Web chat: http://",
}

// questionID finds the questions of the restart tests ("q-7") in what the model is sent.
var questionID = regexp.MustCompile(`q-\d+`)

// lastQuestion is the question a model request asks: the last one in its newest message.
func lastQuestion(r *fakellm.Request) string {
	ids := questionID.FindAllString(r.LastUserText(), -1)
	if len(ids) == 0 {
		return ""
	}
	return ids[len(ids)-1]
}

// answerer is the model of the restart tests: it answers the question in the newest message
// ("q-7") with "answer q-7", holding the answer back while hold is set, so that mom can be
// killed in the middle of a run.
type answerer struct {
	mu   sync.Mutex
	hold chan struct{} // nil: answer at once
}

func newAnswerer(t testing.TB, llm *fakellm.Server) *answerer {
	a := &answerer{}
	llm.Handle(func(r *fakellm.Request) (fakellm.Reply, bool) {
		id := lastQuestion(r)
		if id == "" {
			return fakellm.Text("no question here"), true
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		return fakellm.Reply{Text: "answer " + id, Hold: a.hold}, true
	})
	t.Cleanup(func() { a.holding(false) })
	return a
}

// holding makes answers wait (on) or go (off), letting the held ones finish.
func (a *answerer) holding(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case on && a.hold == nil:
		a.hold = make(chan struct{})
	case !on && a.hold != nil:
		close(a.hold)
		a.hold = nil
	}
}

// restartWorld is a chat world that mom is killed and restarted in.
type restartWorld struct {
	*chatWorld
	t   *testing.T
	c   cast
	ans *answerer
	// signedIn is what mom logs once connected (the map signedIn).
	signedIn string
}

func newRestartWorld(t *testing.T, c conformer) *restartWorld {
	pf := c.make(t)
	rw := &restartWorld{chatWorld: newChatWorld(t, "chat", c.name, pf), t: t, c: pf.cast(), signedIn: signedIn[c.name]}
	rw.ans = newAnswerer(t, rw.llm)
	rw.configureResume(30)
	return rw
}

// configureResume writes the config of configure, with "resume" set to minutes.
func (rw *restartWorld) configureResume(minutes int) {
	rw.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "resume": {"withinMinutes": %d},
  "adapters": {"chat": {%s, "admins": [%q], "busy": "queue", "dm": "everyone", "groups": "everyone"}},
}`, rw.llm.URL(), minutes, rw.pf.adapter(), rw.c.admin))
}

// ask has the colleague ask question id in channel: a mention in the group, a message in a DM.
func (rw *restartWorld) ask(channel, id string) {
	rw.pf.say(rw.t, said{channel: channel, from: rw.c.user, text: "please answer " + id, mention: channel == rw.c.group})
}

// kill kills mom with SIGKILL and waits until it is gone.
func (rw *restartWorld) kill() {
	rw.t.Helper()
	if err := rw.p.cmd.Process.Kill(); err != nil {
		rw.t.Fatal(err)
	}
	rw.p.wait()
}

// journaled counts the lines of kind ("start", "status", ...) in every run journal.
func (rw *restartWorld) journaled(kind string) int {
	files, _ := filepath.Glob(filepath.Join(rw.dir, "runs", "chat", "*.jsonl"))
	n := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		n += strings.Count(string(data), `"type":"`+kind+`"`)
	}
	return n
}

// waitJournaled waits until the journals hold n lines of kind.
func (rw *restartWorld) waitJournaled(kind string, n int) {
	rw.t.Helper()
	apptest.Eventually(rw.t, fmt.Sprintf("%d %s lines in the run journals", n, kind), func() bool { return rw.journaled(kind) >= n })
}

// shows waits until the bot shows a message in channel containing want.
func (rw *restartWorld) shows(channel, want string) {
	rw.t.Helper()
	apptest.AwaitMessage(rw.t, apptest.Eventually, fmt.Sprintf("the bot to show %q in %s", want, channel),
		func() []string { return rw.pf.shown(channel) },
		func(m string) bool { return strings.Contains(m, want) })
}

// answered waits until the bot shows its answer to question id in channel and, where the
// platform draws runs itself, shows the run as over: the answer shows before its stream
// ends, and a mom stopped in between would leave the run drawn as going.
func (rw *restartWorld) answered(channel, id string) {
	rw.t.Helper()
	rw.shows(channel, "answer "+id)
	if u, ok := rw.pf.(unfinisher); ok {
		apptest.Eventually(rw.t, "the run to show as over in "+channel, func() bool { return u.unfinished(channel) == 0 })
	}
}

// count counts the bot's messages in channel that contain s.
func (rw *restartWorld) count(channel, s string) int {
	n := 0
	for _, m := range rw.pf.shown(channel) {
		if strings.Contains(m, s) {
			n++
		}
	}
	return n
}

// unfinisher is a platform that shows runs as boxes of their own (the web chat) rather than in
// a status message, and can say how many it shows unfinished.
type unfinisher interface {
	unfinished(channel string) int
}

// settled checks what people see in channels once mom is done: the answers named, once each;
// no status message left unfinished.
func (rw *restartWorld) settled(channels []string, answered map[string]string) {
	rw.t.Helper()
	for id, channel := range answered {
		if n := rw.count(channel, "answer "+id); n != 1 {
			rw.t.Errorf("%s answered %d times in %s, want once: %q", id, n, channel, rw.pf.shown(channel))
		}
	}
	for _, ch := range channels {
		for _, unfinished := range []string{"Thinking…", "Restarted"} {
			if n := rw.count(ch, unfinished); n != 0 {
				rw.t.Errorf("%d status messages left saying %q in %s: %q", n, unfinished, ch, rw.pf.shown(ch))
			}
		}
		if u, ok := rw.pf.(unfinisher); ok {
			if n := u.unfinished(ch); n != 0 {
				rw.t.Errorf("%d runs shown as still going in %s: %q", n, ch, rw.pf.shown(ch))
			}
		}
	}
}

// downtime reports whether people can write while mom is down (not in the web chat, which
// mom serves).
func (rw *restartWorld) downtime() bool { return rw.pf.lacks(featureDowntime) == "" }

// TestRestartsLeaveNoMentionBehind kills mom during a run and leaves it down while people ask,
// then starts it: the interrupted run is done again in its status message, the questions
// asked meanwhile are answered, each once. Then it is killed while starting, with a question
// waiting, and started again: that one is answered once too.
func TestRestartsLeaveNoMentionBehind(t *testing.T) {
	for _, c := range restartPlatforms() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rw := newRestartWorld(t, c)
			group, dm := rw.c.group, rw.c.userDM
			channels := []string{group}

			answered := map[string]string{}
			if rw.downtime() {
				// A DM that mom has a log of: Discord lists no DMs to a bot, so mom reads back
				// only those it knows.
				rw.ans.holding(false)
				rw.run()
				rw.ask(dm, "q-0")
				rw.shows(dm, "answer q-0")
				// The answer shows before its stream ends; stopped in between, the run would
				// be unfinished, and done again by the next mom.
				rw.waitJournaled("end", 1)
				rw.stop()
				answered["q-0"] = dm
			}
			rw.killDuringRun(group, "q-1")
			answered["q-1"] = group
			if rw.downtime() {
				// Asked while mom is down.
				rw.ask(group, "q-2")
				rw.ask(dm, "q-3")
				answered["q-2"], answered["q-3"] = group, dm
				channels = append(channels, dm)
			}

			rw.ans.holding(false)
			rw.run()
			for id, ch := range answered {
				rw.shows(ch, "answer "+id)
			}

			// Killed while starting, wherever the kill lands: a run it started for q-4 is
			// at most interrupted once, and done again by the next mom. Where nobody can
			// write while mom is down, q-4 is asked as soon as mom listens, and mom is
			// killed as soon as it took it.
			rw.waitJournaled("end", len(answered))
			rw.kill()
			rw.ans.holding(true)
			if rw.downtime() {
				rw.ask(group, "q-4")
				rw.p = rw.start()
				rw.p.waitForErr(rw.signedIn)
			} else {
				rw.run()
				rw.ask(group, "q-4")
			}
			rw.kill()
			answered["q-4"] = group

			rw.ans.holding(false)
			rw.run()
			rw.answered(group, "q-4")
			rw.stop()
			rw.settled(channels, answered)
			// The model heard that q-1, asked again, waited for the restart.
			var again string
			for _, r := range rw.llm.Requests() {
				if lastQuestion(r) == "q-1" {
					again = r.LastUserText()
				}
			}
			if !strings.Contains(again, "while you were restarting") {
				t.Errorf("q-1 reached the model after the restart as if it were new: %q", again)
			}
		})
	}
}

// killDuringRun starts mom, asks q in channel and kills mom while the model holds its answer,
// once the run's status message is up and noted in the journal (where runs have one).
func (rw *restartWorld) killDuringRun(channel, q string) {
	rw.t.Helper()
	rw.ans.holding(true)
	rw.run()
	asked, noted := len(rw.llm.Requests()), rw.journaled("status")
	rw.ask(channel, q)
	rw.waitRequests(asked + 1)
	if rw.pf.lacks(featureEdits) == "" {
		rw.waitJournaled("status", noted+1)
	} // else the adapter draws the run itself, and there is no status message to note
	rw.kill()
}

// TestRestartsDuringTheRunStartedAgain kills mom during a run and again during the run
// started again after the restart: the next mom gives up on it, saying so in the status
// message, and does not run it a third time.
func TestRestartsDuringTheRunStartedAgain(t *testing.T) {
	for _, c := range restartPlatforms() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rw := newRestartWorld(t, c)
			group := rw.c.group

			rw.killDuringRun(group, "q-1")

			rw.run()
			rw.waitRequests(2) // the run started again, in its old status message
			if rw.pf.lacks(featureEdits) == "" {
				rw.shows(group, "Restarted")
			}
			rw.kill()

			rw.ans.holding(false)
			rw.run()
			rw.shows(group, "interrupted me twice")
			rw.ask(group, "q-2") // mom goes on working
			rw.answered(group, "q-2")
			rw.stop()
			rw.settled([]string{group}, map[string]string{"q-2": group})
			if n := rw.count(group, "answer q-1"); n != 0 {
				t.Errorf("q-1 was answered after two interrupted attempts")
			}
			tries := 0
			for _, r := range rw.llm.Requests() {
				if lastQuestion(r) == "q-1" {
					tries++
				}
			}
			if tries != 2 {
				t.Errorf("the model was asked q-1 %d times, want 2", tries)
			}
		})
	}
}

// TestRestartAfterTheWindowAsksToAskAgain: with "resume" at 0 minutes every interrupted run
// is too old, so its status message says to ask again, and what was asked while mom was down
// is only history.
func TestRestartAfterTheWindowAsksToAskAgain(t *testing.T) {
	for _, c := range restartPlatforms() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rw := newRestartWorld(t, c)
			group := rw.c.group

			rw.killDuringRun(group, "q-1")
			if rw.downtime() {
				rw.ask(group, "q-2") // Telegram dates it in whole seconds, maybe the second mom starts in
			}

			rw.ans.holding(false)
			rw.configureResume(0)
			rw.run()
			rw.shows(group, "Please ask again")
			rw.ask(group, "q-3")
			rw.answered(group, "q-3")
			rw.stop()
			rw.settled([]string{group}, map[string]string{"q-3": group})
			for _, id := range []string{"q-1", "q-2"} {
				if n := rw.count(group, "answer "+id); n != 0 {
					t.Errorf("%s, from before the window, was answered", id)
				}
			}
			if !rw.downtime() {
				return
			}
			// q-2 is in the history the model read with q-3.
			last := rw.llm.Requests()[len(rw.llm.Requests())-1]
			var all strings.Builder
			for _, m := range last.Messages {
				for _, b := range m.Content {
					all.WriteString(b.Text)
				}
			}
			if !strings.Contains(all.String(), "q-2") {
				t.Errorf("q-2 is not in the context of the next run")
			}
		})
	}
}

// answerLoser is a platform whose fake can lose its answer to the post of a run's status
// message: the message is posted, and mom never hears its id.
type answerLoser interface {
	loseStatusAnswer()
}

func (sp *slackPlatform) loseStatusAnswer()   { sp.s.LoseAnswers("chat.postMessage", 1) }
func (dp *discordPlatform) loseStatusAnswer() { dp.d.LoseAnswers("POST /channels/{id}/messages", 1) }

// TestRestartFindsTheStatusMessageItWasKilledPosting: the platform takes a run's status
// message, and mom is killed before the answer with its id arrives, so the run journal does
// not name it. The next mom finds it where the bot can read back its messages (Slack,
// Discord), and the run started again answers in it: nothing is left saying "Thinking…".
// (Telegram's Bot API cannot read history, so a message posted so stays as it was there, as the
// README's Restarts says; the web chat draws runs itself.)
func TestRestartFindsTheStatusMessageItWasKilledPosting(t *testing.T) {
	for _, c := range []conformer{{"slack", newSlackPlatform}, {"discord", newDiscordPlatform}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rw := newRestartWorld(t, c)
			loser := rw.pf.(answerLoser)
			group := rw.c.group
			rw.ans.holding(true)
			rw.run()
			loser.loseStatusAnswer()
			rw.ask(group, "q-1")
			rw.shows(group, "Thinking…")
			rw.waitJournaled("start", 1)
			rw.kill()
			if n := rw.journaled("status"); n != 0 {
				t.Fatalf("the journal names %d status messages; the test proves nothing", n)
			}

			rw.ans.holding(false)
			rw.run()
			rw.answered(group, "q-1")
			rw.stop()
			rw.settled([]string{group}, map[string]string{"q-1": group})
			if n := rw.journaled("status"); n == 0 {
				t.Errorf("the status message found was not noted in the journal")
			}
		})
	}
}
