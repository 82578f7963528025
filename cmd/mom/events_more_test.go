package main

import (
	"context"
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// More end-to-end tests of the events system, beyond events_test.go: a periodic event that
// fires twice and stays, one-shots moved and cancelled by changing or deleting their files,
// what start-up does with files written while mom was stopped, and runs the model refuses.

// oneShotEvent is a one-shot event file for the terminal's channel.
func oneShotEvent(text string, at time.Time) string {
	return fmt.Sprintf(`{"type": "one-shot", "channelId": "terminal/local", "text": %q, "at": %q}`, text, at.Format(time.RFC3339Nano))
}

// immediateEvent is an immediate event file for the terminal's channel.
func immediateEvent(text string) string {
	return fmt.Sprintf(`{"type": "immediate", "channelId": "terminal/local", "text": %q}`, text)
}

// waitScheduled waits until mom, started with --log-level debug, has scheduled the nth
// version of an event file.
func (p *proc) waitScheduled(file string, n int) {
	p.t.Helper()
	p.waitOutput(p.err, "log", `msg="event scheduled" file=`+file+" ", n)
}

// prompts are the last user texts of the model's requests.
func prompts(reqs []*fakellm.Request) []string {
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.LastUserText()
	}
	return texts
}

// eventDueTimes are the times of the "event due" log lines of one file.
func eventDueTimes(t *testing.T, log, file string) []time.Time {
	t.Helper()
	var times []time.Time
	for line := range strings.Lines(log) {
		if !strings.Contains(line, `msg="event due" file=`+file+" ") {
			continue
		}
		stamp, _, _ := strings.Cut(strings.TrimPrefix(line, "time="), " ")
		at, err := time.Parse(time.RFC3339Nano, stamp)
		if err != nil {
			t.Fatalf("log line without a time: %q", line)
		}
		times = append(times, at)
	}
	return times
}

// TestEventPeriodicFiresEachMinuteAndStays runs a `* * * * *` event to its second fire at
// least. The binary has no clock a test can move and cron has no seconds field, so this takes
// one to two minutes of real time: the test starts mom, then calls t.Parallel so the waiting
// overlaps the serial tests that follow, while mom keeps running and the fake model records.
// The pause can outlast more fires; every one of them is checked.
func TestEventPeriodicFiresEachMinuteAndStays(t *testing.T) {
	w := newWorld(t)
	w.llm.Default(fakellm.Text("Tick."))
	p := w.start()
	p.waitForErr("mom is running")
	// Kathmandu is UTC+05:45: the minutes still line up, and the zone is taken from the file.
	const body = `{"type": "periodic", "channelId": "terminal/local", "text": "Say the time", "schedule": "* * * * *", "timezone": "Asia/Kathmandu"}`
	w.writeEvent("minutely.json", body)
	t.Parallel()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute+apptest.HangGuard)
	defer cancel()
	if _, err := w.llm.WaitRequests(ctx, 2); err != nil {
		t.Fatalf("waiting for two fires: %v\nstdout:\n%s\nstderr:\n%s", err, p.out, p.err)
	}
	p.waitFor("↳ ", 2)
	if code := p.quit(); code != 0 {
		t.Errorf("exit %d", code)
	}

	for i, got := range prompts(w.llm.Requests()) {
		if !strings.Contains(got, "[EVENT:minutely.json:periodic:* * * * *] Say the time") {
			t.Errorf("prompt %d = %q", i+1, got)
		}
	}
	if n := strings.Count(p.out.String(), "(starting event minutely.json)"); n < 2 {
		t.Errorf("the terminal says the event started %d times, want 2 or more:\n%s", n, p.out)
	}
	if data, err := os.ReadFile(filepath.Join(w.eventsDir(), "minutely.json")); err != nil || string(data) != body {
		t.Errorf("the periodic file after its runs: %q, %v; want it left as written", data, err)
	}
	// Each fire belongs to its own minute: the next one is the next due time, not a repeat.
	due := eventDueTimes(t, p.err.String(), "minutely.json")
	for i := 1; i < len(due); i++ {
		if !due[i].Truncate(time.Minute).After(due[i-1].Truncate(time.Minute)) {
			t.Errorf("fires at %v; want each in a minute of its own", due)
		}
	}
	for line := range strings.Lines(p.err.String()) {
		if strings.Contains(line, `msg="event due"`) {
			t.Log(strings.TrimSpace(line)) // how late each fire was, for the record
		}
	}
}

