package cron

import (
	"math/bits"
	"time"
)

// horizonYears bounds the search: Next gives up on schedules that do not fire
// within this many years (such as "0 0 30 2 *").
const horizonYears = 5

// Schedule is a parsed 5-field cron expression bound to a location.
// It is immutable and safe for concurrent use.
type Schedule struct {
	expr string
	loc  *time.Location

	// Bit v of a set is 1 when value v matches. Day-of-week uses 0-6 (Sunday = 0).
	minute, hour, dom, month, dow uint64
	// domStar and dowStar record a day field written as "*" or "?": when both
	// day fields are restricted, a day matches if either matches.
	domStar, dowStar bool
	// fixed marks a fixed-time job (exactly one minute and one hour value),
	// which gets the fixed-time DST rules; see the package documentation.
	fixed bool
}

// String returns the expression as given to Parse.
func (s *Schedule) String() string { return s.expr }

// Next returns the first fire time strictly after t, in the schedule's
// location, or the zero Time if the schedule does not fire within 5 years
// of t (for example "0 0 30 2 *"). Fire times are whole minutes, so with
// "0 9 * * *" both t = 09:00:00 and t = 09:00:30 give 09:00 the next day.
func (s *Schedule) Next(t time.Time) time.Time {
	limit := wallClock(t, s.loc).AddDate(horizonYears, 0, 0)
	if s.fixed {
		return s.nextFixed(t, limit)
	}
	return s.nextInterval(t, limit)
}

// NextN returns up to n fire times after t, in increasing order. It returns
// fewer when the schedule stops firing (see Next), and nil when n <= 0.
func (s *Schedule) NextN(t time.Time, n int) []time.Time {
	if n <= 0 {
		return nil
	}
	out := make([]time.Time, 0, min(n, 1024))
	for range n {
		t = s.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out
}

// nextInterval finds the first real instant after t whose wall clock matches.
// It walks the zone's offset periods in order: within one period the wall
// clock is the instant plus a constant offset, so a plain wall-clock search
// finds that period's matches, and wall times inside a gap are never seen
// (skipped) while wall times in an overlap are seen once per period (both
// occurrences fire).
func (s *Schedule) nextInterval(t, limit time.Time) time.Time {
	// The earliest instant that may fire; fire times are whole minutes, so
	// starting a nanosecond after t and rounding up gives "strictly after".
	from := t.Add(time.Nanosecond)
	for {
		p := periodAt(from, s.loc)
		w, ok := s.nextWall(ceilMinute(p.wall(from)), limit)
		if !ok {
			return time.Time{}
		}
		if at := p.instant(w); p.contains(at) {
			return at.In(s.loc)
		}
		if p.end.IsZero() {
			return time.Time{} // unreachable: an endless period contains every later instant
		}
		// The match lies beyond this period, where another offset applies:
		// search again from the start of the next period.
		from = p.end
	}
}

// nextFixed finds the first fire of a fixed-time job after t. Each matching
// local date yields exactly one fire instant (see resolveFixed), so it tries
// dates in order and returns the first instant after t. It starts a day
// before t's local date: around a transition at midnight (Santiago) a date's
// fire instant can be shown on the neighbouring date, and one extra date is
// cheaper than reasoning about when that cannot matter.
func (s *Schedule) nextFixed(t, limit time.Time) time.Time {
	y, m, d := wallClock(t, s.loc).Date()
	from := time.Date(y, m, d-1, 0, 0, 0, 0, time.UTC)
	for {
		w, ok := s.nextWall(from, limit)
		if !ok {
			return time.Time{}
		}
		if at := resolveFixed(w, s.loc); at.After(t) {
			return at
		}
		from = w.Add(time.Minute)
	}
}

// nextWall returns the first wall-clock time at or after from (a whole minute;
// wall-clock times are held as UTC times carrying the local fields) that
// matches the schedule, or false if there is none up to limit. It searches
// field by field, jumping over whole months, days and hours that cannot
// match, so rare schedules such as "0 0 29 2 *" take a few steps per year.
func (s *Schedule) nextWall(from, limit time.Time) (time.Time, bool) {
	y, mon, d := from.Date()
	month := int(mon)
	h, mi, _ := from.Clock()
	for y <= limit.Year() {
		m := nextBit(s.month, month)
		if m < 0 {
			y, month, d, h, mi = y+1, 1, 1, 0, 0
			continue
		}
		if m != month {
			month, d, h, mi = m, 1, 0, 0
		}

		dd := s.nextDay(y, month, d)
		if dd < 0 {
			month, d, h, mi = month+1, 1, 0, 0
			if month > 12 {
				y, month = y+1, 1
			}
			continue
		}
		if dd != d {
			d, h, mi = dd, 0, 0
		}

		hh := nextBit(s.hour, h)
		if hh < 0 {
			d, h, mi = d+1, 0, 0 // nextDay rejects a day past the month's end
			continue
		}
		if hh != h {
			h, mi = hh, 0
		}

		mm := nextBit(s.minute, mi)
		if mm < 0 {
			h, mi = h+1, 0 // nextBit rejects hour 24
			continue
		}

		w := time.Date(y, time.Month(month), d, h, mm, 0, 0, time.UTC)
		if w.After(limit) {
			return time.Time{}, false
		}
		return w, true
	}
	return time.Time{}, false
}

// nextDay returns the first day of the month from d on that matches the day
// fields, or -1 if none does.
func (s *Schedule) nextDay(year, month, d int) int {
	last := daysIn(year, month)
	if s.dowStar {
		// Only day-of-month restricts: jump straight to the next value.
		if dd := nextBit(s.dom, d); dd >= 0 && dd <= last {
			return dd
		}
		return -1
	}
	firstWeekday := int(time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC).Weekday())
	for ; d <= last; d++ {
		weekdayOK := s.dow&(1<<uint((firstWeekday+d-1)%7)) != 0
		if s.domStar {
			if weekdayOK {
				return d
			}
			continue
		}
		// Both restricted: either may match (Vixie cron / croner legacy mode).
		if weekdayOK || s.dom&(1<<uint(d)) != 0 {
			return d
		}
	}
	return -1
}

// nextBit returns the smallest value >= from in set, or -1.
func nextBit(set uint64, from int) int {
	if from >= 64 {
		return -1
	}
	rest := set >> uint(from) << uint(from)
	if rest == 0 {
		return -1
	}
	return bits.TrailingZeros64(rest)
}

// daysIn returns the number of days in month (1-12) of year.
func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// ceilMinute rounds a wall-clock time up to a whole minute.
func ceilMinute(w time.Time) time.Time {
	if r := w.Truncate(time.Minute); r.Before(w) {
		return r.Add(time.Minute)
	}
	return w
}
