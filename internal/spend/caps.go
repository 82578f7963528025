package spend

import (
	"fmt"
	"time"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
)

// limit is one cap that holds for a call: US dollars or tokens of one scope in one period.
type limit struct {
	scope scope
	month bool
	// usd or tokens is the cap; the other is zero.
	usd    float64
	tokens int
	loc    *time.Location
	// whose names the scope after the cap in messages: "for this workspace".
	whose string
}

// limitsFor lists the caps that hold for calls made for o, whose channel's caps are cl.
func limitsFor(cl config.ChannelLimits, o llm.Origin) []limit {
	var out []limit
	level := func(l config.Limits, s scope, whose string) {
		loc := l.Location()
		if l.DailyUSD > 0 {
			out = append(out, limit{scope: s, usd: l.DailyUSD, loc: loc, whose: whose})
		}
		if l.MonthlyUSD > 0 {
			out = append(out, limit{scope: s, month: true, usd: l.MonthlyUSD, loc: loc, whose: whose})
		}
		if l.DailyTokens > 0 {
			out = append(out, limit{scope: s, tokens: l.DailyTokens, loc: loc, whose: whose})
		}
	}
	level(cl.Workspace, scope{kind: workspace}, "for this workspace")
	if o.Adapter != "" {
		level(cl.Adapter, scope{kind: adapterScope, adapter: o.Adapter}, "for the "+o.Adapter+" adapter")
		if o.Channel != "" {
			level(cl.Channel, scope{kind: channelScope, adapter: o.Adapter, id: o.Channel}, "for this channel")
		}
	}
	if p, ok := personOf(o.Adapter, o.Channel, o.User, o.WakeUp); ok && cl.PerUserDailyUSD > 0 {
		whose := "per person"
		if p.kind == wakeUpScope {
			whose = "for this channel's wake-ups"
		}
		out = append(out, limit{scope: p, usd: cl.PerUserDailyUSD, loc: cl.Channel.Location(), whose: whose})
	}
	return out
}

// money reports whether the cap is in US dollars, which calls to a model without a price
// never reach.
func (c limit) money() bool { return c.usd > 0 }

// period is the day or month of the cap that t falls in.
func (c limit) period(t time.Time) period {
	if c.month {
		return monthOf(t, c.loc)
	}
	return dayOf(t, c.loc)
}

// of is how much of the cap t uses, in the cap's unit.
func (c limit) of(t Total) float64 {
	if c.money() {
		return t.USD
	}
	return float64(t.Tokens)
}

// cap is the cap in its unit.
func (c limit) cap() float64 {
	if c.money() {
		return c.usd
	}
	return float64(c.tokens)
}

// amount writes n in the cap's unit: "$16.40", "800,000 tokens".
func (c limit) amount(n float64) string {
	if c.money() {
		return dollars(n)
	}
	return config.Count(int(n)) + " tokens"
}

// dollars writes what was spent to the cent, or to a hundredth of a cent below one.
func dollars(v float64) string {
	if v > 0 && v < 0.01 {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// what names the cap: "daily limit of $20 for this workspace".
func (c limit) what() string {
	kind := "daily"
	if c.month {
		kind = "monthly"
	}
	return fmt.Sprintf("%s limit of %s %s", kind, c.size(), c.whose)
}

// size writes the cap as config.json sets it: "$20", "1,000,000 tokens".
func (c limit) size() string {
	if c.money() {
		return config.USD(c.usd)
	}
	return config.Count(c.tokens) + " tokens"
}

// resets says when the period t falls in ends: "at 00:00 Europe/Vienna", "on 1 December at
// 00:00 Europe/Vienna".
func (c limit) resets(t time.Time) string {
	if !c.month {
		return "at 00:00 " + c.loc.String()
	}
	local := t.In(c.loc)
	next := time.Date(local.Year(), local.Month()+1, 1, 0, 0, 0, 0, c.loc)
	return fmt.Sprintf("on %d %s at 00:00 %s", next.Day(), next.Month(), c.loc.String())
}

// refusal is the error a call gets while the cap is reached at now.
func (c limit) refusal(now time.Time) string {
	return fmt.Sprintf("The %s is reached; it resets %s. Admins can raise it in config.json.", c.what(), c.resets(now))
}

// warning tells the admins that the call made at now brought the cap's use to spent, past
// 80% of it.
func (c limit) warning(spent Total, now time.Time) string {
	used := c.of(spent)
	who := ""
	if c.scope.kind == personScope {
		who = " by " + c.scope.id
	}
	if used >= c.cap() {
		return fmt.Sprintf("Heads-up for admins: the %s is reached (%s spent%s); model calls stop until it resets %s. \"limits\" in config.json sets it.",
			c.what(), c.amount(used), who, c.resets(now))
	}
	return fmt.Sprintf("Heads-up for admins: 80%% of the %s is spent (%s so far%s); at %s, model calls stop until it resets %s. \"limits\" in config.json sets it.",
		c.what(), c.amount(used), who, c.size(), c.resets(now))
}
