package intake

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// base is when the test platform's first message was said; message n is said n seconds
// later, so ids and times agree.
var base = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func at(id int) time.Time { return base.Add(time.Duration(id) * time.Second) }

// said is a message on the test platform.
type said struct {
	id     int
	thread string // "" for the channel's own
	text   string
}

// platform is a platform's history as its API hands it out: pages of pageSize, a channel's
// own messages newest first, a thread's oldest first (as Slack does). Like a careless API, it
// counts the message it reads after as after itself. It records its calls.
type platform struct {
	pageSize int

	mu       sync.Mutex
	msgs     map[string][]said // channel → messages, oldest first
	threads  map[string][]string
	broken   map[string]error // channel or channel/thread → the error reading it gives
	calls    []string
	inflight int
	most     int           // the most Page calls in flight at once
	hold     chan struct{} // when set, Page waits for it to close
}

func newPlatform(pageSize int) *platform {
	return &platform{pageSize: pageSize, msgs: map[string][]said{}, threads: map[string][]string{}, broken: map[string]error{}}
}

// say adds messages ids from..to (inclusive) to channel, in thread.
func (p *platform) say(channel, thread string, from, to int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id := from; id <= to; id++ {
		p.msgs[channel] = append(p.msgs[channel], said{id, thread, fmt.Sprintf("%s%d", thread, id)})
	}
	if thread != "" && !slices.Contains(p.threads[channel], thread) {
		p.threads[channel] = append(p.threads[channel], thread)
	}
	slices.SortFunc(p.msgs[channel], func(x, y said) int { return x.id - y.id })
}

func (p *platform) open(_ context.Context, channel string) (History[said], error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.broken[channel+"/open"]; err != nil {
		return nil, err
	}
	return history{p, channel}, nil
}

func (p *platform) callsTo(place string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.calls {
		if c == place {
			n++
		}
	}
	return n
}

type history struct {
	p       *platform
	channel string
}

func (h history) Page(ctx context.Context, thread string, after chat.Message, cursor string) ([]said, string, error) {
	p := h.p
	p.mu.Lock()
	place := strings.TrimSuffix(h.channel+"/"+thread, "/")
	p.calls = append(p.calls, place)
	p.inflight++
	p.most = max(p.most, p.inflight)
	hold := p.hold
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.inflight--
		p.mu.Unlock()
	}()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, "", ctx.Err()
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.broken[place]; err != nil {
		return nil, "", err
	}
	from, _ := strconv.Atoi(after.ID)
	var list []said
	for _, m := range p.msgs[h.channel] {
		if m.id >= from && (m.thread == thread || thread == "" && m.text == "both") {
			list = append(list, m)
		}
	}
	if thread == "" {
		slices.Reverse(list) // newest first
	}
	off, _ := strconv.Atoi(cursor)
	end := min(off+p.pageSize, len(list))
	if end == len(list) {
		return list[off:end], "", nil
	}
	return list[off:end], strconv.Itoa(end), nil
}

func (h history) Threads(context.Context, []said, chat.Message) []string {
	h.p.mu.Lock()
	defer h.p.mu.Unlock()
	return slices.Clone(h.p.threads[h.channel])
}

func (h history) Stamp(m said) Stamp {
	return Stamp{Key: h.channel + "/" + strconv.Itoa(m.id), ID: strconv.Itoa(m.id), At: at(m.id)}
}

func (h history) Convert(_ context.Context, m said) (chat.Message, bool, error) {
	if strings.HasPrefix(m.text, "empty") {
		return chat.Message{}, false, nil
	}
	return chat.Message{ID: strconv.Itoa(m.id), ChannelID: h.channel, TS: at(m.id), Text: m.text, ReplyTo: m.thread}, true, nil
}

// world is an adapter "acme" on the test platform with a store of logs.
type world struct {
	p    *platform
	st   *store.Store
	gate *Gate
	logs *logBuffer
	hub  *hub
}

func newWorld(t *testing.T, pageSize int) *world {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g, logs := newTestGate()
	return &world{p: newPlatform(pageSize), st: st, gate: g, logs: logs, hub: newHub()}
}

