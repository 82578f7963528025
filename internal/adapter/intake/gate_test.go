package intake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/chat/chattest"
)

// wait is how long a test waits for something that must happen; reaching it is a failure,
// never a measurement.
const wait = 10 * time.Second

// eventually waits until cond holds, failing the test with what after wait.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// hub stands in for mom's hub: it records what it logged, in order, with what happened
// around it (acks, nacks) in the same journal, and can be told to fail or hold a message.
type hub struct {
	chattest.Inbox
	mu      sync.Mutex
	journal []string
	fail    map[string]int           // message id → how many more Receives fail
	hold    map[string]chan struct{} // message id → Receive waits until it is closed
	entered map[string]int           // message id → Receives started
}

func newHub() *hub {
	return &hub{fail: map[string]int{}, hold: map[string]chan struct{}{}, entered: map[string]int{}}
}

var errDiskFull = errors.New("no space left on device")

func (h *hub) Receive(ctx context.Context, adapter string, m chat.Message) error {
	h.mu.Lock()
	h.entered[m.ID]++
	hold := h.hold[m.ID]
	h.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail[m.ID] > 0 {
		h.fail[m.ID]--
		return errDiskFull
	}
	h.journal = append(h.journal, "logged "+m.ID)
	return h.Inbox.Receive(ctx, adapter, m)
}

// note adds an event to the journal.
func (h *hub) note(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.journal = append(h.journal, s)
}

func (h *hub) events() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.journal...)
}

func (h *hub) started(id string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.entered[id]
}

// logBuffer collects a logger's output for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTestGate() (*Gate, *logBuffer) {
	var lb logBuffer
	return NewGate("acme", "Test", slog.New(slog.NewTextHandler(&lb, nil))), &lb
}

// delivery is one delivery of message id in channel, noting its ack or nack in h's journal.
func delivery(h *hub, channel, id string) Delivery {
	return Delivery{
		Key: channel + "/" + id, Lane: channel,
		Convert: func(context.Context) (chat.Message, bool, error) {
			return chat.Message{ID: id, ChannelID: channel, Text: "message " + id}, true, nil
		},
		Ack:  func() { h.note("acked " + id) },
		Nack: func() { h.note("nacked " + id) },
	}
}

// TestGateAcksOnlyAfterTheLog: while the hub is still writing a message, the delivery is
// not acknowledged; it is once the write returned, and never before.
func TestGateAcksOnlyAfterTheLog(t *testing.T) {
	t.Parallel()
	g, _ := newTestGate()
	h := newHub()
	release := make(chan struct{})
	h.hold["1"] = release
	g.Take(context.Background(), h, delivery(h, "C1", "1"))
	eventually(t, "the hub to start logging", func() bool { return h.started("1") == 1 })
	if got := h.events(); len(got) != 0 {
		t.Fatalf("before the log write returned: %v; want nothing acknowledged", got)
	}
	close(release)
	g.Lanes.Wait()
	if got := fmt.Sprint(h.events()); got != "[logged 1 acked 1]" {
		t.Errorf("journal %s; want the message logged, then acknowledged", got)
	}
}

// TestGateRedeliversWhenLoggingFailed: a message the hub could not log is not acknowledged
// (nacked) and forgotten, so the platform's next delivery is logged; a delivery after that is
// acknowledged at once and not logged again.
func TestGateRedeliversWhenLoggingFailed(t *testing.T) {
	t.Parallel()
	g, logs := newTestGate()
	h := newHub()
	h.fail["1"] = 1
	ctx := context.Background()
	for range 3 {
		g.Take(ctx, h, delivery(h, "C1", "1"))
		g.Lanes.Wait()
	}
	if got := fmt.Sprint(h.events()); got != "[nacked 1 logged 1 acked 1 acked 1]" {
		t.Errorf("journal %s; want the failed delivery nacked, the redelivery logged and acked, the third acked only", got)
	}
	if n := len(h.All()); n != 1 {
		t.Errorf("logged %d times; want once", n)
	}
	if !strings.Contains(logs.String(), "could not log a Test message; Test will deliver it again") {
		t.Errorf("log %q; want the failure reported", logs.String())
	}
}

