package spend

import (
	"context"
	"log/slog"
	"time"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
)

// warnAt is the share of a cap whose spending the admins are told about.
const warnAt = 0.8

// Options are what a Guard checks calls against and whom it tells.
type Options struct {
	// Ledger records the calls and sums them.
	Ledger *Ledger
	// Limits returns the caps of a channel (config.Config.LimitsFor); nil caps nothing, and
	// the calls are only recorded.
	Limits func(adapter, channel string) config.ChannelLimits
	// Log hears of refused calls, warnings, and lines the ledger could not write; nil
	// discards them.
	Log *slog.Logger
	// Warn, when set, tells the channel a call was made for that text, markdown for the
	// admins, says: that 80% of a cap is spent (once per cap and period). It must not block.
	Warn func(ctx context.Context, adapter, channel, text string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Guard checks model calls against the caps and records them in the ledger.
type Guard struct {
	opts Options
}

// New returns a guard over opts.Ledger.
func New(opts Options) *Guard {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Guard{opts: opts}
}

// Provider wraps p so that every call is checked against the caps before it is made and
// recorded after. A nil p stays nil (no key configured).
func (g *Guard) Provider(p llm.Provider) llm.Provider {
	if p == nil {
		return nil
	}
	return &guarded{next: p, g: g}
}

// guarded is a Provider whose calls a Guard checks and records.
type guarded struct {
	next llm.Provider
	g    *Guard
}

// Stream refuses the call with an llm.ErrLimit error when a cap that holds for it is
// reached; otherwise it makes the call and records what it cost, whether it succeeded or
// not (a failed answer may have been paid for in part).
func (c *guarded) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.StreamEvent)) (*llm.Message, error) {
	g := c.g
	o, _ := llm.OriginOf(ctx)
	limits := g.limitsFor(o)
	priced := req.Model.Price != (llm.Price{})
	if err := g.check(o, limits, priced); err != nil {
		return nil, err
	}
	msg, err := c.next.Stream(ctx, req, onEvent)
	if msg != nil {
		g.record(ctx, o, req, msg, limits)
	}
	return msg, err
}

// limitsFor lists the caps that hold for calls made for o.
func (g *Guard) limitsFor(o llm.Origin) []limit {
	if g.opts.Limits == nil {
		return nil
	}
	return limitsFor(g.opts.Limits(o.Adapter, o.Channel), o)
}

// check returns the error of a call that would start over one of limits: a cap that is
// reached. Caps in US dollars do not hold for a model without a price, whose calls cost
// nothing.
func (g *Guard) check(o llm.Origin, limits []limit, priced bool) error {
	now := g.opts.Now()
	for _, c := range limits {
		if c.money() && !priced {
			continue
		}
		spent := g.opts.Ledger.spent(c.scope, c.period(now))
		if c.of(spent) < c.cap() {
			continue
		}
		g.opts.Log.Warn("model call refused: spending cap reached", "adapter", o.Adapter, "channel", o.Channel,
			"user", o.User, "wakeUp", o.WakeUp, "cap", c.what(), "spent", c.amount(c.of(spent)))
		return &llm.Error{Kind: llm.ErrLimit, Message: c.refusal(now)}
	}
	return nil
}

// record writes the call to the ledger, and tells the admins of each cap that this call took
// past 80%.
func (g *Guard) record(ctx context.Context, o llm.Origin, req *llm.Request, msg *llm.Message, limits []limit) {
	r := Record{
		At: g.opts.Now(), Adapter: o.Adapter, Channel: o.Channel, User: o.User, WakeUp: o.WakeUp,
		Provider: msg.Provider, Model: msg.Model, Usage: msg.Usage,
	}
	if r.Provider == "" {
		r.Provider = req.Model.Provider
	}
	if r.Model == "" {
		r.Model = req.Model.ID
	}
	if r.WakeUp != "" {
		r.User = "" // the agent names a wake-up's sender, who is nobody
	}
	if r.tokens() == 0 && r.Usage.Cost.Total == 0 {
		return // nothing was paid for: the call failed before the model answered
	}
	var warnings []string
	err := g.opts.Ledger.add(r, func(get func(scope, period) Total) {
		added := Total{}.add(r)
		for _, c := range limits {
			after := c.of(get(c.scope, c.period(r.At)))
			before := after - c.of(added)
			if mark := warnAt * c.cap(); before < mark && after >= mark {
				warnings = append(warnings, c.warning(get(c.scope, c.period(r.At)), r.At))
			}
		}
	})
	if err != nil {
		g.opts.Log.Error("could not record a model call's cost", "adapter", o.Adapter, "channel", o.Channel, "err", err)
	}
	for _, w := range warnings {
		g.opts.Log.Info("spending cap nearly reached", "adapter", o.Adapter, "channel", o.Channel, "warning", w)
		if g.opts.Warn != nil && o.Adapter != "" && o.Channel != "" {
			g.opts.Warn(ctx, o.Adapter, o.Channel, w)
		}
	}
}
