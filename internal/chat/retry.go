package chat

import (
	"context"
	"fmt"
	"time"
)

// maxRateWait caps one wait for a platform's rate limit, so a confused Retry-After cannot
// park a reply for an hour.
const maxRateWait = time.Minute

// RetryRateLimited calls fn until it succeeds, fails for a reason other than rate limiting, has
// been tried attempts times, or ctx ends. retryAfter reports whether an error is the platform
// asking to slow down, and for how long; every platform has its own error type for it (Slack's
// Retry-After header, Discord's retry_after, Telegram's parameters.retry_after).
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
