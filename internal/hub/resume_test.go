package hub

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/store"
)

// editable is a platform whose runs the shared renderer draws (it has no Reply), on a Surface
// that can edit: what people see of interrupted runs' status messages.
type editable struct {
	bmu   sync.Mutex
	next  int
	texts map[string]string // message id → its text now
}

func (e *editable) Name() string                            { return "plat" }
func (e *editable) Start(context.Context, chat.Inbox) error { return nil }
func (e *editable) Stop(context.Context) error              { return nil }
func (e *editable) Directory() chat.Directory               { return chat.Directory{} }
func (e *editable) Surface() chat.Surface                   { return e }
func (e *editable) Dialect() chat.Dialect                   { return chat.Dialect{Edit: true, Delete: true} }

func (e *editable) Post(_ context.Context, at chat.Place, text string) (string, error) {
	e.bmu.Lock()
	defer e.bmu.Unlock()
	e.next++
	id := fmt.Sprintf("m%d", e.next)
	if e.texts == nil {
		e.texts = map[string]string{}
	}
	e.texts[id] = text
	return id, nil
}

func (e *editable) Edit(_ context.Context, _ chat.Place, id, text string) error {
	e.bmu.Lock()
	defer e.bmu.Unlock()
	if _, ok := e.texts[id]; !ok {
		return fmt.Errorf("message_not_found")
	}
	e.texts[id] = text
	return nil
}

func (e *editable) Delete(_ context.Context, _ chat.Place, id string) error {
	e.bmu.Lock()
	defer e.bmu.Unlock()
	delete(e.texts, id)
	return nil
}

func (e *editable) Upload(context.Context, chat.Place, chat.File) error { return nil }

func (e *editable) text(id string) string {
	e.bmu.Lock()
	defer e.bmu.Unlock()
	return e.texts[id]
}

