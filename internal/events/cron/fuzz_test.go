package cron

import (
	"strings"
	"testing"
	"time"
)

// FuzzParse checks that Parse never panics and that a parsed schedule's next
// fire time is either the zero Time or a whole minute strictly after t whose
// wall clock matches the expression, unless a fixed-time job was moved to the
// end of a DST gap.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"0 9 * * *", "*/15 * * * *", "0 9 * * 1-5", "30 2 * * *", "30 1 * * *", "0 0 29 2 *",
		"0 0 30 2 *", "0 9 1,15 * MON", "5/20 1-5/2 1,15 JAN,jul-SEP *", "0 9 ? * FRI-SUN",
		"@daily", "@weekly", "0 25 * * *", "0 9 * *", "0 0 9 * * *", "*/0 * * * *", "1,,2 * * * *",
		"0 17-9 * * *", "0 0 * * 7/2", "-1 * * * *", "0 0 L * *", "\t0  0 * * 0-7",
	} {
		f.Add(seed)
	}
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		f.Fatal(err)
	}
	// Just before New York's 2026 spring-forward gap, so gap moves get exercised.
	from := time.Date(2026, 3, 7, 23, 59, 30, 0, loc)

	f.Fuzz(func(t *testing.T, expr string) {
		s, err := Parse(expr, loc)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "cron ") {
				t.Errorf("error %q does not start with the expression", err)
			}
			return
		}
		if s.String() != expr {
			t.Errorf("String() = %q, want %q", s.String(), expr)
		}
		prev := from
		for _, at := range s.NextN(from, 3) {
			if !at.After(prev) {
				t.Fatalf("%q: %v is not after %v", expr, at, prev)
			}
			if at.Location() != loc || at.Second() != 0 || at.Nanosecond() != 0 {
				t.Fatalf("%q: %v is not a whole minute in %v", expr, at, loc)
			}
			if !matches(s, wallClock(at, loc)) && !(s.fixed && isGapEnd(at, loc)) {
				t.Fatalf("%q: %v does not match and is not a moved fixed-time fire", expr, at)
			}
			if at.Sub(prev) > (horizonYears*366+1)*24*time.Hour {
				t.Fatalf("%q: %v is beyond the horizon from %v", expr, at, prev)
			}
			prev = at
		}
	})
}

// isGapEnd reports whether at is the instant a spring-forward gap ends.
func isGapEnd(at time.Time, loc *time.Location) bool {
	p := periodAt(at, loc)
	return p.start.Equal(at) && periodAt(at.Add(-time.Nanosecond), loc).offset < p.offset
}
