package cron

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestNext(t *testing.T) {
	tests := []struct {
		name, zone, expr string
		from             string
		want             []string
	}{
		{"weekdays skip the weekend", "Europe/Vienna", "0 9 * * 1-5", "2026-05-01T10:00:00+02:00",
			[]string{"2026-05-04T09:00:00+02:00", "2026-05-05T09:00:00+02:00", "2026-05-06T09:00:00+02:00", "2026-05-07T09:00:00+02:00", "2026-05-08T09:00:00+02:00", "2026-05-11T09:00:00+02:00"}},
		{"first of the month", "Europe/Vienna", "0 0 1 * *", "2026-01-15T08:00:00+01:00",
			[]string{"2026-02-01T00:00:00+01:00", "2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00"}},
		{"leap day finds the next leap year", "Europe/Vienna", "0 0 29 2 *", "2026-03-01T00:00:00+01:00",
			[]string{"2028-02-29T00:00:00+01:00", "2032-02-29T00:00:00+01:00"}},
		{"every 15 minutes", "Europe/Vienna", "*/15 * * * *", "2026-05-01T10:07:30+02:00",
			[]string{"2026-05-01T10:15:00+02:00", "2026-05-01T10:30:00+02:00", "2026-05-01T10:45:00+02:00", "2026-05-01T11:00:00+02:00"}},
		{"every 15 minutes across midnight and month end", "UTC", "*/15 * * * *", "2026-04-30T23:40:00Z",
			[]string{"2026-04-30T23:45:00Z", "2026-05-01T00:00:00Z", "2026-05-01T00:15:00Z"}},
		{"day-of-month OR day-of-week", "Europe/Vienna", "0 9 1,15 * MON", "2026-05-31T12:00:00+02:00",
			[]string{"2026-06-01T09:00:00+02:00", "2026-06-08T09:00:00+02:00", "2026-06-15T09:00:00+02:00", "2026-06-22T09:00:00+02:00", "2026-06-29T09:00:00+02:00", "2026-07-01T09:00:00+02:00", "2026-07-06T09:00:00+02:00"}},
		{"day-of-week alone restricts when day-of-month is *", "UTC", "0 9 * * MON", "2026-06-02T00:00:00Z",
			[]string{"2026-06-08T09:00:00Z", "2026-06-15T09:00:00Z"}},
		{"day-of-month alone restricts when day-of-week is ?", "UTC", "0 9 13 * ?", "2026-06-02T00:00:00Z",
			[]string{"2026-06-13T09:00:00Z", "2026-07-13T09:00:00Z"}},
		{"once a year returns next Jan 1", "Europe/Vienna", "0 0 1 1 *", "2026-01-01T00:00:00+01:00",
			[]string{"2027-01-01T00:00:00+01:00", "2028-01-01T00:00:00+01:00"}},
		{"31st skips short months", "UTC", "0 12 31 * *", "2026-01-31T12:00:00Z",
			[]string{"2026-03-31T12:00:00Z", "2026-05-31T12:00:00Z", "2026-07-31T12:00:00Z", "2026-08-31T12:00:00Z"}},
		{"last minute of the year", "UTC", "59 23 31 12 *", "2026-06-01T00:00:00Z",
			[]string{"2026-12-31T23:59:00Z", "2027-12-31T23:59:00Z"}},
		{"Sunday as 7", "UTC", "0 8 * * 7", "2026-06-01T00:00:00Z",
			[]string{"2026-06-07T08:00:00Z", "2026-06-14T08:00:00Z"}},
		{"hour range with step", "UTC", "0 9-17/4 * * *", "2026-06-01T00:00:00Z",
			[]string{"2026-06-01T09:00:00Z", "2026-06-01T13:00:00Z", "2026-06-01T17:00:00Z", "2026-06-02T09:00:00Z"}},
		{"month names", "UTC", "0 0 1 JAN,jul *", "2026-02-01T00:00:00Z",
			[]string{"2026-07-01T00:00:00Z", "2027-01-01T00:00:00Z"}},
		{"@hourly", "UTC", "@hourly", "2026-06-01T00:00:00Z",
			[]string{"2026-06-01T01:00:00Z", "2026-06-01T02:00:00Z"}},
		{"every minute", "UTC", "* * * * *", "2026-06-01T00:00:59.999Z",
			[]string{"2026-06-01T00:01:00Z", "2026-06-01T00:02:00Z"}},
		{"half-hour zone", "Asia/Kolkata", "0 9 * * *", "2026-06-01T00:00:00Z",
			[]string{"2026-06-01T09:00:00+05:30", "2026-06-02T09:00:00+05:30"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := mustLoad(t, tt.zone)
			s := mustParse(t, tt.expr, loc)
			got := format(s.NextN(mustTime(t, tt.from), len(tt.want)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q from %s:\n got %q\nwant %q", tt.expr, tt.from, got, tt.want)
			}
		})
	}
}

func TestNextIsStrictlyAfterAndIgnoresSeconds(t *testing.T) {
	loc := mustLoad(t, "Europe/Vienna")
	s := mustParse(t, "0 9 * * *", loc)
	today := time.Date(2026, 6, 1, 9, 0, 0, 0, loc)
	tomorrow := today.AddDate(0, 0, 1)
	tests := []struct {
		from time.Time
		want time.Time
	}{
		{today, tomorrow},                       // t itself matches: the next one
		{today.Add(30 * time.Second), tomorrow}, // 09:00:30
		{today.Add(time.Nanosecond), tomorrow},  // just after
		{today.Add(-time.Nanosecond), today},    // just before
		{today.Add(-30 * time.Second), today},   // 08:59:30
		{today.UTC(), tomorrow},                 // t in another location
	}
	for _, tt := range tests {
		got := s.Next(tt.from)
		if !got.Equal(tt.want) || got.Location() != loc {
			t.Errorf("Next(%v) = %v, want %v in %v", tt.from, got, tt.want, loc)
		}
	}

	// A t carrying a monotonic clock reading must behave like any other.
	now := time.Now()
	if got := s.Next(now); !got.After(now) || got.Sub(now) > 24*time.Hour {
		t.Errorf("Next(now=%v) = %v", now, got)
	}
}

func TestNextRepeatedCallsAdvance(t *testing.T) {
	loc := mustLoad(t, "America/New_York")
	s := mustParse(t, "*/30 1 * * *", loc)
	at := mustTime(t, "2026-10-31T12:00:00-04:00")
	seen := map[time.Time]bool{}
	for range 100 {
		next := s.Next(at)
		if !next.After(at) {
			t.Fatalf("Next(%v) = %v, not after", at, next)
		}
		if seen[next] {
			t.Fatalf("Next returned %v twice", next)
		}
		seen[next] = true
		at = next
	}
}

func TestNextHorizon(t *testing.T) {
	tests := []struct {
		expr, from string
	}{
		{"0 0 30 2 *", "2026-01-01T00:00:00Z"},
		{"0 0 31 4,6,9,11 *", "2026-01-01T00:00:00Z"},
		{"*/5 * 30 2 *", "2026-01-01T00:00:00Z"},
		// Feb 29 after 2096 is in 2104 (2100 is not a leap year): beyond 5 years.
		{"0 0 29 2 *", "2096-03-01T00:00:00Z"},
	}
	for _, tt := range tests {
		s := mustParse(t, tt.expr, time.UTC)
		from := mustTime(t, tt.from)
		if got := s.Next(from); !got.IsZero() {
			t.Errorf("%q Next(%s) = %v, want the zero Time", tt.expr, tt.from, got)
		}
		if got := s.NextN(from, 3); len(got) != 0 {
			t.Errorf("%q NextN(%s) = %v, want none", tt.expr, tt.from, got)
		}
	}

	// Just inside the horizon still fires.
	s := mustParse(t, "0 0 29 2 *", time.UTC)
	if got, want := s.Next(mustTime(t, "2023-03-01T00:00:00Z")), mustTime(t, "2024-02-29T00:00:00Z"); !got.Equal(want) {
		t.Errorf("Next = %v, want %v", got, want)
	}
}

func TestNextN(t *testing.T) {
	s := mustParse(t, "0 9 * * *", time.UTC)
	from := mustTime(t, "2026-01-01T00:00:00Z")
	if got := s.NextN(from, 0); got != nil {
		t.Errorf("NextN(0) = %v, want nil", got)
	}
	if got := s.NextN(from, -1); got != nil {
		t.Errorf("NextN(-1) = %v, want nil", got)
	}
	got := s.NextN(from, 3)
	want := []string{"2026-01-01T09:00:00Z", "2026-01-02T09:00:00Z", "2026-01-03T09:00:00Z"}
	if !slices.Equal(format(got), want) {
		t.Errorf("NextN(3) = %q, want %q", format(got), want)
	}
}

func TestConcurrentUse(t *testing.T) {
	loc := mustLoad(t, "America/New_York")
	s := mustParse(t, "*/15 * * * *", loc)
	from := mustTime(t, "2026-11-01T00:00:00-04:00")
	want := format(s.NextN(from, 50))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := format(s.NextN(from, 50)); !slices.Equal(got, want) {
				t.Errorf("concurrent NextN differs: %q", got)
			}
		})
	}
	wg.Wait()
}

