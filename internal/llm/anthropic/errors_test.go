package anthropic_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
)

// streamErr sends one request and returns the classified error.
func streamErr(t *testing.T, p *anthropic.Provider) (*llm.Message, *llm.Error) {
	t.Helper()
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("hi")), nil)
	if err == nil {
		t.Fatalf("Stream succeeded, want an error")
	}
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %T %v, want *llm.Error", err, err)
	}
	return msg, e
}

func TestErrorClassification(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  fakellm.Reply
		opts   []fakellm.Option
		kind   llm.ErrorKind
		status int
		retry  time.Duration
		msg    string
	}{
		{"429 retry-after seconds", fakellm.RateLimited("7"), nil, llm.ErrTransient, 429, 7 * time.Second, "rate limit"},
		{"529 overloaded", fakellm.Overloaded(), nil, llm.ErrTransient, 529, 0, "Overloaded"},
		{"500", fakellm.Fail(500, "", ""), nil, llm.ErrTransient, 500, 0, "Internal server error"},
		{"401", fakellm.Fail(401, "", ""), nil, llm.ErrAuth, 401, 0, "invalid x-api-key"},
		{"403", fakellm.Fail(403, "", ""), nil, llm.ErrAuth, 403, 0, "permission"},
		{"400", fakellm.Fail(400, "invalid_request_error", "messages.0.content: bad"), nil, llm.ErrInvalid, 400, 0, "messages.0.content: bad"},
		{"404 model", fakellm.Fail(404, "not_found_error", "model: claude-nope"), nil, llm.ErrInvalid, 404, 0, "model: claude-nope"},
		{"overflow", fakellm.Overflow(), nil, llm.ErrOverflow, 400, 0, "prompt is too long"},
		{"overflow from max_tokens", fakellm.Fail(400, "invalid_request_error", "input length and `max_tokens` exceed context limit: 190000 + 21333 > 200000, decrease input length or `max_tokens` and try again"), nil, llm.ErrOverflow, 400, 0, "exceed context limit"},
		{"413 request too large", fakellm.Fail(413, "", ""), nil, llm.ErrOverflow, 413, 0, "maximum allowed number of bytes"},
		{"context window option", fakellm.Text("never sent"), []fakellm.Option{fakellm.WithContextWindow(2)}, llm.ErrOverflow, 400, 0, "prompt is too long"},
		{"SSE error event", fakellm.Reply{Text: "half an ans", StreamError: &fakellm.APIError{Type: "overloaded_error", Message: "Overloaded"}}, nil, llm.ErrTransient, 0, 0, "Overloaded"},
		{"SSE invalid request", fakellm.Reply{StreamError: &fakellm.APIError{Type: "invalid_request_error", Message: "bad thing"}}, nil, llm.ErrInvalid, 0, 0, "bad thing"},
		{"stream cut", fakellm.Reply{Text: "a long answer that is cut", CutAfter: 4}, nil, llm.ErrTransient, 0, 0, "cut off"},
		{"cut before any event", fakellm.Reply{Text: "x", CutAfter: -1}, nil, llm.ErrTransient, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, p := setup(t, tc.opts...)
			srv.Enqueue(tc.reply)
			msg, e := streamErr(t, p)
			if e.Kind != tc.kind || e.Status != tc.status || e.RetryAfter != tc.retry {
				t.Errorf("error = kind %v status %d retry %v (%v); want %v %d %v", e.Kind, e.Status, e.RetryAfter, e, tc.kind, tc.status, tc.retry)
			}
			if !strings.Contains(strings.ToLower(e.Message), strings.ToLower(tc.msg)) {
				t.Errorf("message = %q, want it to contain %q", e.Message, tc.msg)
			}
			if e.Provider != "anthropic" {
				t.Errorf("provider = %q", e.Provider)
			}
			if msg == nil || msg.StopReason != llm.StopError || msg.ErrorMessage == "" {
				t.Errorf("partial message = %+v, want stop reason error with a message", msg)
			}
		})
	}
}

