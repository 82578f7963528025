package hub

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// gatedRuns holds every run until the test releases it, and counts the runs in flight. A run
// counts from its start until the test releases it, and is released before it can end: a run
// holds its slot until it has ended, so a run over the limit would start while the count is
// at the limit, and peak shows it.
type gatedRuns struct {
	mu       sync.Mutex
	holds    map[string]chan struct{} // job label → its held run
	order    []string                 // job labels in order of arrival
	seen     int                      // how many of order waitArrived has checked
	inFlight int
	peak     int
}

// jobLabel finds the label of the job a trigger asks for: its last "job-…".
var jobLabel = regexp.MustCompile(`job-[A-Za-z0-9]+`)

func gate(t *testing.T, r *hubRig) *gatedRuns {
	g := &gatedRuns{holds: map[string]chan struct{}{}}
	r.runner.holdWith(func(req agent.Request) <-chan struct{} {
		labels := jobLabel.FindAllString(req.Trigger.Text, -1)
		if len(labels) == 0 {
			return nil
		}
		label := labels[len(labels)-1]
		hold := make(chan struct{})
		g.mu.Lock()
		g.holds[label] = hold
		g.order = append(g.order, label)
		g.inFlight++
		g.peak = max(g.peak, g.inFlight)
		g.mu.Unlock()
		return hold
	})
	t.Cleanup(func() { g.releaseAll() })
	return g
}

// waitArrived waits until the next runs the test has not seen yet start, and fails unless they
// are the ones for labels (in any order).
func (g *gatedRuns) waitArrived(t *testing.T, labels ...string) {
	t.Helper()
	poll(t, fmt.Sprintf("runs for %v", labels), func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.order) >= g.seen+len(labels)
	})
	g.mu.Lock()
	defer g.mu.Unlock()
	got := g.order[g.seen : g.seen+len(labels)]
	if !sameSet(got, labels) {
		t.Fatalf("runs started for %v, want %v next (all so far: %v)", got, labels, g.order)
	}
	g.seen += len(labels)
}

// release lets label's run end.
func (g *gatedRuns) release(label string) {
	g.mu.Lock()
	hold, ok := g.holds[label]
	if ok {
		delete(g.holds, label)
		g.inFlight--
	}
	g.mu.Unlock()
	if ok {
		close(hold)
	}
}

func (g *gatedRuns) releaseAll() {
	g.mu.Lock()
	var labels []string
	for l := range g.holds {
		labels = append(labels, l)
	}
	g.mu.Unlock()
	for _, l := range labels {
		g.release(l)
	}
}

func (g *gatedRuns) arrivals() (order []string, peak int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.order), g.peak
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// poll waits until cond holds; the deadline only guards against a hang.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitInLine waits until n runs wait for a slot.
func (r *hubRig) waitInLine(t *testing.T, n int) {
	t.Helper()
	poll(t, fmt.Sprintf("%d runs to wait for a slot", n), func() bool {
		_, waiting := r.hub.slots.load()
		return waiting == n
	})
}

// mention is a person's mention of mom in channel, asking for job label.
func mention(channel, id, label string) chat.Message {
	m := msg(id, "bea", "please do "+label, true, false)
	m.ChannelID = channel
	return m
}

// event is an immediate event's trigger asking for job label.
func event(label string) chat.Message {
	return chat.Message{ID: "ev-" + label, Sender: chat.User{ID: "EVENT", Username: "EVENT"},
		Text: "[EVENT:" + label + ".json:immediate] " + label}
}

// TestRunsTakeTurnsAcrossChannels: with one slot, a channel with several queued runs gets one
// run per turn; channels that started waiting earlier go first.
func TestRunsTakeTurnsAcrossChannels(t *testing.T) {
	t.Parallel()
	r := newHubRigLimited(t, config.AdapterEntry{Busy: config.BusyQueue}, Options{MaxConcurrentRuns: 1})
	g := gate(t, r)
	r.receive(t, mention("A", "1", "job-A1"))
	g.waitArrived(t, "job-A1")
	r.receive(t, mention("A", "2", "job-A2")) // queued behind A1 in its channel
	r.receive(t, mention("A", "3", "job-A3"))
	r.receive(t, mention("B", "4", "job-B1"))
	r.waitInLine(t, 1)
	r.receive(t, mention("C", "5", "job-C1"))
	r.waitInLine(t, 2)

	for _, next := range []string{"job-B1", "job-C1", "job-A2", "job-A3"} {
		order, _ := g.arrivals()
		g.release(order[len(order)-1])
		g.waitArrived(t, next)
	}
	g.release("job-A3")
	r.idle(t)
	order, peak := g.arrivals()
	if want := []string{"job-A1", "job-B1", "job-C1", "job-A2", "job-A3"}; !slices.Equal(order, want) {
		t.Errorf("runs went in the order %v, want %v", order, want)
	}
	if peak != 1 {
		t.Errorf("%d runs were in flight at once with one slot", peak)
	}
	logs := r.logs.String()
	if n := strings.Count(logs, "run finished"); n != 5 {
		t.Fatalf("%d runs finished, want 5:\n%s", n, logs)
	}
	for line := range strings.Lines(logs) {
		if strings.Contains(line, "run finished") && !strings.Contains(line, " waited=") {
			t.Errorf("the run's log line does not say how long it waited: %s", line)
		}
	}
}

