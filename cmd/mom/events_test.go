package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// eventsDir is the world's events directory.
func (w *world) eventsDir() string { return filepath.Join(w.dir, "workspace", "events") }

func (w *world) writeEvent(name, body string) {
	w.t.Helper()
	if err := os.MkdirAll(w.eventsDir(), 0o755); err != nil {
		w.t.Fatal(err)
	}
	// Write elsewhere and move in, as the prompt tells the model to.
	tmp := filepath.Join(w.dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(w.eventsDir(), name)); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) eventFiles() []string {
	entries, _ := os.ReadDir(w.eventsDir())
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestEventImmediateAndOneShotRunInTheTerminal(t *testing.T) {
	w := newWorld(t)
	w.llm.Enqueue(fakellm.Text("The build is green."))
	w.llm.Enqueue(fakellm.Text("Time for the dentist."))
	p := w.start()
	p.waitForErr("mom is running")
	w.writeEvent("hook.json", `{"type": "immediate", "channelId": "terminal/local", "text": "CI finished"}`)
	p.waitFor("The build is green.")
	at := time.Now().Add(500 * time.Millisecond).Format(time.RFC3339Nano)
	w.writeEvent("dentist.json", `{"type": "one-shot", "channelId": "local", "text": "Remind me", "at": "`+at+`"}`)
	p.waitFor("Time for the dentist.")
	p.waitFor("↳ ", 2)
	reqs := w.llm.Requests()
	if got := reqs[0].LastUserText(); !strings.Contains(got, "[EVENT:hook.json:immediate] CI finished") {
		t.Errorf("first prompt = %q", got)
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "[EVENT:dentist.json:one-shot:"+at+"] Remind me") {
		t.Errorf("second prompt = %q", got)
	}
	if !strings.Contains(p.out.String(), "(starting event hook.json)") {
		t.Errorf("the terminal does not say an event started:\n%s", p.out)
	}
	apptest.Eventually(t, "the event files to be deleted after running", func() bool { return len(w.eventFiles()) == 0 })
	if code := p.quit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestEventBurstRespectsTheQueueCap(t *testing.T) {
	w := newWorld(t)
	hold := make(chan struct{})
	w.llm.Enqueue(fakellm.Reply{Text: "first", Hold: hold})
	w.llm.Default(fakellm.Text("next"))
	p := w.start()
	p.waitForErr("mom is running")
	w.writeEvent("burst-00.json", `{"type": "immediate", "channelId": "local", "text": "item 0"}`)
	w.waitRequests(1)
	for i := 1; i < 50; i++ {
		w.writeEvent(fmt.Sprintf("burst-%02d.json", i), fmt.Sprintf(`{"type": "immediate", "channelId": "local", "text": "item %d"}`, i))
	}
	p.waitOutput(p.err, "log", "event dropped", 44)
	close(hold)
	p.waitFor("↳ ", 6)
	if code := p.quit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	if n := len(w.llm.Requests()); n != 6 {
		t.Errorf("%d runs; want the running one and 5 queued", n)
	}
	if n := strings.Count(p.err.String(), "event dropped"); n != 44 {
		t.Errorf("%d events dropped, want 44", n)
	}
	if files := w.eventFiles(); len(files) > 0 {
		t.Errorf("dropped or run files were left behind: %v", files)
	}
}

func TestEventSilentInSlackLeavesNoTrace(t *testing.T) {
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("[SILENT]"))
	sw.llm.Enqueue(fakellm.Text("You have 3 new emails."))
	sw.run()
	sw.writeEvent("inbox.json", `{"type": "immediate", "channelId": "acme/`+general+`", "text": "Check the inbox"}`)
	sw.waitRequests(1)
	sw.slack.WaitFor(t, "the status message to be posted and deleted", func() bool {
		return len(sw.slack.Calls("chat.delete")) == 1 && len(sw.slack.Messages(general)) == 0
	})
	if posted := sw.slack.Calls("chat.postMessage"); len(posted) != 1 || !strings.Contains(posted[0].Form.Get("text"), "Starting event: inbox.json") {
		t.Errorf("posts = %+v; want one status message naming the event", posted)
	}
	sw.writeEvent("inbox-2.json", `{"type": "immediate", "channelId": "acme/`+general+`", "text": "Check the inbox"}`)
	sw.botSays(general, "", "You have 3 new emails.")
	sw.stop()
}

func TestEventInvalidFileIsSetAside(t *testing.T) {
	w := newWorld(t)
	p := w.start()
	p.waitForErr("mom is running")
	w.writeEvent("bad.json", `{"type": "periodic", "channelId": "local", "text": "x", "schedule": "0 9 * * *", "timezone": "Mars/Base"}`)
	apptest.WaitForFile(t, filepath.Join(w.eventsDir(), ".invalid", "bad.json.error.txt"))
	p.waitForErr("invalid event file moved aside")
	res := w.mom("", "events", w.dir)
	if !strings.Contains(res.stdout, `.invalid/bad.json  INVALID (set aside): "timezone": "Mars/Base" is not an IANA time zone`) {
		t.Errorf("mom events:\n%s", res.stdout)
	}
	p.quit()
}

// TestEventsNextAcrossDST checks `mom events --next` against daylight saving time rules:
// a fixed time in the spring-forward gap runs when the gap ends, a repeated time runs once,
// interval jobs skip the gap and run in both repeated hours, and Lord Howe's 30-minute shift
// keeps a 9:00 job daily.
func TestEventsNextAcrossDST(t *testing.T) {
	w := newWorld(t)
	periodic := func(name, schedule, zone string) {
		w.writeEvent(name, fmt.Sprintf(`{"type": "periodic", "channelId": "local", "text": "x", "schedule": %q, "timezone": %q}`, schedule, zone))
	}
	for _, tt := range []struct {
		name, schedule, zone, from string
		next                       int
		want                       []string
	}{
		{"ny-gap", "30 2 * * *", "America/New_York", "2026-03-07T12:00:00-05:00", 2,
			[]string{"2026-03-08 03:00 -04:00 EDT Sun", "2026-03-09 02:30 -04:00 EDT Mon"}},
		{"ny-hourly", "0 * * * *", "America/New_York", "2026-03-08T00:30:00-05:00", 3,
			[]string{"2026-03-08 01:00 -05:00 EST Sun", "2026-03-08 03:00 -04:00 EDT Sun", "2026-03-08 04:00 -04:00 EDT Sun"}},
		{"ny-fallback", "30 1 * * *", "America/New_York", "2026-11-01T00:00:00-04:00", 2,
			[]string{"2026-11-01 01:30 -04:00 EDT Sun", "2026-11-02 01:30 -05:00 EST Mon"}},
		{"ny-fallback-hourly", "0 1 * * *", "America/New_York", "2026-10-31T12:00:00-04:00", 2,
			[]string{"2026-11-01 01:00 -04:00 EDT Sun", "2026-11-02 01:00 -05:00 EST Mon"}},
		{"ny-fallback-interval", "*/30 1 * * *", "America/New_York", "2026-11-01T00:00:00-04:00", 4,
			[]string{"2026-11-01 01:00 -04:00 EDT Sun", "2026-11-01 01:30 -04:00 EDT Sun", "2026-11-01 01:00 -05:00 EST Sun", "2026-11-01 01:30 -05:00 EST Sun"}},
		{"vienna-gap", "30 2 * * *", "Europe/Vienna", "2026-03-28T12:00:00+01:00", 2,
			[]string{"2026-03-29 03:00 +02:00 CEST Sun", "2026-03-30 02:30 +02:00 CEST Mon"}},
		{"vienna-weekdays", "0 9 * * 1-5", "Europe/Vienna", "2026-10-23T12:00:00+02:00", 2,
			[]string{"2026-10-26 09:00 +01:00 CET Mon", "2026-10-27 09:00 +01:00 CET Tue"}},
		{"lordhowe-fallback", "0 9 * * *", "Australia/Lord_Howe", "2026-04-04T12:00:00+11:00", 2,
			[]string{"2026-04-05 09:00 +10:30 +1030 Sun", "2026-04-06 09:00 +10:30 +1030 Mon"}},
		{"lordhowe-gap", "15 2 * * *", "Australia/Lord_Howe", "2026-10-03T12:00:00+10:30", 2,
			[]string{"2026-10-04 02:30 +11:00 +11 Sun", "2026-10-05 02:15 +11:00 +11 Mon"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range w.eventFiles() {
				os.Remove(filepath.Join(w.eventsDir(), f))
			}
			periodic(tt.name+".json", tt.schedule, tt.zone)
			res := w.mom("", "events", w.dir, "--next", fmt.Sprint(tt.next), "--from", tt.from)
			lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
			if res.code != 0 || len(lines) != tt.next+1 {
				t.Fatalf("exit %d:\n%s%s", res.code, res.stdout, res.stderr)
			}
			for i, want := range tt.want {
				if got := strings.TrimSpace(lines[i+1]); got != want {
					t.Errorf("fire %d = %q, want %q", i+1, got, want)
				}
			}
		})
	}
}
