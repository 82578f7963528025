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
// size of a real conversation's. It reports the harness's own time per turn (log sync,
// prompt, context.jsonl and log.jsonl appends with the end-of-run fsync, events) as p50 and
// p90, next to the whole turn's ns/op.
func BenchmarkTurn(b *testing.B) {
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

	harness := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	var ch *store.ChannelDir
	for i := 0; i < b.N; i++ {
		if i%100 == 0 {
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
