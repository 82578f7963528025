package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// RetryPolicy says how often and how patiently a failed model request is retried. Only
// transient failures (rate limits, overload, 5xx, dropped connections) are retried.
type RetryPolicy struct {
	// MaxRetries is how many times a request is repeated after the first attempt.
	MaxRetries int
	// BaseDelay is the wait before the first retry; each further retry doubles it.
	BaseDelay time.Duration
	// MaxDelay caps the wait. A server that asks for a longer wait (Retry-After) is not retried.
	MaxDelay time.Duration
}

// delay returns how long to wait before retry number n (1-based) after err, and false when the
// server asked for a wait longer than the policy allows.
func (p RetryPolicy) delay(n int, err error) (time.Duration, bool) {
	var e *llm.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		if p.MaxDelay > 0 && e.RetryAfter > p.MaxDelay {
			return e.RetryAfter, false
		}
		return e.RetryAfter, true
	}
	d := p.BaseDelay << (n - 1)
	if d <= 0 || (p.MaxDelay > 0 && d > p.MaxDelay) {
		d = p.MaxDelay
	}
	return d, true
}

// streamWithRetry asks the model for one answer, retrying transient failures per policy and
// telling people about each retry. newHandler gives each attempt a fresh stream handler. On
// failure it returns the last error and whatever part of the last attempt's message arrived.
func (l *loop) streamWithRetry(ctx context.Context, req *llm.Request, newHandler func() func(llm.StreamEvent)) (*llm.Message, error) {
	for attempt := 1; ; attempt++ {
		msg, err := l.cfg.Provider.Stream(ctx, req, newHandler())
		if err == nil {
			if attempt > 1 {
				l.emit(run.Event{Type: run.RetryEnd, Attempt: attempt})
			}
			return msg, nil
		}
		if ctx.Err() != nil || !llm.Retryable(err) || attempt > l.cfg.Retry.MaxRetries {
			return msg, err
		}
		wait, ok := l.cfg.Retry.delay(attempt, err)
		if !ok {
			return msg, fmt.Errorf("%w (the server asks to wait %s before retrying)", err, wait.Round(time.Second))
		}
		l.emit(run.Event{
			Type: run.RetryStart, Attempt: attempt + 1, MaxAttempts: l.cfg.Retry.MaxRetries + 1,
			Delay: wait, ErrorMessage: err.Error(),
		})
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return msg, ctx.Err()
		case <-t.C:
		}
	}
}
