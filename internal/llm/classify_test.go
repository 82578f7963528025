package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header http.Header
		want   time.Duration
	}{
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second},
		{http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After": {"-3"}}, 0},
		{nil, 0},
	} {
		if got := llm.RetryAfter(tc.header, now); got != tc.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestErrorFromHTTP(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		kind   llm.ErrorKind
		msg    string
	}{
		{429, `{"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens per minute"}}`, llm.ErrTransient, "Too many tokens per minute"},
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, llm.ErrTransient, "Overloaded"},
		{503, ``, llm.ErrTransient, "Service Unavailable"},
		{408, `timeout`, llm.ErrTransient, "timeout"},
		{401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, llm.ErrAuth, "Incorrect API key provided"},
		{403, `{"type":"error","error":{"type":"permission_error","message":"no"}}`, llm.ErrAuth, "no"},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}`, llm.ErrOverflow, "prompt is too long"},
		{400, `{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","code":"context_length_exceeded"}}`, llm.ErrOverflow, "context window"},
		{400, `{"error":{"message":"bad","type":"invalid_request_error","code":"context_length_exceeded"}}`, llm.ErrOverflow, "bad"},
		{413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`, llm.ErrOverflow, "maximum allowed"},
		{400, `{"detail":"Input prompt (9000 tokens) is longer than the maximum model length of 8192"}`, llm.ErrOverflow, "maximum model length"},
		{400, `{"error":"prompt too long; exceeded max context length by 120 tokens"}`, llm.ErrOverflow, "max context length"},
		{422, `{"detail":[{"msg":"field required"}]}`, llm.ErrInvalid, "field required"},
		{404, `<html>not found</html>`, llm.ErrInvalid, "Not Found"},
		{0, `{"type":"error","error":{"type":"api_error","message":"Internal"}}`, llm.ErrTransient, "Internal"},
		{0, `{"type":"error","error":{"type":"invalid_request_error","message":"nope"}}`, llm.ErrInvalid, "nope"},
		{0, `{"error":{"message":"mystery"}}`, llm.ErrTransient, "mystery"},
	} {
		e := llm.ErrorFromHTTP("test", tc.status, http.Header{"Retry-After": {"2"}}, []byte(tc.body))
		if e.Kind != tc.kind || e.Message == "" || e.Status != tc.status || e.RetryAfter != 2*time.Second {
			t.Errorf("%d %s: kind %v status %d retry %v message %q", tc.status, tc.body, e.Kind, e.Status, e.RetryAfter, e.Message)
		}
		if want := tc.msg; want != "" && !containsFold(e.Message, want) {
			t.Errorf("%d %s: message %q, want %q", tc.status, tc.body, e.Message, want)
		}
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func TestErrorFromTransport(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED), "connection refused"},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), "dropped the connection"},
		{io.ErrUnexpectedEOF, "cut off"},
		{context.DeadlineExceeded, "did not answer in time"},
		{errors.New("invalid character 'x' in SSE data"), "invalid character"},
	} {
		e := llm.ErrorFromTransport("test", tc.err)
		if e.Kind != llm.ErrTransient || e.Status != 0 || !errors.Is(e, tc.err) || !containsFold(e.Message, tc.want) || !llm.Retryable(e) {
			t.Errorf("ErrorFromTransport(%v) = %+v", tc.err, e)
		}
	}
}

func TestErrorsWrap(t *testing.T) {
	e := fmt.Errorf("attempt 2: %w", llm.ErrorFromHTTP("anthropic", 400, nil, []byte(`{"error":{"type":"invalid_request_error","message":"prompt is too long"}}`)))
	if !llm.IsOverflow(e) || llm.Retryable(e) {
		t.Errorf("wrapped overflow not recognised: %v", e)
	}
	if got := e.Error(); got != "attempt 2: anthropic API error 400: prompt is too long" {
		t.Errorf("Error() = %q", got)
	}
}

func TestStallGuard(t *testing.T) {
	ctx, g := llm.NewStallGuard(context.Background(), 10*time.Millisecond)
	defer g.Stop()
	<-ctx.Done()
	if !g.Stalled() || !errors.Is(context.Cause(ctx), llm.ErrStalled) {
		t.Errorf("guard did not report the stall: %v", context.Cause(ctx))
	}

	ctx, g = llm.NewStallGuard(context.Background(), time.Hour)
	g.Stop()
	if g.Stalled() || ctx.Err() == nil || errors.Is(context.Cause(ctx), llm.ErrStalled) {
		t.Errorf("a stopped guard: stalled %v, ctx %v", g.Stalled(), context.Cause(ctx))
	}
	if g.Limit() != time.Hour {
		t.Errorf("limit = %v", g.Limit())
	}
	if _, g := llm.NewStallGuard(context.Background(), 0); g.Limit() != llm.DefaultIdleTimeout {
		t.Errorf("default limit = %v", g.Limit())
	} else {
		g.Stop()
	}
}
