package spend

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

// call is a ledger record of a call for ada in tg/G at t costing usd for tokens tokens.
func call(t time.Time, usd float64, tokens int) Record {
	return Record{At: t, Adapter: "tg", Channel: "G", User: "ada", Provider: "anthropic", Model: "claude-sonnet-4-5",
		Usage: llm.Usage{Input: tokens, TotalTokens: tokens, Cost: llm.Cost{Input: usd, Total: usd}}}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("this machine has no time zone data for %s (tzdata): %v", name, err)
	}
	return loc
}

// TestLedgerTotalsSurviveReopen: the totals of the current day and month, in each zone, are
// what they were before the ledger was closed, read from the files alone; the previous
// month's file counts where a zone's month began in it, torn and foreign lines are passed
// over, and calls of ended periods are not counted.
func TestLedgerTotalsSurviveReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kiritimati := mustZone(t, "Pacific/Kiritimati") // UTC+14: its December begins on 30 November, UTC
	zones := []*time.Location{time.UTC, kiritimati}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	l := Open(dir, zones, now)
	for _, r := range []Record{
		call(time.Date(2026, 11, 15, 9, 0, 0, 0, time.UTC), 5, 500),  // November everywhere
		call(time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC), 2, 200), // 1 December in Kiritimati
		call(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), 1, 100),   // today everywhere
		call(time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC), 0.5, 50), // today in UTC; 2 December in Kiritimati
	} {
		if err := l.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	check := func(l *Ledger, when string) {
		t.Helper()
		ws, person := scope{kind: workspace}, scope{kind: personScope, adapter: "tg", id: "ada"}
		for _, c := range []struct {
			what  string
			s     scope
			p     period
			usd   float64
			calls int
		}{
			{"today in UTC", ws, dayOf(now, time.UTC), 1.5, 2},
			{"December in UTC", ws, monthOf(now, time.UTC), 1.5, 2},
			{"today in Kiritimati", ws, dayOf(now, kiritimati), 0.5, 1},
			{"December in Kiritimati", person, monthOf(now, kiritimati), 3.5, 3},
			{"November in UTC, ended", ws, monthOf(now.AddDate(0, -1, 0), time.UTC), 0, 0},
		} {
			got := l.spent(c.s, c.p)
			if got.USD != c.usd || got.Calls != c.calls {
				t.Errorf("%s: %s = %+v, want $%v in %d calls", when, c.what, got, c.usd, c.calls)
			}
		}
	}
	check(l, "before the restart")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash mid-line, and a line that is no call.
	f, err := os.OpenFile(filepath.Join(dir, "spend", "2026-12.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{\"what\": \"else\"}\n{\"at\":\"2026-12-01T11:30:00Z\",\"usage\":{\"cost\":{\"total\":10"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	l = Open(dir, zones, now)
	if err := l.Wait(); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	check(l, "after the restart")
	// The next line heals the torn one and is counted.
	if err := l.Add(call(now, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if got := l.spent(scope{kind: channelScope, adapter: "tg", id: "G"}, dayOf(now, time.UTC)); got.USD != 2.5 || got.Tokens != 151 {
		t.Errorf("today in tg/G after one more call = %+v, want $2.5 and 151 tokens", got)
	}
	var n int
	if err := Read(dir, time.Time{}, func(Record) error { n++; return nil }); err != nil || n != 5 {
		t.Errorf("Read found %d calls (%v), want 5", n, err)
	}
}

// TestLedgerNewDay: a call of a new day starts the day's total afresh and keeps the month's;
// the ledger moves to a new file with the month.
func TestLedgerNewDay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC)
	l := Open(dir, nil, start)
	defer l.Close()
	ws := scope{kind: workspace}
	for i, at := range []time.Time{start, start.Add(2 * time.Minute), start.Add(24*time.Hour + 2*time.Minute)} {
		if err := l.Add(call(at, 1, 10)); err != nil {
			t.Fatal(err)
		}
		day, month := l.spent(ws, dayOf(at, time.UTC)), l.spent(ws, monthOf(at, time.UTC))
		wantMonth := []float64{1, 2, 1}[i]
		if day.USD != 1 || month.USD != wantMonth {
			t.Errorf("after call %d at %s: day $%v, month $%v; want $1 and $%v", i+1, at, day.USD, month.USD, wantMonth)
		}
	}
	if len(l.totals.sums) != 2 {
		t.Errorf("the ledger still sums %d periods; only today and this month are current", len(l.totals.sums))
	}
	for _, name := range []string{"2026-11.jsonl", "2026-12.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, "spend", name)); err != nil {
			t.Errorf("ledger file: %v", err)
		}
	}
}