// logged writes message id of the platform into the channel's log, as before mom stopped.
func (w *world) logged(t *testing.T, adapter, channel string, id int) {
	t.Helper()
	w.loggedLine(t, adapter, channel, chat.Message{ID: strconv.Itoa(id), TS: at(id), Text: "logged"})
}

// loggedLine writes m into the channel's log.
func (w *world) loggedLine(t *testing.T, adapter, channel string, m chat.Message) {
	t.Helper()
	ch, err := w.st.ChannelDir(adapter, channel)
	if err != nil {
		t.Fatal(err)
	}
	m.ChannelID = channel
	if _, err := ch.AppendLog(m); err != nil {
		t.Fatal(err)
	}
}

func (w *world) catchUp(b Bounds) *CatchUp[said] {
	return &CatchUp[said]{Gate: w.gate, Store: w.st, Bounds: b, Open: w.p.open}
}

// run catches up and waits until it is done.
func (w *world) run(b Bounds) {
	w.catchUp(b).Queue(context.Background(), w.hub)()
	w.gate.Lanes.Wait()
}

// texts lists what the hub got for a channel, in order.
func (w *world) texts(channel string) string {
	var out []string
	for _, m := range w.hub.All() {
		if m.ChannelID == channel {
			out = append(out, m.Text)
		}
	}
	return strings.Join(out, ",")
}

// span is "p(from)...,p(to)" as texts lists it.
func span(prefix string, from, to int) string {
	var out []string
	for id := from; id <= to; id++ {
		out = append(out, fmt.Sprintf("%s%d", prefix, id))
	}
	return strings.Join(out, ",")
}

// TestCatchUpPagesToItsBound: a channel that missed more than a page is read page after page
// and logged completely, oldest first; one that missed more than its bound keeps the newest,
// in order, and the log says what was left out; the pages bound holds with small pages.
func TestCatchUpPagesToItsBound(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 15)
	for _, ch := range []string{"C1", "C2", "C3"} {
		w.logged(t, "acme", ch, 1)
	}
	w.p.say("C1", "", 1, 251)
	w.p.say("C2", "", 1, 106)
	w.p.say("C3", "", 1, 1001)
	w.run(Bounds{Channel: Limit{Messages: 100, Pages: 100}})
	if got := w.texts("C1"); got != span("", 152, 251) {
		t.Errorf("C1 (250 missed, bound 100) got %s", got)
	}
	if got := w.texts("C2"); got != span("", 7, 106) {
		t.Errorf("C2 (105 missed, bound 100) got %s", got)
	}
	if n := w.p.callsTo("C2"); n != 7 {
		t.Errorf("C2 took %d pages of 15; want 7 for the newest 100", n)
	}
	if got := w.texts("C3"); got != span("", 902, 1001) {
		t.Errorf("C3 got %s", got)
	}
	if got := strings.Count(w.logs.String(), "more was said while mom was away"); got != 3 {
		t.Errorf("%d warnings about what was left out; want 3:\n%s", got, w.logs)
	}

	w = newWorld(t, 15)
	w.logged(t, "acme", "C1", 1)
	w.p.say("C1", "", 1, 101)
	w.run(Bounds{Channel: Limit{Pages: 3}})
	if got := w.texts("C1"); got != span("", 57, 101) {
		t.Errorf("with 3 pages of 15, C1 got %s", got)
	}
	w = newWorld(t, 15)
	w.logged(t, "acme", "C1", 1)
	w.p.say("C1", "", 2, 46)
	w.run(Bounds{Channel: Limit{Pages: 3}})
	if got := w.texts("C1"); got != span("", 2, 46) || strings.Contains(w.logs.String(), "more was said") {
		t.Errorf("45 missed in 3 full pages: got %s, log:\n%s", got, w.logs)
	}
}

