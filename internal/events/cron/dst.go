package cron

import "time"

// Wall-clock times are held as time.Time values in UTC whose fields are the
// local fields ("naive" times): arithmetic on them never meets a DST
// transition, and converting them to instants is the job of this file.
//
// Go's time.Date is no help for that conversion: it moves a time in a gap
// forward by the gap's length (New York 02:30 becomes 03:30), where croner's
// fixed-time rule wants the end of the gap (03:00), and for a repeated time it
// does not promise which occurrence it picks. So the code below works with the
// zone's offset periods directly (time.Time.ZoneBounds).

// maxOffsetSpan bounds how far an instant can be from its wall-clock time read
// as UTC. Real offsets stay within -12h..+14h, historical local mean times
// within about ±16h; a day and two hours leaves room for all of them.
const maxOffsetSpan = 26 * time.Hour

// period is a stretch of time during which loc keeps one UTC offset.
type period struct {
	start, end time.Time // end is zero if the offset never changes again
	offset     time.Duration
	unbounded  bool // start is the beginning of time
}

// periodAt returns the offset period containing instant t.
func periodAt(t time.Time, loc *time.Location) period {
	lt := t.In(loc)
	_, off := lt.Zone()
	start, end := lt.ZoneBounds()
	return period{start: start, end: end, offset: time.Duration(off) * time.Second, unbounded: start.IsZero()}
}

// wall returns the wall-clock time shown at instant t, assuming t is in p.
func (p period) wall(t time.Time) time.Time { return t.UTC().Add(p.offset) }

// instant returns the instant at which p's offset shows wall-clock time w.
// The result is only real if p contains it.
func (p period) instant(w time.Time) time.Time { return w.Add(-p.offset) }

// contains reports whether instant t lies within p.
func (p period) contains(t time.Time) bool {
	return (p.unbounded || !t.Before(p.start)) && (p.end.IsZero() || t.Before(p.end))
}

// resolveFixed maps wall-clock time w to the one instant at which a
// fixed-time job fires for it in loc:
//   - a time that occurs once fires then;
//   - a repeated time (fall-back overlap) fires at its first occurrence;
//   - a missing time (spring-forward gap) fires when the gap ends, i.e. at
//     the transition instant.
//
// It walks the offset periods in time order, starting early enough that the
// first period cannot begin after w's earliest possible instant. The first
// period that shows w gives the first occurrence. A period that already
// starts past w on the clock (its first wall-clock time is later than w)
// while earlier periods ended before w means the clock jumped over w at that
// period's start: that start is the end of the gap.
func resolveFixed(w time.Time, loc *time.Location) time.Time {
	for cur := w.Add(-maxOffsetSpan); cur.Before(w.Add(maxOffsetSpan)); {
		p := periodAt(cur, loc)
		at := p.instant(w)
		if !p.unbounded && at.Before(p.start) {
			return p.start.In(loc) // w is in the gap that ends at p.start
		}
		if p.contains(at) {
			return at.In(loc)
		}
		if p.end.IsZero() {
			break
		}
		cur = p.end // at is after p: w comes later on the clock
	}
	// Unreachable for real zones (every wall time is shown or skipped within
	// the window); fall back to Go's own mapping rather than looping.
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, loc)
}

// wallClock returns the wall-clock time instant t shows in loc, as a naive time.
func wallClock(t time.Time, loc *time.Location) time.Time {
	return periodAt(t, loc).wall(t)
}
