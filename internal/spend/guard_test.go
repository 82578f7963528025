package spend

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/config"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/llm/openai"
)

// guardWorld is a guard over a fresh ledger, wrapping a real provider that talks to the fake
// model, with a clock the test sets and the warnings it posted.
type guardWorld struct {
	t        *testing.T
	llm      *fakellm.Server
	ledger   *Ledger
	dataDir  string
	guard    *Guard
	provider llm.Provider
	model    llm.Model

	mu       sync.Mutex
	now      time.Time
	warnings []string
}

// newGuardWorld caps calls with limits; local makes the model one without a price, served
// by an OpenAI-compatible server, as a local model is.
func newGuardWorld(t *testing.T, limits config.ChannelLimits, local bool) *guardWorld {
	t.Helper()
	srv := fakellm.New(fakellm.WithAPIKey("k"))
	t.Cleanup(srv.Close)
	w := &guardWorld{t: t, llm: srv, dataDir: t.TempDir(), now: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)}
	zones := []*time.Location{limits.Workspace.Location(), limits.Adapter.Location(), limits.Channel.Location()}
	w.ledger = Open(w.dataDir, zones, w.now)
	t.Cleanup(func() { w.ledger.Close() })
	w.guard = New(Options{
		Ledger: w.ledger, Limits: func(string, string) config.ChannelLimits { return limits },
		Now: w.clock,
		Warn: func(_ context.Context, adapter, channel, text string) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.warnings = append(w.warnings, adapter+"/"+channel+": "+text)
		},
	})
	if local {
		w.model = llm.Lookup("openai", "llama3.1:8b")
		w.provider = w.guard.Provider(openai.New(openai.Options{APIKey: "k", BaseURL: srv.OpenAIURL()}))
	} else {
		w.model = llm.Lookup("anthropic", "claude-sonnet-4-5")
		w.provider = w.guard.Provider(anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL()}))
	}
	return w
}

func (w *guardWorld) clock() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

func (w *guardWorld) setClock(t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.now = t
}

// ask makes one call for o whose answer reports input tokens, and returns its error, which
// may only be a refusal. The answer is the fake's default, so a refused call leaves none
// behind for the next.
func (w *guardWorld) ask(o llm.Origin, input int) error {
	w.t.Helper()
	w.llm.Default(fakellm.Reply{Text: "ok", Usage: &fakellm.Usage{Input: input}})
	ctx := llm.WithOrigin(context.Background(), o)
	_, err := w.provider.Stream(ctx, &llm.Request{Model: w.model, Messages: []llm.Message{llm.NewUserText("hi", w.clock())}}, func(llm.StreamEvent) {})
	if err != nil && !llm.IsLimit(err) {
		w.t.Fatalf("the model call failed: %v", err)
	}
	return err
}

func (w *guardWorld) posted() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.warnings...)
}

// usd is the input tokens of claude-sonnet-4-5 ($3 a million) that cost v dollars.
func usd(v float64) int { return int(v * 1_000_000 / 3) }

var ada = llm.Origin{Adapter: "tg", Channel: "G", User: "ada"}

// vienna is the limits' time zone in these tests.
const vienna = "Europe/Vienna"

// TestGuardRefusesOnceTheCapIsReached: the call that takes the day past its cap is made and
// recorded; the next is refused, without reaching the model, with the message people see and
// an error the agent does not retry; the admins are told once; the next day calls go again.
func TestGuardRefusesOnceTheCapIsReached(t *testing.T) {
	t.Parallel()
	w := newGuardWorld(t, config.ChannelLimits{Workspace: config.Limits{DailyUSD: 1, TimeZone: vienna}}, false)
	for i := range 2 {
		if err := w.ask(ada, usd(0.6)); err != nil {
			t.Fatalf("call %d under the cap: %v", i+1, err)
		}
	}
	err := w.ask(ada, usd(0.6))
	want := "The daily limit of $1 for this workspace is reached; it resets at 00:00 Europe/Vienna. Admins can raise it in config.json."
	if err == nil || err.Error() != want {
		t.Fatalf("the call over the cap: %v\nwant: %s", err, want)
	}
	if llm.Retryable(err) {
		t.Error("a refusal must not be retried")
	}
	if n := len(w.llm.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2: a refused call never reaches it", n)
	}
	warned := w.posted()
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "tg/G: Heads-up for admins: the daily limit of $1 for this workspace is reached ($1.20 spent); model calls stop until it resets at 00:00 Europe/Vienna.") {
		t.Errorf("warnings = %q, want one that says the cap is reached", warned)
	}
	w.setClock(time.Date(2026, 11, 27, 22, 59, 0, 0, time.UTC)) // 23:59 in Vienna
	if err := w.ask(ada, 1); err == nil {
		t.Error("a call before midnight in Vienna went through")
	}
	w.setClock(time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC)) // midnight in Vienna
	if err := w.ask(ada, usd(0.1)); err != nil {
		t.Errorf("the first call of the next day: %v", err)
	}
}