// TestCatchUpOrdersAndDedups: replies in threads are merged with the channel's messages in
// the order they were said; a message the platform lists in the channel and in its thread is
// logged once; the newest logged message, and what was said before it, are left out, whether
// it is a platform message or mom's own line; channels of other adapters, channels without a
// log line, and a channel that cannot be opened do not stop the rest; a message with nothing
// to log is not counted.
func TestCatchUpOrdersAndDedups(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 2)
	w.loggedLine(t, "acme", "C1", chat.Message{ID: "mom-1", TS: at(5).Add(time.Second / 2), Text: "mom's answer"})
	w.logged(t, "acme", "C2", 2)
	w.logged(t, "acme", "GONE", 1)
	w.logged(t, "other", "C9", 1)
	empty, err := w.st.ChannelDir("acme", "EMPTY")
	if err == nil {
		err = empty.Create()
	}
	if err != nil {
		t.Fatal(err)
	}
	w.p.say("C1", "", 1, 6)
	w.p.say("C1", "T", 4, 4) // a reply said before mom's answer
	w.p.say("C1", "T", 7, 8)
	w.p.say("C1", "", 9, 9)
	w.p.msgs["C1"] = append(w.p.msgs["C1"], said{10, "T", "both"}) // also sent to the channel
	w.p.say("C1", "", 11, 11)
	w.p.msgs["C1"] = append(w.p.msgs["C1"], said{12, "", "empty"})
	w.p.say("C2", "", 1, 3)
	w.p.say("C9", "", 1, 3)
	w.p.broken["GONE/open"] = errors.New("channel not found")
	w.run(Bounds{})
	if got := w.texts("C1"); got != "6,T7,T8,9,both,11" {
		t.Errorf("C1 got %s", got)
	}
	if got := w.texts("C2"); got != "3" {
		t.Errorf("C2 got %s; want what came after the logged message only", got)
	}
	if n := len(w.hub.All()); n != 7 {
		t.Errorf("the hub got %d messages; want C1's 6 and C2's 1", n)
	}
	if n := w.p.callsTo("EMPTY") + w.p.callsTo("C9"); n != 0 {
		t.Errorf("%d reads of a channel without a log line or of another adapter", n)
	}
	logs := w.logs.String()
	for _, want := range []string{`msg="could not catch up on a channel" channel=GONE`, `msg="caught up on a channel" channel=C1 messages=6`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

// TestCatchUpThreadBounds: each thread keeps at most Bounds.Thread, all together at most
// Bounds.Threads, after which the remaining threads are not read; a thread that cannot be
// read is skipped with a warning and the others are read.
func TestCatchUpThreadBounds(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 2)
	w.logged(t, "acme", "C1", 1)
	w.p.say("C1", "", 1, 2)
	w.p.say("C1", "A", 3, 7)
	w.p.say("C1", "B", 8, 9)
	w.p.say("C1", "C", 10, 11)
	w.p.say("C1", "D", 12, 13)
	w.p.broken["C1/B"] = errors.New("thread_not_readable")
	w.run(Bounds{Thread: Limit{Messages: 3}, Threads: Limit{Messages: 5}})
	// A keeps its oldest 3 (threads page oldest first), B fails, C fills the budget, D is
	// not read.
	if got := w.texts("C1"); got != "2,A3,A4,A5,C10,C11" {
		t.Errorf("C1 got %s", got)
	}
	if n := w.p.callsTo("C1/D"); n != 0 {
		t.Errorf("D read %d times after the budget was spent", n)
	}
	logs := w.logs.String()
	for _, want := range []string{`msg="could not catch up on a thread" channel=C1 thread=B`, "more was said in a thread", "more was said in threads"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}

	w = newWorld(t, 1)
	w.logged(t, "acme", "C1", 1)
	w.p.say("C1", "A", 2, 4)
	w.p.say("C1", "B", 5, 6)
	w.run(Bounds{Threads: Limit{Pages: 4}})
	if got := w.texts("C1"); got != "A2,A3,A4,B5" {
		t.Errorf("with 4 pages for all threads, C1 got %s", got)
	}
}

// TestCatchUpThreadsWithinKept: when the channel's own history is cut at its bound, replies
// older than the oldest message kept are left out too with ThreadsWithinKept, and kept
// without it.
func TestCatchUpThreadsWithinKept(t *testing.T) {
	t.Parallel()
	for _, within := range []bool{true, false} {
		w := newWorld(t, 10)
		w.logged(t, "acme", "C1", 1)
		w.p.say("C1", "", 1, 5)
		w.p.say("C1", "T", 6, 7)
		w.p.say("C1", "", 8, 10)
		w.run(Bounds{Channel: Limit{Messages: 2}, ThreadsWithinKept: within})
		want := "T6,T7,9,10"
		if within {
			want = "9,10"
		}
		if got := w.texts("C1"); got != want {
			t.Errorf("ThreadsWithinKept %v: C1 got %s; want %s", within, got, want)
		}
	}
}

