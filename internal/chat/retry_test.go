package chat

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

type limited struct{ after time.Duration }

func (l limited) Error() string { return "rate limited" }

func retryAfter(err error) (time.Duration, bool) {
	var l limited
	if errors.As(err, &l) {
		return l.after, true
	}
	return 0, false
}

func TestRetryRateLimited(t *testing.T) {
	calls := 0
	err := RetryRateLimited(context.Background(), 5, retryAfter, func() error {
		calls++
		if calls < 3 {
			return limited{time.Millisecond}
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("err %v after %d calls; want success on the third", err, calls)
	}

	calls = 0
	boom := errors.New("channel_not_found")
	err = RetryRateLimited(context.Background(), 5, retryAfter, func() error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 1 {
		t.Errorf("a plain failure was retried: %v after %d calls", err, calls)
	}

	calls = 0
	err = RetryRateLimited(context.Background(), 2, retryAfter, func() error { calls++; return limited{time.Millisecond} })
	if !errors.As(err, new(limited)) || calls != 2 {
		t.Errorf("attempts not honoured: %v after %d calls", err, calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = RetryRateLimited(ctx, 5, retryAfter, func() error { return limited{time.Hour} })
	if !errors.Is(err, context.Canceled) || !errors.As(err, new(limited)) {
		t.Errorf("a cancelled wait should say both why it waited and why it stopped: %v", err)
	}
}

func TestRetrierLogsPausesAndGivesUp(t *testing.T) {
	var log strings.Builder
	r := Retrier{Platform: "Slack", Log: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		RetryAfter: retryAfter}
	calls := 0
	err := r.Do(context.Background(), func() error { calls++; return limited{time.Millisecond} })
	if !errors.As(err, new(limited)) || calls != RateAttempts {
		t.Errorf("err %v after %d calls; want the rate limit after %d", err, calls, RateAttempts)
	}
	if n := strings.Count(log.String(), "Slack asked to slow down"); n != RateAttempts {
		t.Errorf("%d pauses logged, want %d:\n%s", n, RateAttempts, log.String())
	}
}
