package discord

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/disgoorg/disgo/rest"
)

// buckets is the REST rate limiter mom gives disgo in place of its own, whose Wait reads a
// bucket's fields before locking it: when two posts to one channel overlap (a "Queued" note
// while a reply is being posted), the race detector reports it. It keeps, per route and
// major parameter (Discord's rate limit buckets), what the X-RateLimit-* headers of the last
// answer said, and holds a request back while its bucket is used up. A 429 comes back to the
// adapter as an error (one try), and its Retrier waits out retry_after, global and Cloudflare
// limits included, the same way for every platform.
type buckets struct {
	mu    sync.Mutex
	state map[string]*bucket
}

// bucket is what Discord said of one bucket: how many requests are left until reset.
type bucket struct {
	remaining int
	reset     time.Time
}

func newBuckets() *buckets { return &buckets{state: map[string]*bucket{}} }

var _ rest.RateLimiter = (*buckets)(nil)

// MaxRetries is one try: the adapter retries 429s itself.
func (l *buckets) MaxRetries() int { return 1 }

// Close has nothing to wait for: no request is held by the limiter.
func (l *buckets) Close(context.Context) {}

// Reset forgets every bucket.
func (l *buckets) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.state)
}

// Wait returns when a request to endpoint may go: at once while its bucket has requests
// left (taking one, so that concurrent requests do not all spend the last), otherwise when
// the bucket resets, or when ctx ends.
func (l *buckets) Wait(ctx context.Context, endpoint *rest.CompiledEndpoint) error {
	key := bucketKey(endpoint)
	for {
		l.mu.Lock()
		var wait time.Duration
		if b := l.state[key]; b != nil {
			if b.remaining > 0 || !time.Now().Before(b.reset) {
				b.remaining--
			} else {
				wait = time.Until(b.reset)
			}
		}
		l.mu.Unlock()
		if wait <= 0 {
			return nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Unlock records what the answer's headers say of the bucket: requests remaining and when it
// resets (X-RateLimit-Reset-After, in seconds, which clock differences do not skew), or for a
// 429 of the route, Retry-After.
func (l *buckets) Unlock(endpoint *rest.CompiledEndpoint, rs *http.Response) error {
	if rs == nil {
		return nil
	}
	h := rs.Header
	var b bucket
	if rs.StatusCode == http.StatusTooManyRequests {
		if h.Get("X-RateLimit-Global") != "" {
			return nil // not this bucket's doing; the Retrier waits it out
		}
		secs, err := strconv.ParseFloat(h.Get("Retry-After"), 64)
		if err != nil {
			return nil
		}
		b.reset = time.Now().Add(time.Duration(secs * float64(time.Second)))
	} else {
		remaining, err1 := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
		after, err2 := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
		if err1 != nil || err2 != nil {
			return nil // a route without a rate limit
		}
		b = bucket{remaining: remaining, reset: time.Now().Add(time.Duration(after * float64(time.Second)))}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state[bucketKey(endpoint)] = &b
	return nil
}

// bucketKey names an endpoint's bucket as disgo does: method, route and major parameter
// (the channel, guild or webhook the request is about).
func bucketKey(e *rest.CompiledEndpoint) string {
	return e.Endpoint.Method + " " + e.Endpoint.Route + " " + e.MajorParams
}