// matches reports whether wall-clock time w (a naive time) matches s's fields.
// It is a direct reading of the cron rules, independent of the search code.
func matches(s *Schedule, w time.Time) bool {
	has := func(set uint64, v int) bool { return set&(1<<uint(v)) != 0 }
	domOK, dowOK := has(s.dom, w.Day()), has(s.dow, int(w.Weekday()))
	var dayOK bool
	switch {
	case s.domStar && s.dowStar:
		dayOK = true
	case s.domStar:
		dayOK = dowOK
	case s.dowStar:
		dayOK = domOK
	default:
		dayOK = domOK || dowOK
	}
	return dayOK && has(s.month, int(w.Month())) && has(s.hour, w.Hour()) && has(s.minute, w.Minute())
}

// zoneMinutes is a brute-force picture of a zone: every whole UTC minute in
// [from, to) with the wall clock it shows.
type zoneMinutes struct {
	at, wall []time.Time
	// first maps a wall-clock minute to the instant a fixed-time job fires for
	// it: its first occurrence, or for a wall time the clock skipped, the
	// first instant after the skip.
	first map[int64]time.Time // keyed by the wall minute's Unix seconds
}

func scanZone(loc *time.Location, from, to time.Time) *zoneMinutes {
	z := &zoneMinutes{first: map[int64]time.Time{}}
	for u := from; u.Before(to); u = u.Add(time.Minute) {
		_, off := u.In(loc).Zone()
		w := u.Add(time.Duration(off) * time.Second)
		if n := len(z.wall); n > 0 {
			for gap := z.wall[n-1].Add(time.Minute); gap.Before(w); gap = gap.Add(time.Minute) {
				if _, ok := z.first[gap.Unix()]; !ok {
					z.first[gap.Unix()] = u
				}
			}
		}
		if _, ok := z.first[w.Unix()]; !ok {
			z.first[w.Unix()] = u
		}
		z.at = append(z.at, u)
		z.wall = append(z.wall, w)
	}
	return z
}