// TestGuardWarnsOncePerPeriod: the admins hear of 80% once, from the call that passed it,
// not from the calls after it; a new month warns again.
func TestGuardWarnsOncePerPeriod(t *testing.T) {
	t.Parallel()
	w := newGuardWorld(t, config.ChannelLimits{Channel: config.Limits{MonthlyUSD: 1, TimeZone: vienna}}, false)
	for i := range 3 {
		if err := w.ask(ada, usd(0.45)); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if n := len(w.posted()); n != min(i, 1) {
			t.Fatalf("after call %d, %d warnings: %q", i+1, n, w.posted())
		}
	}
	want := "tg/G: Heads-up for admins: 80% of the monthly limit of $1 for this channel is spent ($0.90 so far); at $1, model calls stop until it resets on 1 December at 00:00 Europe/Vienna."
	if got := w.posted()[0]; !strings.HasPrefix(got, want) {
		t.Errorf("warning:\n%s\nwant it to start with:\n%s", got, want)
	}
	err := w.ask(ada, 1)
	if want := "The monthly limit of $1 for this channel is reached; it resets on 1 December at 00:00 Europe/Vienna. Admins can raise it in config.json."; err == nil || err.Error() != want {
		t.Errorf("the call over the cap: %v\nwant: %s", err, want)
	}
	w.setClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	for range 2 {
		if err := w.ask(ada, usd(0.45)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(w.posted()); n != 2 {
		t.Errorf("%d warnings after 80%% of December, want 2 in all", n)
	}
}

// TestGuardPeopleAndWakeUps: each person has an allowance of their own a day, and the
// wake-ups of a channel share one; a call made for nobody (`mom compact`) has none; the
// adapter's cap holds for all its channels.
func TestGuardPeopleAndWakeUps(t *testing.T) {
	t.Parallel()
	w := newGuardWorld(t, config.ChannelLimits{Adapter: config.Limits{DailyUSD: 3}, PerUserDailyUSD: 0.5}, false)
	bea := llm.Origin{Adapter: "tg", Channel: "G", User: "bea"}
	nightly := llm.Origin{Adapter: "tg", Channel: "G", User: "EVENT", WakeUp: "nightly.json"} // the agent names the sender of a wake-up
	otherNightly := llm.Origin{Adapter: "tg", Channel: "H", User: "EVENT", WakeUp: "nightly.json"}
	compact := llm.Origin{Adapter: "tg", Channel: "G"}
	steps := []struct {
		who     llm.Origin
		refusal string
	}{
		{ada, ""},
		{ada, "The daily limit of $0.50 per person is reached; it resets at 00:00 UTC. Admins can raise it in config.json."},
		{bea, ""},
		{nightly, ""},
		{nightly, "The daily limit of $0.50 for this channel's wake-ups is reached; it resets at 00:00 UTC. Admins can raise it in config.json."},
		{otherNightly, ""},
		{compact, ""},
		{compact, "The daily limit of $3 for the tg adapter is reached; it resets at 00:00 UTC. Admins can raise it in config.json."},
		{llm.Origin{Adapter: "web", Channel: "G", User: "ada"}, ""}, // ada on another platform is someone else
	}
	for i, s := range steps {
		err := w.ask(s.who, usd(0.6))
		switch {
		case s.refusal == "" && err != nil:
			t.Errorf("step %d (%+v): refused: %v", i+1, s.who, err)
		case s.refusal != "" && (err == nil || err.Error() != s.refusal):
			t.Errorf("step %d (%+v): %v\nwant: %s", i+1, s.who, err, s.refusal)
		}
	}
}

// TestGuardLocalModels: a model without a price costs nothing and is never refused by a cap
// in dollars, even one another model used up; the token cap holds for it.
func TestGuardLocalModels(t *testing.T) {
	t.Parallel()
	w := newGuardWorld(t, config.ChannelLimits{Workspace: config.Limits{DailyUSD: 0.01, DailyTokens: 1000}}, true)
	if err := w.ledger.Add(call(w.clock(), 5, 10)); err != nil { // a priced model spent $5 today
		t.Fatal(err)
	}
	for i := range 2 {
		if err := w.ask(ada, 600); err != nil {
			t.Fatalf("local call %d: %v", i+1, err)
		}
	}
	err := w.ask(ada, 1)
	if want := "The daily limit of 1,000 tokens for this workspace is reached; it resets at 00:00 UTC. Admins can raise it in config.json."; err == nil || err.Error() != want {
		t.Errorf("the call over the token cap: %v\nwant: %s", err, want)
	}
	var local Total
	err = Read(w.dataDir, time.Time{}, func(r Record) error {
		if r.Model == "llama3.1:8b" {
			local = local.add(r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if local.Calls != 2 || local.USD != 0 || local.Tokens < 1200 {
		t.Errorf("the ledger's local calls: %+v, want 2 calls of at least 600 tokens at $0", local)
	}
}

// TestCostReport: /cost's text names what this channel, all channels and the asker spent,
// and every cap with how much of it is used.
func TestCostReport(t *testing.T) {
	t.Parallel()
	w := newGuardWorld(t, config.ChannelLimits{
		Workspace: config.Limits{DailyUSD: 20, TimeZone: vienna}, Channel: config.Limits{DailyUSD: 1, TimeZone: vienna}, PerUserDailyUSD: 2,
	}, false)
	for _, o := range []llm.Origin{ada, ada, {Adapter: "tg", Channel: "other", User: "bea"}} {
		if err := w.ask(o, usd(0.6)); err != nil {
			t.Fatal(err)
		}
	}
	got := w.guard.CostReport("tg", "G", "ada", w.clock())
	for _, want := range []string{
		"**Spent** (days start at 00:00 Europe/Vienna)\n",
		"- This channel: $1.20 today (400k tokens, 2 calls), $1.20 this month\n",
		"- All channels: $1.80 today (600k tokens, 3 calls), $1.80 this month\n",
		"- You: $1.20 today\n",
		"**Caps**\n- The daily limit of $20 for this workspace: $1.80 spent (9%)\n",
		"- The daily limit of $1 for this channel: $1.20 spent (120%), reached until it resets at 00:00 Europe/Vienna\n",
		"- The daily limit of $2 per person: $1.20 spent (60%)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
	none := New(Options{Ledger: w.ledger}).CostReport("tg", "G", "", w.clock())
	if !strings.Contains(none, "No spending caps") || strings.Contains(none, "You:") {
		t.Errorf("the report without caps:\n%s", none)
	}
}
