package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// DefaultIdleTimeout is how long a model server may send nothing before a request counts as
// stalled. Long enough for a model that thinks for minutes while the server sends keep-alive
// pings (pings are bytes, so they count), short enough that a dead connection does not hold a
// channel forever.
const DefaultIdleTimeout = 5 * time.Minute

// ErrStalled is the cause of a request that StallGuard abandoned.
var ErrStalled = errors.New("the model server stopped sending data")

// StallGuard abandons a request when its response sends no bytes for a while. The SDKs have a
// deadline for the whole request or none at all; an answer may legitimately stream for an
// hour, so the only sound limit is on silence.
//
// Use: ctx, g := NewStallGuard(ctx, limit); defer g.Stop(); pass ctx to the SDK call and
// g.Middleware as a per-request middleware; after a failure, g.Stalled() tells a stall from
// the caller's own cancellation.
type StallGuard struct {
	limit   time.Duration
	timer   *time.Timer
	stalled atomic.Bool
	cancel  context.CancelCauseFunc
}

// NewStallGuard returns a context that ends when no bytes arrived for limit (zero means
// DefaultIdleTimeout), and the guard that watches it. The clock starts now, so a server that
// accepts the connection and never answers is caught too.
func NewStallGuard(ctx context.Context, limit time.Duration) (context.Context, *StallGuard) {
	if limit <= 0 {
		limit = DefaultIdleTimeout
	}
	ctx, cancel := context.WithCancelCause(ctx)
	g := &StallGuard{limit: limit, cancel: cancel}
	g.timer = time.AfterFunc(limit, func() {
		g.stalled.Store(true)
		cancel(ErrStalled)
	})
	return ctx, g
}

// Middleware watches the response body of the request it wraps; its signature matches the
// Anthropic SDK's middleware option, and the OpenAI client calls it with its HTTP client's Do.
func (g *StallGuard) Middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	g.touch()
	if res != nil && res.Body != nil {
		res.Body = &watchedBody{ReadCloser: res.Body, g: g}
	}
	return res, err
}

// Stalled reports whether the guard abandoned the request.
func (g *StallGuard) Stalled() bool { return g.stalled.Load() }

// Limit is the silence the guard tolerates.
func (g *StallGuard) Limit() time.Duration { return g.limit }

// Stop releases the guard's timer and context.
func (g *StallGuard) Stop() {
	g.timer.Stop()
	g.cancel(nil)
}

func (g *StallGuard) touch() {
	if !g.stalled.Load() {
		g.timer.Reset(g.limit)
	}
}

// watchedBody is a response body that keeps its guard's clock from running out while bytes
// arrive.
type watchedBody struct {
	io.ReadCloser
	g *StallGuard
}

// Read reads from the body and resets the guard's clock when bytes arrived.
func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.g.touch()
	}
	return n, err
}
