package fakeserver

import "time"

// Limits are the rate limits a fake plays, by name (a method, a route): a test asks for the
// next n calls of a name to be refused with a wait, and a call of that name that comes before
// the last refusal's wait is over is the client's mistake, which real services answer by
// refusing it again (and which a fake records as a violation). The zero value is ready to use.
// It is not safe for concurrent use: a fake calls it with its own lock held.
type Limits struct {
	byName map[string]*limit
}

type limit struct {
	left  int           // refusals still to answer
	wait  time.Duration // the wait each refusal announces
	until time.Time     // when the wait of the last refusal ends
}

// Set makes the next n calls of name refused, each announcing wait, the wait the client is
// told in the refusal (Retry-After, retry_after). It replaces what was set for name before,
// but not the wait of a refusal already answered.
func (l *Limits) Set(name string, n int, wait time.Duration) {
	if l.byName == nil {
		l.byName = map[string]*limit{}
	}
	old := l.byName[name]
	nl := &limit{left: n, wait: wait}
	if old != nil {
		nl.until = old.until
	}
	l.byName[name] = nl
}

// Refusal is the answer to a call that Check refuses.
type Refusal struct {
	// Wait is what the refusal tells the client to wait, as Set gave it.
	Wait time.Duration
	// Early is how long before the last refusal's wait was over the call came; zero when the
	// client waited as it was told.
	Early time.Duration
}

// Check decides a call of name that arrives at now: refused says to answer it with the
// service's "too many requests" and r.Wait. An early call is refused again without counting as
// one of the n.
func (l *Limits) Check(name string, now time.Time) (r Refusal, refused bool) {
	lim := l.byName[name]
	if lim == nil {
		return Refusal{}, false
	}
	switch {
	case now.Before(lim.until):
		r.Early = lim.until.Sub(now)
	case lim.left > 0:
		lim.left--
	default:
		return Refusal{}, false
	}
	lim.until = now.Add(lim.wait)
	r.Wait = lim.wait
	return r, true
}
