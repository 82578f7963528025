package spend

import (
	"slices"
	"time"
)

// Total is what the calls of one scope cost in one period.
type Total struct {
	Calls  int
	Tokens int
	USD    float64
}

// add counts r into t.
func (t Total) add(r Record) Total {
	return Total{Calls: t.Calls + 1, Tokens: t.Tokens + r.tokens(), USD: t.USD + r.Usage.Cost.Total}
}

// scopeKind says whose calls a scope sums.
type scopeKind byte

const (
	// workspace sums every call.
	workspace scopeKind = iota
	// adapterScope sums the calls of one adapter's channels.
	adapterScope
	// channelScope sums one channel's calls.
	channelScope
	// personScope sums the calls of the runs one person started, on one adapter.
	personScope
	// wakeUpScope sums the calls of the runs wake-ups started in one channel: the person
	// a wake-up's run is capped as.
	wakeUpScope
)

// scope is whose calls a total sums: id is the channel's id (channelScope, wakeUpScope) or
// the person's (personScope).
type scope struct {
	kind        scopeKind
	adapter, id string
}

// scopesOf lists the scopes r counts in.
func scopesOf(r Record) []scope {
	out := []scope{{kind: workspace}}
	if r.Adapter == "" {
		return out
	}
	out = append(out, scope{kind: adapterScope, adapter: r.Adapter})
	if r.Channel != "" {
		out = append(out, scope{kind: channelScope, adapter: r.Adapter, id: r.Channel})
	}
	if p, ok := personOf(r.Adapter, r.Channel, r.User, r.WakeUp); ok {
		out = append(out, p)
	}
	return out
}

// personOf is the scope of the person a call is capped as: the channel's wake-ups for a
// run a wake-up started (whose trigger may name a sender, "EVENT", that is nobody), else
// the person who started the run; false for a call made for nobody (`mom compact`).
func personOf(adapter, channel, user, wakeUp string) (scope, bool) {
	switch {
	case wakeUp != "" && channel != "":
		return scope{kind: wakeUpScope, adapter: adapter, id: channel}, true
	case user != "":
		return scope{kind: personScope, adapter: adapter, id: user}, true
	}
	return scope{}, false
}

// period is a day or a calendar month in a time zone, by its local date ("2026-11-27") or
// month ("2026-11").
type period struct {
	start string
	zone  string
}

// dayOf and monthOf are the day and the month t falls in, in loc.
func dayOf(t time.Time, loc *time.Location) period {
	return period{start: t.In(loc).Format(time.DateOnly), zone: loc.String()}
}

func monthOf(t time.Time, loc *time.Location) period {
	return period{start: t.In(loc).Format("2006-01"), zone: loc.String()}
}

// totals sums calls by period and scope, in every zone given. It holds the current periods
// only: a new period drops the ones that ended.
type totals struct {
	zones []*time.Location
	sums  map[period]map[scope]Total
}

func newTotals(zones []*time.Location) *totals {
	t := &totals{sums: make(map[period]map[scope]Total)}
	for _, z := range zones {
		if !slices.ContainsFunc(t.zones, func(y *time.Location) bool { return y.String() == z.String() }) {
			t.zones = append(t.zones, z) // a zone twice would count every call twice
		}
	}
	if len(t.zones) == 0 {
		t.zones = []*time.Location{time.UTC}
	}
	return t
}

// add counts r in its day and month in every zone, and reports whether one of them is a
// period it had no total of yet (after which the caller prunes the ended ones).
func (t *totals) add(r Record) (fresh bool) {
	scopes := scopesOf(r)
	for _, z := range t.zones {
		for _, p := range []period{dayOf(r.At, z), monthOf(r.At, z)} {
			m, ok := t.sums[p]
			if !ok {
				m, fresh = make(map[scope]Total), true
				t.sums[p] = m
			}
			for _, s := range scopes {
				m[s] = m[s].add(r)
			}
		}
	}
	return fresh
}

// prune drops the periods now is not in.
func (t *totals) prune(now time.Time) {
	current := make(map[period]bool, 2*len(t.zones))
	for _, z := range t.zones {
		current[dayOf(now, z)], current[monthOf(now, z)] = true, true
	}
	for p := range t.sums {
		if !current[p] {
			delete(t.sums, p)
		}
	}
}

// get returns the total of s in p.
func (t *totals) get(s scope, p period) Total {
	return t.sums[p][s]
}
