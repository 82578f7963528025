package spend

import (
	"strconv"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
)

// BenchmarkCheckAndRecord is what the guard adds to one model call: checking the caps of a
// channel with every kind of cap set, then recording the call (one line appended) and
// looking for warnings.
func BenchmarkCheckAndRecord(b *testing.B) {
	l := Open(b.TempDir(), nil, time.Now())
	defer l.Close()
	caps := config.Limits{DailyUSD: 1e9, MonthlyUSD: 1e9, DailyTokens: 1 << 60}
	g := New(Options{Ledger: l, Limits: func(string, string) config.ChannelLimits {
		return config.ChannelLimits{Workspace: caps, Adapter: caps, Channel: caps, PerUserDailyUSD: 1e9}
	}})
	o := llm.Origin{Adapter: "slack-acme", Channel: "C0123", User: "U0456"}
	req := &llm.Request{Model: llm.Lookup("anthropic", "claude-sonnet-4-5")}
	msg := &llm.Message{Provider: "anthropic", Model: "claude-sonnet-4-5",
		Usage: llm.Price{Input: 3, Output: 15}.Apply(llm.Usage{Input: 3000, Output: 120})}
	b.ReportAllocs()
	for b.Loop() {
		limits := g.limitsFor(o)
		if err := g.check(o, limits, true); err != nil {
			b.Fatal(err)
		}
		g.record(b.Context(), o, req, msg, limits)
	}
}

// BenchmarkOpen is start-up with a month's ledger of 100,000 calls (about 3,300 a day) over
// 200 channels and 50 people: every line of the month is read to sum the current day and
// month.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	now := time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC)
	l := Open(dir, nil, now)
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	const calls = 100_000
	step := now.Sub(start) / calls
	for i := range calls {
		r := call(start.Add(time.Duration(i)*step), 0.01, 3000)
		r.Channel, r.User = "C"+strconv.Itoa(i%200), "U"+strconv.Itoa(i%50)
		if err := l.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	l.Close()
	b.ReportAllocs()
	for b.Loop() {
		l := Open(dir, nil, now)
		if err := l.Wait(); err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}