// seedRun notes in channel's journal a run of trigger that started (attempt) and posted its
// status message on p, and returns the message's id.
func seedRun(t *testing.T, st *store.Store, p *editable, channel string, trigger chat.Message, attempt int) string {
	t.Helper()
	ch, err := st.ChannelDir("plat", channel)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := ch.AppendLog(trigger)
	if err != nil {
		t.Fatal(err)
	}
	at := chat.Place{ChannelID: channel}
	id, _ := p.Post(context.Background(), at, "_Thinking…_")
	for _, e := range []store.RunEntry{
		{Type: store.RunStart, Run: trigger.ID, Trigger: &trigger, Attempt: attempt, LogEnd: pos.End},
		{Type: store.RunStatus, Run: trigger.ID, Status: id, StatusAt: &at},
	} {
		if err := ch.JournalRun(e); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// TestResumeFinishesInterruptedRuns: at start-up a recent run is run again once in its old
// status message, one tried twice is given up, an old one is told to ask again, a wake-up's
// is marked interrupted; afterwards nothing is unfinished.
func TestResumeFinishesInterruptedRuns(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	p := &editable{}
	recent := func(ch, id string) chat.Message {
		m := mention(ch, id, id)
		m.TS = time.Now().Add(-3 * time.Minute)
		return m
	}
	old := recent("C3", "old")
	old.TS = time.Now().Add(-2 * time.Hour)
	wake := event("nightly")
	wake.ChannelID, wake.TS, wake.Metadata = "C4", time.Now(), map[string]any{chat.WakeUpKey: "nightly.json"}
	again := seedRun(t, st, p, "C1", recent("C1", "again"), 1)
	twice := seedRun(t, st, p, "C2", recent("C2", "twice"), 2)
	stale := seedRun(t, st, p, "C3", old, 1)
	woke := seedRun(t, st, p, "C4", wake, 1)

	stub := newStubRunner(t)
	r := startHub(t, st, stub, config.AdapterEntry{Groups: open}, p, &platform{}, Options{ResumeWithin: 30 * time.Minute})
	r.hub.Resume(context.Background(), "plat")
	r.idle(t)

	reqs := stub.requests()
	if len(reqs) != 1 || reqs[0].Trigger.ID != "again" || !reqs[0].Waited || reqs[0].Trigger.ChannelID != "C1" {
		t.Fatalf("runs %+v; want only C1's trigger run again, marked as waited", reqs)
	}
	for id, want := range map[string]string{again: "_(no answer)_", twice: gaveUpStatus, stale: askAgainStatus, woke: wakeUpStopped} {
		if got := p.text(id); got != want {
			t.Errorf("status message %s = %q, want %q", id, got, want)
		}
	}
	if p.next != 4 {
		t.Errorf("%d messages posted; the run started again should have reused its status message", p.next)
	}
	if left, err := st.UnfinishedRuns(time.Time{}, time.Time{}); err != nil || len(left) != 0 {
		t.Errorf("unfinished after resuming: %+v, %v", left, err)
	}
}

// TestResumeCountsAttempts: a run started again and interrupted again is not run a third time.
func TestResumeCountsAttempts(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	p := &editable{}
	m := mention("C1", "q", "q")
	m.TS = time.Now().Add(-time.Minute)
	status := seedRun(t, st, p, "C1", m, 1)

	// The first restart runs it again; mom is stopped during that run, which leaves it
	// unfinished (as a kill would).
	stub := newStubRunner(t)
	release := make(chan struct{})
	stub.holdUntil(release)
	h := New(st, stub, nil, Options{ResumeWithin: time.Hour})
	if err := h.Register(p, config.AdapterEntry{Name: "plat", Type: "test", Groups: open}); err != nil {
		t.Fatal(err)
	}
	h.Resume(context.Background(), "plat")
	stub.waitRuns(t, 1)
	if err := h.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	left, err := st.UnfinishedRuns(time.Time{}, time.Time{})
	if err != nil || len(left) != 1 || left[0].Start.Attempt != 2 || left[0].Status != status {
		t.Fatalf("after a shutdown during the second attempt: %+v, %v", left, err)
	}

	// The next restart gives up.
	stub2 := newStubRunner(t)
	r := startHub(t, st, stub2, config.AdapterEntry{Groups: open}, p, &platform{}, Options{ResumeWithin: time.Hour})
	r.hub.Resume(context.Background(), "plat")
	r.idle(t)
	if n := len(stub2.requests()); n != 0 {
		t.Errorf("%d runs after two attempts, want none", n)
	}
	if got := p.text(status); got != gaveUpStatus {
		t.Errorf("status = %q, want %q", got, gaveUpStatus)
	}
}

// TestLateMentionsAreAnsweredOnce: mentions sent while mom was down are run when recent, in
// order, whatever the busy policy, once even when the platform sends them again; old ones
// and a late `stop` are only logged.
func TestLateMentionsAreAnsweredOnce(t *testing.T) {
	t.Parallel()
	r := newHubRigLimited(t, config.AdapterEntry{Busy: config.BusyReject}, Options{ResumeWithin: 30 * time.Minute})
	release := make(chan struct{})
	r.runner.holdUntil(release)
	late := func(id string, ago time.Duration) chat.Message {
		m := mention("C1", id, id)
		m.TS = time.Now().Add(-ago)
		return m
	}
	r.receive(t, late("old", 2*time.Hour))
	r.receive(t, late("first", 5*time.Minute))
	r.receive(t, late("second", 4*time.Minute))
	stop := late("stop", 3*time.Minute)
	stop.Text = "stop"
	r.receive(t, stop)
	r.receive(t, late("first", 5*time.Minute)) // redelivered
	close(release)
	r.idle(t)
	var got []string
	for _, req := range r.runner.requests() {
		if !req.Waited {
			t.Errorf("run of %s not marked as waited", req.Trigger.ID)
		}
		got = append(got, req.Trigger.ID)
	}
	if fmt.Sprint(got) != "[first second]" {
		t.Errorf("runs %v, want [first second]", got)
	}
	if posts, _ := r.plat.snapshot(); len(posts) != 0 {
		t.Errorf("notices %q; late mentions queue without a word", posts)
	}
}

// TestTriggersWaitingAtShutdownAreAnsweredAfter: a run and the trigger queued behind it when
// mom stops are both done by the next mom, in their order, once each.
func TestTriggersWaitingAtShutdownAreAnsweredAfter(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	p := &editable{}
	stub := newStubRunner(t)
	stub.holdUntil(make(chan struct{}))
	h := New(st, stub, nil, Options{ResumeWithin: time.Hour})
	if err := h.Register(p, config.AdapterEntry{Name: "plat", Type: "test", Groups: open, Busy: config.BusyQueue}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"first", "second"} {
		if err := h.Receive(context.Background(), "plat", mention("C1", id, id)); err != nil {
			t.Fatal(err)
		}
	}
	stub.waitRuns(t, 1)
	if err := h.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	stub2 := newStubRunner(t)
	r := startHub(t, st, stub2, config.AdapterEntry{Groups: open, Busy: config.BusyQueue}, p, &platform{}, Options{ResumeWithin: time.Hour})
	r.hub.Resume(context.Background(), "plat")
	r.idle(t)
	var got []string
	for _, req := range stub2.requests() {
		got = append(got, req.Trigger.ID)
	}
	if fmt.Sprint(got) != "[first second]" {
		t.Errorf("runs after the restart %v, want [first second]", got)
	}
	if left, err := st.UnfinishedRuns(time.Time{}, time.Time{}); err != nil || len(left) != 0 {
		t.Errorf("unfinished: %+v, %v", left, err)
	}
}
