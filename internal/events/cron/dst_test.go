package cron

import (
	"slices"
	"testing"
	"time"
)

func mustLoad(t testing.TB, zone string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatalf("LoadLocation(%q): %v", zone, err)
	}
	return loc
}

func mustParse(t testing.TB, expr string, loc *time.Location) *Schedule {
	t.Helper()
	s, err := Parse(expr, loc)
	if err != nil {
		t.Fatalf("Parse(%q): %v", expr, err)
	}
	return s
}

func mustTime(t testing.TB, rfc3339 string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// format renders fire times as local RFC 3339 strings, which show both the
// wall clock and the offset (and so which occurrence of a repeated time).
func format(ts []time.Time) []string {
	out := make([]string, len(ts))
	for i, ts := range ts {
		out[i] = ts.Format(time.RFC3339)
	}
	return out
}

// TestTransitionDates checks that this machine's tzdata has the 2026
// transitions the DST table below is built on, so a tzdata change shows up
// here rather than as puzzling failures further down.
func TestTransitionDates(t *testing.T) {
	tests := []struct {
		zone string
		want []string // each transition as "UTC instant: offset before -> offset after"
	}{
		{"America/New_York", []string{"2026-03-08T07:00:00Z: -5h0m0s -> -4h0m0s", "2026-11-01T06:00:00Z: -4h0m0s -> -5h0m0s"}},
		{"Europe/Vienna", []string{"2026-03-29T01:00:00Z: 1h0m0s -> 2h0m0s", "2026-10-25T01:00:00Z: 2h0m0s -> 1h0m0s"}},
		{"Australia/Lord_Howe", []string{"2026-04-04T15:00:00Z: 11h0m0s -> 10h30m0s", "2026-10-03T15:30:00Z: 10h30m0s -> 11h0m0s"}},
		{"America/Santiago", []string{"2026-04-05T03:00:00Z: -3h0m0s -> -4h0m0s", "2026-09-06T04:00:00Z: -4h0m0s -> -3h0m0s"}},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			loc := mustLoad(t, tt.zone)
			var got []string
			// A plain minute-by-minute scan, independent of ZoneBounds.
			end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
			prev := offsetAt(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), loc)
			for u := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); u.Before(end); u = u.Add(time.Minute) {
				if off := offsetAt(u, loc); off != prev {
					got = append(got, u.Format(time.RFC3339)+": "+prev.String()+" -> "+off.String())
					prev = off
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("transitions in 2026:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func offsetAt(u time.Time, loc *time.Location) time.Duration {
	_, off := u.In(loc).Zone()
	return time.Duration(off) * time.Second
}

// TestDST is the acceptance table for croner's daylight-saving rules.
func TestDST(t *testing.T) {
	tests := []struct {
		name, zone, expr string
		from             string   // RFC 3339; fire times are strictly after it
		want             []string // consecutive fire times, local RFC 3339
	}{
		// 1. Spring-forward gap.
		{"NY fixed in gap fires at gap end", "America/New_York", "30 2 * * *", "2026-03-07T12:00:00-05:00",
			[]string{"2026-03-08T03:00:00-04:00", "2026-03-09T02:30:00-04:00"}},
		{"NY fixed in gap is 07:00 UTC", "America/New_York", "30 2 * * *", "2026-03-08T06:59:59Z",
			[]string{"2026-03-08T03:00:00-04:00"}},
		{"NY fixed at gap start fires at gap end", "America/New_York", "0 2 * * *", "2026-03-07T12:00:00-05:00",
			[]string{"2026-03-08T03:00:00-04:00", "2026-03-09T02:00:00-04:00"}},
		{"NY fixed at gap end time is not doubled", "America/New_York", "0 3 * * *", "2026-03-07T12:00:00-05:00",
			[]string{"2026-03-08T03:00:00-04:00", "2026-03-09T03:00:00-04:00"}},
		{"Vienna fixed in gap fires at gap end", "Europe/Vienna", "30 2 * * *", "2026-03-28T12:00:00+01:00",
			[]string{"2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00"}},
		{"NY every 30 min skips the gap", "America/New_York", "*/30 * * * *", "2026-03-08T01:00:00-05:00",
			[]string{"2026-03-08T01:30:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T03:30:00-04:00"}},
		{"NY hourly skips 02:00", "America/New_York", "0 * * * *", "2026-03-08T00:30:00-05:00",
			[]string{"2026-03-08T01:00:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T04:00:00-04:00"}},
		{"NY interval only in the gap hour skips the day", "America/New_York", "*/30 2 * * *", "2026-03-07T12:00:00-05:00",
			[]string{"2026-03-09T02:00:00-04:00", "2026-03-09T02:30:00-04:00"}},
		{"Vienna list of hours is an interval job", "Europe/Vienna", "30 2,4 * * *", "2026-03-29T00:00:00+01:00",
			[]string{"2026-03-29T04:30:00+02:00", "2026-03-30T02:30:00+02:00"}},

		// 2. Fall-back overlap.
		{"NY fixed in overlap fires once, first occurrence", "America/New_York", "30 1 * * *", "2026-10-31T12:00:00-04:00",
			[]string{"2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"}},
		{"NY fixed in overlap is 05:30 UTC", "America/New_York", "30 1 * * *", "2026-11-01T05:29:00Z",
			[]string{"2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"}},
		{"NY fixed from between the occurrences waits a day", "America/New_York", "30 1 * * *", "2026-11-01T01:45:00-04:00",
			[]string{"2026-11-02T01:30:00-05:00"}},
		{"NY fixed from the second occurrence waits a day", "America/New_York", "30 1 * * *", "2026-11-01T01:00:00-05:00",
			[]string{"2026-11-02T01:30:00-05:00"}},
		{"NY hourly fires in both occurrences", "America/New_York", "0 * * * *", "2026-10-31T23:30:00-04:00",
			[]string{"2026-11-01T00:00:00-04:00", "2026-11-01T01:00:00-04:00", "2026-11-01T01:00:00-05:00", "2026-11-01T02:00:00-05:00"}},
		{"NY every 30 min in hour 1 fires in both occurrences", "America/New_York", "*/30 1 * * *", "2026-10-31T12:00:00-04:00",
			[]string{"2026-11-01T01:00:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T01:00:00-05:00", "2026-11-01T01:30:00-05:00", "2026-11-02T01:00:00-05:00"}},
		{"NY interval from inside the first occurrence", "America/New_York", "*/30 1 * * *", "2026-11-01T01:45:00-04:00",
			[]string{"2026-11-01T01:00:00-05:00", "2026-11-01T01:30:00-05:00", "2026-11-02T01:00:00-05:00"}},
		{"NY interval from inside the second occurrence", "America/New_York", "*/30 1 * * *", "2026-11-01T01:15:00-05:00",
			[]string{"2026-11-01T01:30:00-05:00", "2026-11-02T01:00:00-05:00"}},
		{"Vienna fixed in overlap fires once", "Europe/Vienna", "30 2 * * *", "2026-10-24T12:00:00+02:00",
			[]string{"2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"}},
		{"Vienna interval in overlap fires in both", "Europe/Vienna", "*/30 2 * * *", "2026-10-24T12:00:00+02:00",
			[]string{"2026-10-25T02:00:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T02:30:00+01:00", "2026-10-26T02:00:00+01:00"}},

		// 3. Lord Howe: 30-minute shifts.
		{"Lord Howe daily through fall-back day", "Australia/Lord_Howe", "0 9 * * *", "2026-04-03T12:00:00+11:00",
			[]string{"2026-04-04T09:00:00+11:00", "2026-04-05T09:00:00+10:30", "2026-04-06T09:00:00+10:30"}},
		{"Lord Howe daily through spring day", "Australia/Lord_Howe", "0 9 * * *", "2026-10-02T12:00:00+10:30",
			[]string{"2026-10-03T09:00:00+10:30", "2026-10-04T09:00:00+11:00", "2026-10-05T09:00:00+11:00"}},
		{"Lord Howe fixed in half-hour gap fires at 02:30", "Australia/Lord_Howe", "15 2 * * *", "2026-10-03T12:00:00+10:30",
			[]string{"2026-10-04T02:30:00+11:00", "2026-10-05T02:15:00+11:00"}},
		{"Lord Howe fixed in half-hour overlap fires once", "Australia/Lord_Howe", "45 1 * * *", "2026-04-04T12:00:00+11:00",
			[]string{"2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"}},
		{"Lord Howe interval in half-hour gap", "Australia/Lord_Howe", "*/15 2 * * *", "2026-10-03T23:00:00+10:30",
			[]string{"2026-10-04T02:30:00+11:00", "2026-10-04T02:45:00+11:00", "2026-10-05T02:00:00+11:00"}},
		{"Lord Howe interval in half-hour overlap", "Australia/Lord_Howe", "*/15 1 * * *", "2026-04-04T23:00:00+11:00",
			[]string{"2026-04-05T01:00:00+11:00", "2026-04-05T01:15:00+11:00", "2026-04-05T01:30:00+11:00", "2026-04-05T01:45:00+11:00",
				"2026-04-05T01:30:00+10:30", "2026-04-05T01:45:00+10:30", "2026-04-06T01:00:00+10:30"}},
		{"Lord Howe hourly skips 02:00 on spring day", "Australia/Lord_Howe", "0 * * * *", "2026-10-04T00:30:00+10:30",
			[]string{"2026-10-04T01:00:00+10:30", "2026-10-04T03:00:00+11:00"}},

		// 4. Santiago: transitions at midnight.
		{"Santiago midnight in gap fires at 01:00", "America/Santiago", "0 0 * * *", "2026-09-04T12:00:00-04:00",
			[]string{"2026-09-05T00:00:00-04:00", "2026-09-06T01:00:00-03:00", "2026-09-07T00:00:00-03:00"}},
		{"Santiago 23:30 in overlap fires once", "America/Santiago", "30 23 * * *", "2026-04-03T12:00:00-03:00",
			[]string{"2026-04-03T23:30:00-03:00", "2026-04-04T23:30:00-03:00", "2026-04-05T23:30:00-04:00"}},
		{"Santiago fixed from second occurrence waits a day", "America/Santiago", "30 23 * * *", "2026-04-04T23:10:00-04:00",
			[]string{"2026-04-05T23:30:00-04:00"}},
		{"Santiago hourly over fall-back", "America/Santiago", "0 * * * *", "2026-04-04T21:30:00-03:00",
			[]string{"2026-04-04T22:00:00-03:00", "2026-04-04T23:00:00-03:00", "2026-04-04T23:00:00-04:00", "2026-04-05T00:00:00-04:00"}},
		{"Santiago hourly over spring-forward", "America/Santiago", "0 * * * *", "2026-09-05T22:30:00-04:00",
			[]string{"2026-09-05T23:00:00-04:00", "2026-09-06T01:00:00-03:00", "2026-09-06T02:00:00-03:00"}},
		{"Santiago weekly Sunday midnight in gap", "America/Santiago", "0 0 * * SUN", "2026-09-01T00:00:00-04:00",
			[]string{"2026-09-06T01:00:00-03:00", "2026-09-13T00:00:00-03:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := mustLoad(t, tt.zone)
			s := mustParse(t, tt.expr, loc)
			got := format(s.NextN(mustTime(t, tt.from), len(tt.want)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s %q from %s:\n got %q\nwant %q", tt.zone, tt.expr, tt.from, got, tt.want)
			}
		})
	}
}

// TestDSTWholeYear iterates a year of fire times in each zone and checks the
// count, strict increase, and that no time is returned twice.
func TestDSTWholeYear(t *testing.T) {
	tests := []struct {
		zone, expr string
		want       int
	}{
		// 8760 hours, minus the skipped 02:00, plus the repeated 01:00.
		{"America/New_York", "0 * * * *", 8760},
		{"America/New_York", "*/30 * * * *", 17520},
		{"America/New_York", "*/15 * * * *", 35040},
		{"America/New_York", "0 9 * * *", 365},
		{"America/New_York", "30 2 * * *", 365},
		{"America/New_York", "30 1 * * *", 365},
		{"America/New_York", "0 9 * * 1-5", 261},
		{"America/New_York", "*/30 1 * * *", 365*2 + 2},
		{"America/New_York", "*/30 2 * * *", 365*2 - 2},
		{"Europe/Vienna", "0 * * * *", 8760},
		{"Europe/Vienna", "30 2 * * *", 365},
		// Lord Howe's gap (02:00-02:30) holds a whole hour, its overlap (01:30-02:00) does not.
		{"Australia/Lord_Howe", "0 * * * *", 8759},
		{"Australia/Lord_Howe", "*/30 * * * *", 17520},
		{"Australia/Lord_Howe", "*/15 * * * *", 35040},
		{"Australia/Lord_Howe", "0 9 * * *", 365},
		{"Australia/Lord_Howe", "15 2 * * *", 365},
		{"Australia/Lord_Howe", "45 1 * * *", 365},
		{"America/Santiago", "0 * * * *", 8760},
		{"America/Santiago", "0 0 * * *", 365},
		{"America/Santiago", "30 23 * * *", 365},
		{"UTC", "0 * * * *", 8760},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.expr, func(t *testing.T) {
			loc := mustLoad(t, tt.zone)
			s := mustParse(t, tt.expr, loc)
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, loc)
			end := time.Date(2027, 1, 1, 0, 0, 0, 0, loc)
			var got []time.Time
			for at := s.Next(start.Add(-time.Nanosecond)); at.Before(end); at = s.Next(at) {
				if at.IsZero() {
					t.Fatal("Next returned the zero Time")
				}
				if n := len(got); n > 0 && !at.After(got[n-1]) {
					t.Fatalf("%v follows %v: not strictly increasing", at, got[n-1])
				}
				if at.Second() != 0 || at.Nanosecond() != 0 {
					t.Fatalf("%v is not a whole minute", at)
				}
				got = append(got, at)
			}
			if len(got) != tt.want {
				t.Errorf("%d fire times in 2026, want %d", len(got), tt.want)
			}
		})
	}
}
