package agent

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
)

// timedProvider measures how long the real provider takes, so the benchmark can report what
// the harness itself costs: everything in a turn that is not waiting for the model.
type timedProvider struct {
	llm.Provider
	spent time.Duration
}

func (p *timedProvider) Stream(ctx context.Context, req *llm.Request, on func(llm.StreamEvent)) (*llm.Message, error) {
	start := time.Now()
	defer func() { p.spent += time.Since(start) }()
	return p.Provider.Stream(ctx, req, on)
}

// BenchmarkTurn answers one message per iteration against an instant fake model (one model
// call, no tools). A channel takes 100 turns before the next one starts, so contexts stay the
// size of a real conversation's (about 100 entries on average). It reports the harness's own
// time per turn (log sync, prompt, context.jsonl and log.jsonl appends with the end-of-run
// fsync, events) as p50 and p90, next to the whole turn's ns/op.
func BenchmarkTurn(b *testing.B) { benchTurn(b, 0) }

// BenchmarkTurn10k is BenchmarkTurn in one long-lived channel whose context.jsonl already
// holds 10,000 entries (short ones, so that the context still fits the model's window and no
// compaction starts).
func BenchmarkTurn10k(b *testing.B) { benchTurn(b, 10_000) }

// benchTurn runs BenchmarkTurn; with prefill > 0 every turn is in one channel whose session
// starts with prefill entries.
func benchTurn(b *testing.B, prefill int) {
	srv := fakellm.New(fakellm.WithAPIKey("k"))
	defer srv.Close()
	srv.Default(fakellm.Reply{Text: "ok", ChunkSize: 64})
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	exec, _ := sandbox.NewHost(st.Workspace())
	prov := &timedProvider{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL()})}
	ag := New(st, Options{Provider: prov, Model: llm.Lookup("anthropic", "claude-sonnet-4-5"), Exec: exec, Tools: tools.Builtin()})
	users := make([]chat.User, 50)
	for i := range users {
		users[i] = chat.User{ID: fmt.Sprint("U", i), Username: fmt.Sprint("user", i)}
	}
	cc := ChannelContext{AdapterType: "bench", Users: users, Channels: []chat.Channel{{ID: "C1", Name: "general"}}}
	var ch *store.ChannelDir
	if prefill > 0 {
		ch = prefilledChannel(b, st, prefill)
	}

	harness := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if prefill == 0 && i%100 == 0 {
			if ch, err = st.ChannelDir("bench", fmt.Sprint("C", i)); err != nil {
				b.Fatal(err)
			}
		}
		start := time.Now()
		prov.spent = 0
		m := chat.Message{ID: fmt.Sprint(i), ChannelID: ch.ID(), TS: time.Now(), Sender: users[i%len(users)], Text: "hello", IsMention: true}
		pos, err := ch.AppendLog(m)
		if err != nil {
			b.Fatal(err)
		}
		res := ag.HandleMessage(context.Background(), Request{ChannelDir: ch, Trigger: m, LogEnd: pos.End, Context: cc, Sink: func(run.Event) {}})
		if res.StopReason != llm.StopEnd {
			b.Fatalf("run ended %s: %s", res.StopReason, res.ErrorMessage)
		}
		harness = append(harness, time.Since(start)-prov.spent)
	}
	b.StopTimer()
	slices.Sort(harness)
	b.ReportMetric(float64(harness[len(harness)/2].Microseconds()), "harness-p50-µs")
	b.ReportMetric(float64(harness[len(harness)*9/10].Microseconds()), "harness-p90-µs")
}

// prefilledChannel returns a channel whose context.jsonl holds n entries of a conversation
// between people and mom, with the log marked as synced so the first turn adds only its own
// message.
func prefilledChannel(b *testing.B, st *store.Store, n int) *store.ChannelDir {
	b.Helper()
	ch, err := st.ChannelDir("bench", "CLONG")
	if err != nil {
		b.Fatal(err)
	}
	sess, err := ch.Session()
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now().Add(-time.Duration(n) * time.Minute)
	for i := range n {
		ts := t0.Add(time.Duration(i) * time.Minute)
		m := llm.NewUserText(fmt.Sprintf("[user%d]: question %d", i%50, i), ts)
		if i%2 == 1 {
			m = llm.Message{Role: llm.RoleAssistant, Content: []llm.Content{llm.Text(fmt.Sprintf("answer %d", i))},
				API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", StopReason: llm.StopEnd,
				Usage: llm.Usage{Input: 10, Output: 5, CacheRead: 40_000, TotalTokens: 40_015}, Timestamp: ts.UnixMilli()}
		}
		if _, err := sess.AppendMessage(m); err != nil {
			b.Fatal(err)
		}
	}
	if err := sess.Sync(); err != nil {
		b.Fatal(err)
	}
	return ch
}