// TestEventOneShotFollowsItsFile changes and deletes one-shot files before their time: a
// one-shot rewritten in place with a later "at" and a deleted one do not run at the old time
// (a third one-shot, due just after it, runs alone), and one moved earlier by
// write-then-rename runs at its new time, which its prompt names.
func TestEventOneShotFollowsItsFile(t *testing.T) {
	w := newWorld(t)
	w.llm.Default(fakellm.Text("Done."))
	p := w.start("--log-level", "debug")
	p.waitForErr("mom is running")

	// The margin is only for setting up; nothing below measures how long anything takes.
	old := time.Now().Add(6 * time.Second)
	later := time.Now().Add(30 * time.Minute) // within the hour mom arms a timer for at once
	w.writeEvent("postponed.json", oneShotEvent("Postponed", old))
	w.writeEvent("cancelled.json", oneShotEvent("Cancelled", old))
	w.writeEvent("barrier.json", oneShotEvent("Barrier", old.Add(time.Second)))
	for _, f := range []string{"postponed.json", "cancelled.json", "barrier.json"} {
		p.waitScheduled(f, 1)
	}
	if err := os.WriteFile(filepath.Join(w.eventsDir(), "postponed.json"), []byte(oneShotEvent("Postponed", later)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(w.eventsDir(), "cancelled.json")); err != nil {
		t.Fatal(err)
	}
	p.waitScheduled("postponed.json", 2)
	if time.Now().After(old) {
		t.Fatalf("the files were changed only after their old time %s, so this run cannot tell a cancelled event from one that ran; the machine is far too slow", old.Format(time.RFC3339Nano))
	}
	apptest.Eventually(t, "the barrier to run and its file to be deleted", func() bool { return !slices.Contains(w.eventFiles(), "barrier.json") })
	if got := prompts(w.llm.Requests()); len(got) != 1 || !strings.Contains(got[0], "[EVENT:barrier.json:one-shot:") {
		t.Fatalf("the model was asked %q; want only the barrier's prompt", got)
	}
	if files := w.eventFiles(); !slices.Equal(files, []string{"postponed.json"}) {
		t.Errorf("event files = %v; want the postponed one waiting", files)
	}

	w.writeEvent("sooner.json", oneShotEvent("Moved up", later))
	p.waitScheduled("sooner.json", 1)
	// Due soon, but not so soon that the time passes before mom reads the file: a one-shot
	// read after its time is deleted unrun.
	moved := time.Now().Add(2 * time.Second)
	w.writeEvent("sooner.json", oneShotEvent("Moved up", moved))
	apptest.Eventually(t, "the moved one-shot to run and its file to be deleted", func() bool { return !slices.Contains(w.eventFiles(), "sooner.json") })
	want := "[EVENT:sooner.json:one-shot:" + moved.Format(time.RFC3339Nano) + "] Moved up"
	if got := prompts(w.llm.Requests()); len(got) != 2 || !strings.Contains(got[1], want) {
		t.Errorf("the model was asked %q; want the barrier's prompt, then %q", got, want)
	}
	if code := p.quit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestEventStartUpDropsWhatWasMissed starts mom on files written while it was stopped: the
// immediate one is stale and one one-shot's time passed two hours ago, beyond "resume"'s 30
// minutes, so both are deleted unrun, and a daily event whose time went by is not caught up.
// The one-shot whose time passed ten minutes ago runs, and is deleted. An immediate event
// written after the start then runs.
func TestEventStartUpDropsWhatWasMissed(t *testing.T) {
	w := newWorld(t)
	w.llm.Default(fakellm.Text("Done."))
	stopped := time.Now().Add(-10 * time.Minute)
	missed := stopped.Add(5 * time.Minute).UTC()
	w.writeEvent("stale.json", immediateEvent("Stale"))
	w.writeEvent("past.json", oneShotEvent("Past", time.Now().Add(-2*time.Hour)))
	w.writeEvent("missed.json", oneShotEvent("Missed", stopped))
	w.writeEvent("daily.json", fmt.Sprintf(`{"type": "periodic", "channelId": "terminal/local", "text": "Daily", "schedule": "%d %d * * *", "timezone": "UTC"}`, missed.Minute(), missed.Hour()))
	for _, f := range w.eventFiles() {
		if err := os.Chtimes(filepath.Join(w.eventsDir(), f), stopped, stopped); err != nil {
			t.Fatal(err)
		}
	}

	p := w.start()
	p.waitForErr("mom is running")
	p.waitForErr(`msg="deleting a stale immediate event written while mom was not running" file=stale.json`)
	p.waitForErr(`msg="deleting a one-shot event whose time has passed" file=past.json`)
	p.waitForErr(`msg="running a one-shot event whose time passed while mom was not running" file=missed.json`)
	apptest.Eventually(t, "the stale, past and missed files to be deleted", func() bool { return len(w.eventFiles()) == 1 })
	// A run caught up at start-up would be asked before this one, written later.
	w.writeEvent("fresh.json", immediateEvent("Fresh"))
	apptest.Eventually(t, "the fresh event to run and its file to be deleted", func() bool { return !slices.Contains(w.eventFiles(), "fresh.json") })
	if got := prompts(w.llm.Requests()); len(got) != 2 || !strings.Contains(got[0], "[EVENT:missed.json:one-shot") ||
		!strings.Contains(got[1], "[EVENT:fresh.json:immediate] Fresh") {
		t.Errorf("the model was asked %q; want the missed one-shot's prompt, then the fresh event's", got)
	}
	if files := w.eventFiles(); !slices.Equal(files, []string{"daily.json"}) {
		t.Errorf("event files = %v; want the daily one kept", files)
	}
	if code := p.quit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestEventAgentErrorInTheTerminal runs an immediate event with a key the model refuses
// (401): the person sees why, the file is deleted, and the request is not retried.
func TestEventAgentErrorInTheTerminal(t *testing.T) {
	w := newWorld(t, withAPIKey("wrong-key"))
	p := w.start()
	p.waitForErr("mom is running")
	w.writeEvent("hook.json", immediateEvent("CI finished"))
	p.waitFor("error: ")
	apptest.Eventually(t, "the event file to be deleted after the failed run", func() bool { return len(w.eventFiles()) == 0 })
	if code := p.quit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	if out := p.out.String(); !strings.Contains(out, "401") || !strings.Contains(out, "x-api-key") {
		t.Errorf("the terminal does not say the model refused the key:\n%s", out)
	}
	if n := len(w.llm.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want 1 (no retry)", n)
	}
}

// TestEventAgentErrorInSlack runs a one-shot whose request the model rejects (400): the
// channel is told, the file is deleted, and the request is not retried.
func TestEventAgentErrorInSlack(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Fail(400, "invalid_request_error", "messages: the conversation is malformed"))
	sw.run()
	at := time.Now().Add(2 * time.Second)
	sw.writeEvent("report.json", fmt.Sprintf(`{"type": "one-shot", "channelId": "acme/%s", "text": "Weekly report", "at": %q}`, general, at.Format(time.RFC3339Nano)))
	msg := sw.botSays(general, "", "Sorry, something went wrong")
	if !strings.Contains(msg.Text, "the conversation is malformed") {
		t.Errorf("the channel is told %q; want the model's reason", msg.Text)
	}
	apptest.Eventually(t, "the event file to be deleted after the failed run", func() bool { return len(sw.eventFiles()) == 0 })
	sw.stop()
	if n := len(sw.llm.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want 1 (no retry)", n)
	}
}
