package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

// Provider wraps p so that every model call is counted by model and result, timed, and its
// tokens and cost added up by model: the agent's answers, its retries, and the summaries of
// compaction alike. A nil p stays nil (no key configured).
func (m *Metrics) Provider(p llm.Provider) llm.Provider {
	if p == nil {
		return nil
	}
	return &countedProvider{next: p, m: m}
}

// countedProvider is a Provider that counts the calls it passes on.
type countedProvider struct {
	next llm.Provider
	m    *Metrics
}

// Stream passes the call on and counts it.
func (c *countedProvider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.StreamEvent)) (*llm.Message, error) {
	began := time.Now()
	msg, err := c.next.Stream(ctx, req, onEvent)
	model := req.Model.Provider + "/" + req.Model.ID
	c.m.counter("mom_model_calls_total", "model", model, "result", callResult(ctx, err)).Inc()
	observe(c.m.histogram("mom_model_call_duration_seconds", modelBuckets, "model", model), time.Since(began))
	if msg != nil {
		c.m.usage(model, msg.Usage)
	}
	return msg, err
}

// usage adds a message's tokens and cost to the model's counters.
func (m *Metrics) usage(model string, u llm.Usage) {
	for kind, n := range map[string]int{"input": u.Input, "output": u.Output, "cache_read": u.CacheRead, "cache_write": u.CacheWrite} {
		if n > 0 {
			m.counter("mom_model_tokens_total", "model", model, "kind", kind).Add(n)
		}
	}
	if u.Cost.Total > 0 {
		m.floatCounter("mom_model_cost_usd_total", "model", model).Add(u.Cost.Total)
	}
}

// callResult names how a model call ended: "ok", "aborted", or the kind of failure
// ("transient", "auth", "overflow", "invalid"), or "error" for one the provider did not sort.
func callResult(ctx context.Context, err error) string {
	var e *llm.Error
	switch {
	case err == nil:
		return "ok"
	case ctx.Err() != nil:
		return "aborted"
	case errors.As(err, &e):
		return e.Kind.String()
	}
	return "error"
}