// TestCatchUpLiveWaitsBehind: a live message that comes while its channel is caught up waits
// behind the catch-up, so the log keeps the order things were said in: one the catch-up reads
// too is logged by the catch-up, in its place, before the newer ones it read; a message that
// comes both live and in the history is logged once; a live message of a channel with nothing
// to catch up on does not wait.
func TestCatchUpLiveWaitsBehind(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 10)
	w.logged(t, "acme", "C1", 1)
	w.p.say("C1", "", 1, 4)
	w.p.hold = make(chan struct{})
	ctx := context.Background()
	start := w.catchUp(Bounds{}).Queue(ctx, w.hub) // before the connection opens
	live := func(channel string, id int) {
		d := delivery(w.hub, channel, strconv.Itoa(id))
		d.Convert = func(context.Context) (chat.Message, bool, error) {
			return chat.Message{ID: strconv.Itoa(id), ChannelID: channel, TS: at(id), Text: "live" + strconv.Itoa(id)}, true, nil
		}
		w.gate.Take(ctx, w.hub, d)
	}
	live("C1", 3) // said while mom was away: it comes both ways, live first
	start()
	eventually(t, "the catch-up to read", func() bool { return w.p.callsTo("C1") > 0 })
	live("C1", 5)
	live("C2", 6)
	eventually(t, "C2's live message", func() bool { return w.texts("C2") == "live6" })
	if got := w.texts("C1"); got != "" {
		t.Errorf("C1 got %s while its catch-up was reading", got)
	}
	close(w.p.hold)
	w.gate.Lanes.Wait()
	live("C1", 4) // said just before the catch-up read, and delivered live after it
	w.gate.Lanes.Wait()
	if got := w.texts("C1"); got != "2,3,4,live5" {
		t.Errorf("C1 got %s; want what the catch-up read, in order and once each, then the live one", got)
	}
}

// TestCatchUpReadsAtOnceAtMost: channels are caught up in parallel, atOnce at a time and no
// more.
func TestCatchUpReadsAtOnceAtMost(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 10)
	for i := range 3 * atOnce {
		ch := fmt.Sprintf("C%02d", i)
		w.logged(t, "acme", ch, 1)
		w.p.say(ch, "", 1, 2)
	}
	w.p.hold = make(chan struct{})
	w.catchUp(Bounds{}).Queue(context.Background(), w.hub)()
	eventually(t, fmt.Sprintf("%d channels to be read at once", atOnce), func() bool {
		w.p.mu.Lock()
		defer w.p.mu.Unlock()
		return w.p.inflight == atOnce
	})
	close(w.p.hold)
	w.gate.Lanes.Wait()
	if w.p.most != atOnce {
		t.Errorf("%d channels were read at once; want at most %d", w.p.most, atOnce)
	}
	if n := len(w.hub.All()); n != 3*atOnce {
		t.Errorf("caught up %d messages; want one in each of %d channels", n, 3*atOnce)
	}
}

// TestCatchUpStopsAtAFailedLogWrite: when the hub cannot log a caught-up message, the
// channel's catch-up stops there, so its log has no hole, and the message is not remembered
// as handled: its live delivery is logged.
func TestCatchUpStopsAtAFailedLogWrite(t *testing.T) {
	t.Parallel()
	w := newWorld(t, 10)
	w.logged(t, "acme", "C1", 1)
	w.p.say("C1", "", 1, 4)
	w.hub.fail["3"] = 1
	w.run(Bounds{})
	if got := w.texts("C1"); got != "2" {
		t.Errorf("C1 got %s; want the catch-up to stop at the message it could not log", got)
	}
	w.gate.Take(context.Background(), w.hub, delivery(w.hub, "C1", "3"))
	w.gate.Lanes.Wait()
	if got := w.texts("C1"); got != "2,message 3" {
		t.Errorf("after the live delivery C1 got %s", got)
	}
	if !strings.Contains(w.logs.String(), `msg="could not catch up on a channel" channel=C1`) {
		t.Errorf("log:\n%s", w.logs)
	}
}