// TestEventsLeaveSlotsForPeople: however many events wait, events hold at most their share of
// the slots, and people's messages get the others at once.
func TestEventsLeaveSlotsForPeople(t *testing.T) {
	t.Parallel()
	r := newHubRigLimited(t, config.AdapterEntry{}, Options{MaxConcurrentRuns: 2})
	g := gate(t, r)
	var mu sync.Mutex
	done := 0
	for i := range 6 {
		label := fmt.Sprintf("job-E%d", i)
		if err := r.hub.Wake("plat", "E"+label, event(label), func() { mu.Lock(); done++; mu.Unlock() }); err != nil {
			t.Fatal(err)
		}
	}
	g.waitArrived(t, "job-E0")
	r.waitInLine(t, 5) // the other events wait: the second slot is not for them
	r.receive(t, mention("P", "1", "job-P1"))
	g.waitArrived(t, "job-P1")
	g.release("job-P1")
	poll(t, "the person's run to finish", func() bool { return strings.Contains(r.logs.String(), "run finished") })
	r.receive(t, mention("P", "2", "job-P2")) // the events still wait; the person goes first again
	g.waitArrived(t, "job-P2")
	g.drain(t, r, 8)

	order, peak := g.arrivals()
	if peak > 2 {
		t.Errorf("%d runs in flight at once; the limit is 2", peak)
	}
	if want := []string{"job-E0", "job-P1", "job-P2", "job-E1", "job-E2", "job-E3", "job-E4", "job-E5"}; !slices.Equal(order, want) {
		t.Errorf("runs went in the order %v, want %v", order, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if done != 6 {
		t.Errorf("done was called for %d events, want 6", done)
	}
}

// drain lets every held run end as it starts until total runs have started, then waits
// for the hub to be idle.
func (g *gatedRuns) drain(t *testing.T, r *hubRig, total int) {
	t.Helper()
	poll(t, fmt.Sprintf("%d runs", total), func() bool {
		g.releaseAll()
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.order) >= total
	})
	g.releaseAll()
	r.idle(t)
}

// TestStopDropsARunWaitingForASlot: `stop` in a channel whose run waits for a slot drops the
// run before it starts, and an event dropped that way counts as handled.
func TestStopDropsARunWaitingForASlot(t *testing.T) {
	t.Parallel()
	r := newHubRigLimited(t, config.AdapterEntry{}, Options{MaxConcurrentRuns: 1})
	g := gate(t, r)
	r.receive(t, mention("A", "1", "job-A1"))
	g.waitArrived(t, "job-A1")
	r.receive(t, mention("B", "2", "job-B1"))
	var mu sync.Mutex
	done := 0
	if err := r.hub.Wake("plat", "E", event("job-E1"), func() { mu.Lock(); done++; mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	r.receive(t, mention("C", "3", "job-C1"))
	r.waitInLine(t, 3)

	stop := func(channel, id string) {
		m := msg(id, "bea", "stop", true, false)
		m.ChannelID = channel
		r.receive(t, m)
	}
	stop("B", "4")
	stop("E", "5")
	r.waitInLine(t, 1) // C's run still waits
	g.release("job-A1")
	g.waitArrived(t, "job-C1")
	g.release("job-C1")
	r.idle(t)
	r.hub.Shutdown(context.Background()) // wait for the notices

	order, _ := g.arrivals()
	if want := []string{"job-A1", "job-C1"}; !slices.Equal(order, want) {
		t.Errorf("runs went in the order %v, want %v: the stopped ones must not run", order, want)
	}
	mu.Lock()
	if done != 1 {
		t.Errorf("the stopped event's done was called %d times, want once", done)
	}
	mu.Unlock()
	posts, _ := r.plat.snapshot()
	for _, want := range []string{"B: _Stopped before it started._", "E: _Stopped before it started._"} {
		if !slices.Contains(posts, want) {
			t.Errorf("no %q among the posts %q", want, posts)
		}
	}
	if n := strings.Count(r.logs.String(), "run stopped before it started"); n != 2 {
		t.Errorf("%d runs logged as stopped before they started, want 2:\n%s", n, r.logs)
	}
}

// TestShutdownDropsRunsWaitingForASlot: shutdown does not wait for runs that have no slot; an
// event among them stays for the next start (its done is not called).
func TestShutdownDropsRunsWaitingForASlot(t *testing.T) {
	t.Parallel()
	r := newHubRigLimited(t, config.AdapterEntry{}, Options{MaxConcurrentRuns: 1})
	g := gate(t, r)
	r.receive(t, mention("A", "1", "job-A1"))
	g.waitArrived(t, "job-A1")
	r.receive(t, mention("B", "2", "job-B1"))
	var mu sync.Mutex
	done := 0
	if err := r.hub.Wake("plat", "E", event("job-E1"), func() { mu.Lock(); done++; mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	r.waitInLine(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.hub.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if order, _ := g.arrivals(); !slices.Equal(order, []string{"job-A1"}) {
		t.Errorf("runs started for %v; only the running job should have", order)
	}
	mu.Lock()
	defer mu.Unlock()
	if done != 0 {
		t.Errorf("done was called for an event that never ran")
	}
	if running, waiting := r.hub.slots.load(); running != 0 || waiting != 0 {
		t.Errorf("after shutdown %d slots are held and %d runs wait", running, waiting)
	}
}

// TestAWaitingPersonIsToldOnce: a person whose run waits longer than WaitNotice hears so once;
// a run that gets its slot at once, and an event, say nothing.
func TestAWaitingPersonIsToldOnce(t *testing.T) {
	t.Parallel()
	r := newHubRigLimited(t, config.AdapterEntry{}, Options{MaxConcurrentRuns: 1, WaitNotice: time.Nanosecond})
	g := gate(t, r)
	r.receive(t, mention("A", "1", "job-A1"))
	g.waitArrived(t, "job-A1")
	if err := r.hub.Wake("plat", "E", event("job-E1"), nil); err != nil {
		t.Fatal(err)
	}
	r.receive(t, mention("B", "2", "job-B1"))
	waiting := "B: _Busy in other conversations; I'll start on this as soon as I can. Say `@mom stop` to cancel._"
	poll(t, "the notice that B's run waits", func() bool {
		posts, _ := r.plat.snapshot()
		return slices.Contains(posts, waiting)
	})
	g.drain(t, r, 3)
	r.hub.Shutdown(context.Background()) // wait for the notices
	posts, _ := r.plat.snapshot()
	told := 0
	for _, p := range posts {
		switch {
		case p == waiting:
			told++
		case strings.Contains(p, "Busy in other conversations"):
			t.Errorf("a run that did not wait, or an event, got a notice: %q", p)
		}
	}
	if told != 1 {
		t.Errorf("B was told %d times that its run waits, want once: %q", told, posts)
	}
}

// TestBusyPoliciesApplyToARunWaitingForASlot: while a channel's run waits for a slot, another
// trigger in that channel meets the busy policy as if the run were going.
func TestBusyPoliciesApplyToARunWaitingForASlot(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		busy   config.BusyPolicy
		notice string
		runs   []string
	}{
		{config.BusyReject, "B: _Already working. Say `@mom stop` to cancel._", []string{"job-A1", "job-B1"}},
		{config.BusyQueue, "B: _Queued: I'll get to this when I'm done._", []string{"job-A1", "job-B1", "job-B2"}},
		// A run that has not started cannot be steered: the message is queued instead.
		{config.BusySteer, "B: _Queued: I'll get to this when I'm done._", []string{"job-A1", "job-B1", "job-B2"}},
	} {
		t.Run(string(tt.busy), func(t *testing.T) {
			t.Parallel()
			r := newHubRigLimited(t, config.AdapterEntry{Busy: tt.busy}, Options{MaxConcurrentRuns: 1})
			g := gate(t, r)
			r.receive(t, mention("A", "1", "job-A1"))
			g.waitArrived(t, "job-A1")
			r.receive(t, mention("B", "2", "job-B1"))
			r.waitInLine(t, 1)
			r.receive(t, mention("B", "3", "job-B2"))
			poll(t, "the busy notice", func() bool {
				posts, _ := r.plat.snapshot()
				return slices.Contains(posts, tt.notice)
			})
			g.drain(t, r, len(tt.runs))
			if order, _ := g.arrivals(); !slices.Equal(order, tt.runs) {
				t.Errorf("runs went in the order %v, want %v", order, tt.runs)
			}
		})
	}
}

func TestEventShare(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]int{1: 1, 2: 1, 3: 2, 4: 3, 5: 3, 8: 6, 32: 24, 64: 48} {
		if got := wakeUpShare(n); got != want {
			t.Errorf("events may hold %d of %d slots, want %d", got, n, want)
		}
	}
}
