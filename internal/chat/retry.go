package chat

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// maxRateWait caps one wait for a platform's rate limit, so a confused Retry-After cannot
// park a reply for an hour.
const maxRateWait = time.Minute

// RetryRateLimited calls fn until it succeeds, fails for a reason other than rate limiting, has
// been tried attempts times, or ctx ends. retryAfter reports whether an error is the platform
// asking to slow down, and for how long; every platform has its own error type for it (a
// Retry-After header, a retry_after field in the body of the answer).
func RetryRateLimited(ctx context.Context, attempts int, retryAfter func(error) (time.Duration, bool), fn func() error) error {
	for i := 1; ; i++ {
		err := fn()
		if err == nil {
			return nil
		}
		wait, limited := retryAfter(err)
		if !limited || i >= attempts {
			return err
		}
		wait = min(max(wait, 100*time.Millisecond), maxRateWait)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (gave up waiting out a rate limit: %w)", err, ctx.Err())
		}
	}
}

// RateAttempts is how often an adapter tries a call the platform keeps rate-limiting.
const RateAttempts = 6

// Retrier retries one platform's calls while the platform asks to slow down, and logs each
// pause it asks for.
type Retrier struct {
	// Platform names the platform in the log, as people know it.
	Platform string
	// Log receives the pauses, at debug level.
	Log *slog.Logger
	// RetryAfter reports whether an error is the platform's "slow down", and for how long.
	RetryAfter func(error) (time.Duration, bool)
}

// Do calls fn until it succeeds, fails for another reason, or has been tried RateAttempts
// times (RetryRateLimited).
func (r Retrier) Do(ctx context.Context, fn func() error) error {
	return RetryRateLimited(ctx, RateAttempts, func(err error) (time.Duration, bool) {
		d, ok := r.RetryAfter(err)
		if ok {
			r.Log.Debug(r.Platform+" asked to slow down", "retryAfter", d)
		}
		return d, ok
	}, fn)
}
