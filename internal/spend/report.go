package spend

import (
	"fmt"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/render"
)

// CostReport is what `/cost` answers in a channel, in short markdown: what this channel and
// all channels spent today and this month (days in the channel's time zone), what the person
// who asks (user, "" for nobody) spent today, and each cap that holds in the channel with how
// much of it is used, as of now.
func (g *Guard) CostReport(adapter, channel, user string, now time.Time) string {
	o := llm.Origin{Adapter: adapter, Channel: channel, User: user}
	limits := g.limitsFor(o)
	loc := time.UTC
	if g.opts.Limits != nil {
		loc = g.opts.Limits(adapter, channel).Channel.Location()
	}
	get := func(s scope, month bool) Total {
		p := dayOf(now, loc)
		if month {
			p = monthOf(now, loc)
		}
		return g.opts.Ledger.spent(s, p)
	}
	line := func(s scope) string {
		day := get(s, false)
		return fmt.Sprintf("%s today (%s tokens, %d calls), %s this month",
			dollars(day.USD), render.Tokens(day.Tokens), day.Calls, dollars(get(s, true).USD))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Spent** (days start at 00:00 %s)\n", loc)
	fmt.Fprintf(&b, "- This channel: %s\n", line(scope{kind: channelScope, adapter: adapter, id: channel}))
	fmt.Fprintf(&b, "- All channels: %s\n", line(scope{kind: workspace}))
	if user != "" {
		fmt.Fprintf(&b, "- You: %s today\n", dollars(get(scope{kind: personScope, adapter: adapter, id: user}, false).USD))
	}
	if len(limits) == 0 {
		b.WriteString("\nNo spending caps (\"limits\" in config.json sets them).")
		return b.String()
	}
	b.WriteString("\n**Caps**\n")
	for _, c := range limits {
		used := c.of(g.opts.Ledger.spent(c.scope, c.period(now)))
		state := fmt.Sprintf("%s spent (%.0f%%)", c.amount(used), 100*used/c.cap())
		if used >= c.cap() {
			state += ", reached until it resets " + c.resets(now)
		}
		fmt.Fprintf(&b, "- The %s: %s\n", c.what(), state)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
