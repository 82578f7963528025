package llm

import "context"

// Origin is who a model call is made for: the channel of the run that makes it, and the
// person whose message started the run (none for a wake-up). The agent puts it in the
// context of every call, so that what wraps a Provider (spending caps, the ledger, metrics)
// can tell calls apart without the Request carrying it.
type Origin struct {
	// Adapter and Channel name the channel, as store keys do ("slack-acme", "C0123").
	Adapter, Channel string
	// User is the platform id of the person whose message started the run; "" for a run a
	// wake-up started.
	User string
	// WakeUp names the wake-up file that started the run, if one did.
	WakeUp string
}

// originKey is the context key of an Origin.
type originKey struct{}

// WithOrigin returns ctx carrying o.
func WithOrigin(ctx context.Context, o Origin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// OriginOf returns the Origin ctx carries, and whether it carries one.
func OriginOf(ctx context.Context) (Origin, bool) {
	o, ok := ctx.Value(originKey{}).(Origin)
	return o, ok
}