// TestGateRedeliveryWhileHandled: a redelivery that comes while the first delivery is being
// logged waits for it: both are acknowledged once it is logged, logged once; or both are
// nacked when it could not be logged.
func TestGateRedeliveryWhileHandled(t *testing.T) {
	t.Parallel()
	for _, fails := range []bool{false, true} {
		t.Run(fmt.Sprintf("fails=%v", fails), func(t *testing.T) {
			t.Parallel()
			g, _ := newTestGate()
			h := newHub()
			release := make(chan struct{})
			h.hold["1"] = release
			if fails {
				h.fail["1"] = 1
			}
			ctx := context.Background()
			g.Take(ctx, h, delivery(h, "C1", "1"))
			eventually(t, "the first delivery to reach the hub", func() bool { return h.started("1") == 1 })
			g.Take(ctx, h, delivery(h, "C1", "1"))
			close(release)
			g.Lanes.Wait()
			want := "[logged 1 acked 1 acked 1]"
			if fails {
				want = "[nacked 1 nacked 1]"
			}
			if got := fmt.Sprint(h.events()); got != want {
				t.Errorf("journal %s; want %s", got, want)
			}
			if n := h.started("1"); n != 1 {
				t.Errorf("the hub was handed the message %d times; want once", n)
			}
		})
	}
}

// TestGateKeepsOrderWithinAChannel: messages of one channel reach the hub in the order they
// were delivered, one at a time, however slow one of them is; channels do not wait for each
// other.
func TestGateKeepsOrderWithinAChannel(t *testing.T) {
	t.Parallel()
	g, _ := newTestGate()
	h := newHub()
	slow := make(chan struct{})
	h.hold["C1-0"] = slow // the first of C1 is held until C2 is all logged
	ctx := context.Background()
	for i := range 50 {
		for _, ch := range []string{"C1", "C2"} {
			g.Take(ctx, h, delivery(h, ch, fmt.Sprintf("%s-%d", ch, i)))
		}
	}
	eventually(t, "C2 to be logged while C1 waits", func() bool {
		n := 0
		for _, m := range h.All() {
			if m.ChannelID == "C2" {
				n++
			}
		}
		return n == 50
	})
	close(slow)
	g.Lanes.Wait()
	next := map[string]int{}
	for _, m := range h.All() {
		if want := fmt.Sprintf("%s-%d", m.ChannelID, next[m.ChannelID]); m.ID != want {
			t.Fatalf("%s reached the hub where %s was due", m.ID, want)
		}
		next[m.ChannelID]++
	}
	if next["C1"] != 50 || next["C2"] != 50 {
		t.Errorf("logged %v; want 50 of each", next)
	}
}

// TestGateCrashBetweenLogAndAck: when mom dies after the hub logged a message but before the
// platform got the acknowledgement, the acknowledgement never went out, so the platform
// delivers the message again to the next mom, whose gate hands it to the hub once more (the
// hub, finding it in the log, does not log it twice). Nothing acknowledged is lost.
func TestGateCrashBetweenLogAndAck(t *testing.T) {
	t.Parallel()
	g, _ := newTestGate()
	h := newHub()
	d := delivery(h, "C1", "1")
	d.Ack = func() {} // mom died here: the acknowledgement never went out
	g.Take(context.Background(), h, d)
	g.Lanes.Wait()

	restarted, _ := newTestGate()
	restarted.Take(context.Background(), h, delivery(h, "C1", "1"))
	restarted.Lanes.Wait()
	if got := fmt.Sprint(h.events()); got != "[logged 1 logged 1 acked 1]" {
		t.Errorf("journal %s; want the redelivery after the crash handed to the hub again and acknowledged", got)
	}
}

// TestGateHeldBackAndEmpty: a message the adapter holds back is nacked without a warning and
// taken afresh next time; a message with nothing to log is acknowledged without reaching the
// hub.
func TestGateHeldBackAndEmpty(t *testing.T) {
	t.Parallel()
	g, logs := newTestGate()
	h := newHub()
	ctx := context.Background()
	held := delivery(h, "C1", "1")
	held.Convert = func(context.Context) (chat.Message, bool, error) { return chat.Message{}, false, ErrHeldBack }
	g.Take(ctx, h, held)
	g.Lanes.Wait()
	g.Take(ctx, h, delivery(h, "C1", "1"))
	empty := delivery(h, "C1", "2")
	empty.Convert = func(context.Context) (chat.Message, bool, error) { return chat.Message{}, false, nil }
	g.Take(ctx, h, empty)
	g.Lanes.Wait()
	if got := fmt.Sprint(h.events()); got != "[nacked 1 logged 1 acked 1 acked 2]" {
		t.Errorf("journal %s; want the held-back delivery nacked, the next logged, the empty one acked", got)
	}
	if s := logs.String(); s != "" {
		t.Errorf("log %q; holding back is no failure", s)
	}
}