// TestAgainstBruteForce compares Next with a minute-by-minute oracle over a
// whole year in zones with hour, half-hour, two-hour, midnight and whole-day
// transitions.
func TestAgainstBruteForce(t *testing.T) {
	exprs := []string{
		"0 9 * * *", "30 2 * * *", "30 1 * * *", "15 2 * * *", "45 1 * * *", "0 0 * * *",
		"30 23 * * *", "59 23 * * *", "0 2 * 3,4,9,10,11 SUN", "0 0 1,15 * MON",
		"*/7 * * * *", "0 */3 * * *", "30 0-3 * * 0", "*/20 1-3 * * *", "0,30 23,0 * * *",
	}
	zones := []struct {
		zone string
		year int
	}{
		{"America/New_York", 2026},
		{"Europe/Vienna", 2026},
		{"Australia/Lord_Howe", 2026},
		{"America/Santiago", 2026},
		{"Antarctica/Troll", 2026}, // two-hour shifts: +00 <-> +02
		{"Pacific/Apia", 2011},     // skipped 2011-12-30 entirely
	}
	if testing.Short() {
		zones = zones[:2]
	}
	for _, zc := range zones {
		loc := mustLoad(t, zc.zone)
		// Scan a margin beyond the checked window so that every wall time
		// in it has its first occurrence (or gap end) recorded.
		from := time.Date(zc.year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -3)
		to := time.Date(zc.year+1, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 3)
		z := scanZone(loc, from, to)
		lo, hi := from.AddDate(0, 0, 2), to.AddDate(0, 0, -2)
		for _, expr := range exprs {
			t.Run(zc.zone+" "+expr, func(t *testing.T) {
				s := mustParse(t, expr, loc)
				want := expected(s, z, lo, hi)
				var got []time.Time
				for at := s.Next(lo.Add(-time.Nanosecond)); !at.IsZero() && at.Before(hi); at = s.Next(at) {
					got = append(got, at)
				}
				if len(got) != len(want) {
					t.Errorf("%d fire times, oracle has %d", len(got), len(want))
				}
				for i := range min(len(got), len(want)) {
					if !got[i].Equal(want[i]) {
						t.Fatalf("fire %d: got %s, oracle %s", i, got[i].Format(time.RFC3339), want[i].In(loc).Format(time.RFC3339))
					}
				}
			})
		}
	}
}

// expected lists the oracle's fire times for s within [lo, hi).
func expected(s *Schedule, z *zoneMinutes, lo, hi time.Time) []time.Time {
	var out []time.Time
	if !s.fixed {
		// Interval job: every real minute whose wall clock matches.
		for i, at := range z.at {
			if !at.Before(lo) && at.Before(hi) && matches(s, z.wall[i]) {
				out = append(out, at)
			}
		}
		return out
	}
	// Fixed-time job: one fire per matching local date, at the first
	// occurrence of its wall time or where the clock skipped it.
	h, m := nextBit(s.hour, 0), nextBit(s.minute, 0)
	first, last := z.wall[0], z.wall[len(z.wall)-1]
	for d := time.Date(first.Year(), first.Month(), first.Day(), h, m, 0, 0, time.UTC); !d.After(last); d = d.AddDate(0, 0, 1) {
		at, ok := z.first[d.Unix()]
		if !ok || !matches(s, d) || at.Before(lo) || !at.Before(hi) {
			continue
		}
		// A skipped day (Apia, 2011-12-30) moves midnight onto the next
		// midnight: one instant, so one fire.
		if n := len(out); n > 0 && out[n-1].Equal(at) {
			continue
		}
		out = append(out, at)
	}
	return out
}
