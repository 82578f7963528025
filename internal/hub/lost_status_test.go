package hub

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/store"
)

// findable is an editable platform whose bot can read back what it posted (PostFinder).
type findable struct {
	*editable
	mu     sync.Mutex
	places map[string]chat.Place // message id → where it was posted
	asked  int                   // FindPost calls
}

func (f *findable) Surface() chat.Surface { return f }

func (f *findable) Post(ctx context.Context, at chat.Place, text string) (string, error) {
	id, err := f.editable.Post(ctx, at, text)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.places == nil {
		f.places = map[string]chat.Place{}
	}
	f.places[id] = at
	return id, err
}

func (f *findable) FindPost(_ context.Context, at chat.Place, _, _ time.Time, text string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked++
	for id, p := range f.places {
		if p.ChannelID == at.ChannelID && p.ThreadOf == at.ThreadOf && f.text(id) == text {
			return id, nil
		}
	}
	return "", nil
}

// seedLost notes in channel's journal a run of trigger that started, and, when posted is set,
// posts its status message on f without noting it: mom was killed in between.
func seedLost(t *testing.T, st *store.Store, f *findable, channel string, trigger chat.Message, posted bool) string {
	t.Helper()
	ch, err := st.ChannelDir("plat", channel)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := ch.AppendLog(trigger)
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.JournalRun(store.RunEntry{Type: store.RunStart, Run: trigger.ID, Trigger: &trigger, Attempt: 1, LogEnd: pos.End}); err != nil {
		t.Fatal(err)
	}
	if !posted {
		return ""
	}
	id, _ := f.Post(context.Background(), chat.Place{ChannelID: channel}, "_Thinking…_")
	return id
}

// TestResumeFindsStatusMessagesTheJournalDoesNotName: a status message posted just before mom
// was killed, and not yet noted, is found and finished like a noted one: the run started
// again writes in it, an old one is told to ask again; where none was posted, the run posts
// one.
func TestResumeFindsStatusMessagesTheJournalDoesNotName(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	f := &findable{editable: &editable{}}
	recent := func(ch, id string, ago time.Duration) chat.Message {
		m := mention(ch, id, id)
		m.TS = time.Now().Add(-ago)
		return m
	}
	again := seedLost(t, st, f, "C1", recent("C1", "again", time.Minute), true)
	stale := seedLost(t, st, f, "C2", recent("C2", "stale", 2*time.Hour), true)
	seedLost(t, st, f, "C3", recent("C3", "unposted", time.Minute), false)

	stub := newStubRunner(t)
	r := startHub(t, st, stub, config.AdapterEntry{Groups: open}, f, &platform{}, Options{ResumeWithin: 30 * time.Minute})
	r.hub.Resume(context.Background(), "plat")
	r.idle(t)

	if n := len(stub.requests()); n != 2 {
		t.Errorf("%d runs, want C1's and C3's started again", n)
	}
	for id, want := range map[string]string{again: "_(no answer)_", stale: askAgainStatus} {
		if got := f.text(id); got != want {
			t.Errorf("status message %s = %q, want %q", id, got, want)
		}
	}
	if f.next != 3 {
		t.Errorf("%d messages posted, want one new, for the run whose status was never posted", f.next)
	}
	if f.asked != 3 {
		t.Errorf("FindPost asked %d times, want once per run without a noted status", f.asked)
	}
	if left, err := st.UnfinishedRuns(time.Time{}, time.Time{}); err != nil || len(left) != 0 {
		t.Errorf("unfinished after resuming: %+v, %v", left, err)
	}
}
