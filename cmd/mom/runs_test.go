package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// heldModel makes the fake model hold every answer until the test lets it go, and counts the
// requests in flight. A request counts from its arrival until the test lets it go, which is
// before its answer can end; a run keeps its slot until its answer has ended, so a run beyond
// the limit would arrive while the count is at the limit, and peak would show it.
type heldModel struct {
	mu       sync.Mutex
	holds    []chan struct{} // held answers, in order of arrival
	asked    []string        // what each request asked for, in order of arrival
	inFlight int
	peak     int
}

// askedFor finds what a request asks for: the last "job …" of its last user message.
var askedFor = regexp.MustCompile(`job [a-z0-9]+`)

func holdAnswers(t *testing.T, srv *fakellm.Server) *heldModel {
	h := &heldModel{}
	srv.Handle(func(r *fakellm.Request) (fakellm.Reply, bool) {
		jobs := askedFor.FindAllString(r.LastUserText(), -1)
		if len(jobs) == 0 {
			return fakellm.Reply{}, false
		}
		hold := make(chan struct{})
		h.mu.Lock()
		h.holds = append(h.holds, hold)
		h.asked = append(h.asked, jobs[len(jobs)-1])
		h.inFlight++
		h.peak = max(h.peak, h.inFlight)
		h.mu.Unlock()
		return fakellm.Reply{Text: "did " + jobs[len(jobs)-1], Hold: hold}, true
	})
	t.Cleanup(h.letAllGo)
	return h
}

// letAllGo lets every held answer end.
func (h *heldModel) letAllGo() {
	h.mu.Lock()
	holds := h.holds
	h.holds = nil
	h.inFlight -= len(holds)
	h.mu.Unlock()
	for _, c := range holds {
		close(c)
	}
}

func (h *heldModel) report() (asked []string, peak int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.asked), h.peak
}

// TestConcurrentRunsAreCappedAndPeopleGoFirst: with "maxConcurrentRuns": 2, ten immediate
// events for ten channels and then a person's mention never have more than two model requests
// in flight; the events take one slot at a time, so the person's run does not wait behind
// them, and all of them are answered.
func TestConcurrentRunsAreCappedAndPeopleGoFirst(t *testing.T) {
	t.Parallel()
	const events = 10
	sw := newSlackWorld(t, "")
	sw.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "maxConcurrentRuns": 2,
  "adapters": {"acme": {%s, "admins": [%q]}},
}`, sw.llm.URL(), sw.pf.adapter(), adaID))
	for i := range events {
		sw.slack.AddChannel(fakeslack.Channel{ID: fmt.Sprintf("C0EV%02d", i), Name: fmt.Sprintf("ev-%02d", i),
			Members: []string{adaID, slackBot}, BotMember: true})
	}
	held := holdAnswers(t, sw.llm)
	p := sw.run()
	if !strings.Contains(p.err.String(), "maxConcurrentRuns=2") {
		t.Errorf("the start-up log does not show the limit:\n%s", p.err)
	}

	for i := range events {
		sw.writeEvent(fmt.Sprintf("ev-%02d.json", i),
			fmt.Sprintf(`{"type": "immediate", "channelId": "acme/C0EV%02d", "text": "job e%02d"}`, i, i))
	}
	sw.waitRequests(1)
	p.waitOutput(p.err, "log", "run waits for a free slot", events-1)
	sw.slack.Say(general, adaID, "<@"+slackBot+"> job ada")
	sw.waitRequests(2)

	// Let answers end as they come until every run has finished. Both halves of the condition
	// are outside the fake Slack (the model's held answers, mom's log), which may say nothing
	// after the last of them changes, so this polls rather than waiting for Slack.
	apptest.Eventually(t, "every run to be answered", func() bool {
		held.letAllGo()
		return strings.Count(p.err.String(), "run finished") == events+1
	})
	asked, peak := held.report()
	if peak > 2 {
		t.Errorf("%d model requests were in flight at once; the limit is 2", peak)
	}
	if len(asked) != events+1 {
		t.Fatalf("the model was asked for %v; want each event and the person's message once", asked)
	}
	if asked[1] != "job ada" {
		t.Errorf("the model was asked in the order %v; the person's run should not wait for the events", asked)
	}
	sw.botSays(general, "", "did job ada")
	for i := range events {
		sw.botSays(fmt.Sprintf("C0EV%02d", i), "", fmt.Sprintf("did job e%02d", i))
	}
	apptest.Eventually(t, "the event files to be deleted after their runs", func() bool { return len(sw.eventFiles()) == 0 })
	for line := range strings.Lines(p.err.String()) {
		if strings.Contains(line, "run finished") && !strings.Contains(line, "waited=") {
			t.Errorf("the run's log line does not say how long it waited: %s", line)
		}
	}
	sw.stop()
}

// TestCheckShowsMaxConcurrentRuns: `mom check` shows the limit, and refuses a bad one naming
// the key.
func TestCheckShowsMaxConcurrentRuns(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	config := func(runs string) {
		w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "maxConcurrentRuns": %s,
  "adapters": {"terminal": {"type": "cli"}},
}`, w.llm.URL(), runs))
	}
	config("3")
	res := w.mom("", "check", w.dir)
	if res.code != 0 || !strings.Contains(res.stdout, "runs:     at most 3 at once across channels\n") {
		t.Errorf("mom check exited %d:\n%s%s", res.code, res.stdout, res.stderr)
	}
	config("0")
	res = w.mom("", "check", w.dir)
	if res.code != 1 || !strings.Contains(res.stderr, "maxConcurrentRuns: must be at least 1, got 0") {
		t.Errorf("mom check exited %d with a limit of 0:\n%s%s", res.code, res.stdout, res.stderr)
	}
}
