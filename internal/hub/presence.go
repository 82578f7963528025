package hub

import (
	"sync"
	"time"
)

// How long an answer to "is an admin in this group?" is trusted. A yes is kept longer: asking
// costs the platform calls per admin, and an admin's group stays theirs for a while. A no (or
// no answer) is asked again soon, so an admin who joins, or a platform that comes back, is
// noticed quickly, while a stranger writing repeatedly costs at most one check a minute.
const (
	presentFor = 10 * time.Minute
	absentFor  = time.Minute
)

// presenceLimit is how many answers are kept before expired ones are swept out.
const presenceLimit = 4096

// presence remembers, per adapter and group, whether one of the adapter's admins is a member.
type presence struct {
	// now is time.Now; tests replace it to see answers expire.
	now func() time.Time

	mu      sync.Mutex
	answers map[string]sighting // adapter/group → the last answer
}

// sighting is one answer and until when it holds. definite is false when the platform did not
// answer; it counts as "no".
type sighting struct {
	present, definite bool
	until             time.Time
}

func newPresence() *presence {
	return &presence{now: time.Now, answers: map[string]sighting{}}
}

// check returns the remembered answer for key, or asks. Two checks of one key at the same
// moment may both ask; the later answer is kept.
func (p *presence) check(key string, ask func() (bool, error)) (present, definite bool) {
	p.mu.Lock()
	s, ok := p.answers[key]
	now := p.now()
	p.mu.Unlock()
	if ok && now.Before(s.until) {
		return s.present, s.definite
	}
	in, err := ask()
	s = sighting{present: in && err == nil, definite: err == nil}
	ttl := absentFor
	if s.present {
		ttl = presentFor
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now = p.now()
	s.until = now.Add(ttl)
	if len(p.answers) >= presenceLimit {
		for k, old := range p.answers {
			if !now.Before(old.until) {
				delete(p.answers, k)
			}
		}
	}
	p.answers[key] = s
	return s.present, s.definite
}

// forget drops the answer for key, so the next check asks.
func (p *presence) forget(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.answers, key)
}

// departures keeps mom from leaving a group twice: a stranger's messages that arrive while mom
// is leaving, or were sent before it left, need no second leave. A message sent after mom left
// means someone added it again, and it leaves again.
type departures struct {
	mu     sync.Mutex
	groups map[refusal]departure
}

type departure struct {
	leaving bool      // a leave is under way
	left    time.Time // when the last leave succeeded
}

// start reports whether to leave r's group for a message sent at sent, and if so notes that a
// leave is under way.
func (d *departures) start(r refusal, sent time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	g := d.groups[r]
	if g.leaving || (!g.left.IsZero() && !sent.After(g.left)) {
		return false
	}
	if d.groups == nil {
		d.groups = map[refusal]departure{}
	}
	d.groups[r] = departure{leaving: true, left: g.left}
	return true
}

// finish records how the leave that start allowed ended; after a failure the next message
// tries again.
func (d *departures) finish(r refusal, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	g := d.groups[r]
	g.leaving = false
	if ok {
		g.left = time.Now()
	}
	d.groups[r] = g
}