func TestSSEErrorKeepsPartialText(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Text: "half an answer", StreamError: &fakellm.APIError{Type: "overloaded_error", Message: "Overloaded"}})
	msg, _ := streamErr(t, p)
	if msg.Text() != "half an answer" {
		t.Errorf("partial text = %q", msg.Text())
	}
}

func TestRetryAfterMilliseconds(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Error: &fakellm.APIError{Status: 429, Header: http.Header{"Retry-After-Ms": {"1500"}}}})
	_, e := streamErr(t, p)
	if e.RetryAfter != 1500*time.Millisecond {
		t.Errorf("RetryAfter = %v, want 1.5s", e.RetryAfter)
	}
}

func TestWrongKeyIsAuthError(t *testing.T) {
	srv := fakellm.New(fakellm.WithAPIKey("right"))
	defer srv.Close()
	p := anthropic.New(anthropic.Options{APIKey: "wrong", BaseURL: srv.URL()})
	_, e := streamErr(t, p)
	if e.Kind != llm.ErrAuth || e.Message != "invalid x-api-key" {
		t.Errorf("error = %v (%v)", e, e.Kind)
	}
}

func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	p := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: "http://" + addr})
	msg, e := streamErr(t, p)
	if e.Kind != llm.ErrTransient || e.Status != 0 || !strings.Contains(e.Message, "connection refused") {
		t.Errorf("error = %v (kind %v status %d)", e, e.Kind, e.Status)
	}
	if msg == nil || len(msg.Content) != 0 {
		t.Errorf("message = %+v, want an empty partial", msg)
	}
}

func TestStallIsTransient(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	hold := make(chan struct{})
	defer close(hold)
	srv.Enqueue(fakellm.Reply{Text: "thinking…", Hold: hold})
	p := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL(), IdleTimeout: 50 * time.Millisecond})
	_, e := streamErr(t, p)
	if e.Kind != llm.ErrTransient || !errors.Is(e, llm.ErrStalled) {
		t.Errorf("error = %v, want a transient stall", e)
	}
}

// TestStreamEndedEarly uses a server that closes a well-formed stream before message_stop, as
// a proxy that times out might; the fake always cuts abruptly.
func TestStreamEndedEarly(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n")
		fmt.Fprint(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
		fmt.Fprint(w, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n")
	}))
	defer ts.Close()
	p := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: ts.URL})
	msg, e := streamErr(t, p)
	if e.Kind != llm.ErrTransient || !errors.Is(e, llm.ErrStreamEndedEarly) {
		t.Errorf("error = %v, want stream ended early", e)
	}
	if msg.Text() != "Hel" || msg.Usage.Input != 3 {
		t.Errorf("partial = %+v", msg)
	}
}

func TestEnvironmentIsIgnored(t *testing.T) {
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_API_KEY", "env-key")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "env-token")
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-Leaked: yes")
	t.Setenv("ANTHROPIC_PROFILE", "no-such-profile")
	t.Setenv("ANTHROPIC_CONFIG_DIR", t.TempDir())

	t.Run("with a key", func(t *testing.T) {
		srv := fakellm.New(fakellm.WithAPIKey("config-key"))
		defer srv.Close()
		srv.Default(fakellm.Text("ok"))
		p := anthropic.New(anthropic.Options{APIKey: "config-key", BaseURL: srv.URL()})
		if _, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("hi")), nil); err != nil {
			t.Fatal(err)
		}
		h := srv.LastRequest().Header
		if h.Get("X-Api-Key") != "config-key" || h.Get("Authorization") != "" || h.Get("X-Leaked") != "" {
			t.Errorf("headers = %v", h)
		}
	})
	t.Run("without a key", func(t *testing.T) {
		srv := fakellm.New(fakellm.AcceptNoKey())
		defer srv.Close()
		srv.Default(fakellm.Text("ok"))
		p := anthropic.New(anthropic.Options{BaseURL: srv.URL()})
		if _, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("hi")), nil); err != nil {
			t.Fatal(err)
		}
		h := srv.LastRequest().Header
		if h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" {
			t.Errorf("a key was sent: %v", h)
		}
	})
}
