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

// The restart tests kill mom with SIGKILL at the worst moments, over Slack and Telegram
// through their fakes (which send again what mom had not acknowledged, as the platforms do),
// and check what people see once it is back: every recent question answered once, no status
// message left saying "Thinking…", older ones told to ask again.

// restartPlatforms are the platforms the restart tests run on.
func restartPlatforms() []conformer {
	return []conformer{{"slack", newSlackPlatform}, {"telegram", newTelegramPlatform}}
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
}

func newRestartWorld(t *testing.T, c conformer) *restartWorld {
	pf := c.make(t)
	rw := &restartWorld{chatWorld: newChatWorld(t, "chat", c.name, pf), t: t, c: pf.cast()}
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
	}
}

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

			rw.killDuringRun(group, "q-1")

			// Asked while mom is down.
			rw.ask(group, "q-2")
			rw.ask(dm, "q-3")

			rw.ans.holding(false)
			rw.run()
			rw.shows(group, "answer q-1")
			rw.shows(group, "answer q-2")
			rw.shows(dm, "answer q-3")

			// Killed while starting, wherever the kill lands: a run it started for q-4 is
			// at most interrupted once, and done again by the next mom.
			rw.waitJournaled("end", 3)
			rw.kill()
			rw.ask(group, "q-4")
			rw.ans.holding(true)
			rw.p = rw.start()
			rw.p.waitForErr("signed in to")
			rw.kill()

			rw.ans.holding(false)
			rw.run()
			rw.shows(group, "answer q-4")
			rw.stop()
			rw.settled([]string{group, dm}, map[string]string{"q-1": group, "q-2": group, "q-3": dm, "q-4": group})
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
// once the run's status message is up and noted in the journal.
func (rw *restartWorld) killDuringRun(channel, q string) {
	rw.t.Helper()
	rw.ans.holding(true)
	rw.run()
	rw.ask(channel, q)
	rw.waitRequests(1)
	rw.waitJournaled("status", 1)
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
			rw.shows(group, "Restarted")
			rw.kill()

			rw.ans.holding(false)
			rw.run()
			rw.shows(group, "interrupted me twice")
			rw.ask(group, "q-2") // mom goes on working
			rw.shows(group, "answer q-2")
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
			rw.ask(group, "q-2") // Telegram dates it in whole seconds, maybe the second mom starts in

			rw.ans.holding(false)
			rw.configureResume(0)
			rw.run()
			rw.shows(group, "Please ask again")
			rw.ask(group, "q-3")
			rw.shows(group, "answer q-3")
			rw.stop()
			rw.settled([]string{group}, map[string]string{"q-3": group})
			for _, id := range []string{"q-1", "q-2"} {
				if n := rw.count(group, "answer "+id); n != 0 {
					t.Errorf("%s, from before the window, was answered", id)
				}
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
