package openai_test

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
	"github.com/mom-agent/mom/internal/llm/openai"
)

func streamErr(t *testing.T, p *openai.Provider) (*llm.Message, *llm.Error) {
	t.Helper()
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), userText("hi")), nil)
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
		{"429 retry-after seconds", fakellm.RateLimited("7"), nil, llm.ErrTransient, 429, 7 * time.Second, "Rate limit reached"},
		{"503 overloaded", fakellm.Overloaded(), nil, llm.ErrTransient, 503, 0, "overloaded"},
		{"500", fakellm.Fail(500, "", ""), nil, llm.ErrTransient, 500, 0, "error while processing"},
		{"401", fakellm.Fail(401, "", ""), nil, llm.ErrAuth, 401, 0, "Incorrect API key"},
		{"400", fakellm.Fail(400, "invalid_request_error", "Invalid value for 'tools'"), nil, llm.ErrInvalid, 400, 0, "Invalid value for 'tools'"},
		{"overflow", fakellm.Overflow(), nil, llm.ErrOverflow, 400, 0, "context window"},
		{"context window option", fakellm.Text("never"), []fakellm.Option{fakellm.WithContextWindow(2)}, llm.ErrOverflow, 400, 0, "context window"},
		{"SSE error event", fakellm.Reply{Text: "half an ans", StreamError: &fakellm.APIError{Type: "server_error", Message: "The server had an error"}}, nil, llm.ErrTransient, 0, 0, "The server had an error"},
		{"stream cut", fakellm.Reply{Text: "a long answer that is cut", CutAfter: 3}, nil, llm.ErrTransient, 0, 0, "cut off"},
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
			if e.Provider != "openai" || msg == nil || msg.StopReason != llm.StopError {
				t.Errorf("provider %q, partial %+v", e.Provider, msg)
			}
		})
	}
}

// TestCompatibleServerErrorBodies checks the error shapes of servers other than OpenAI: a
// message at the top level (vLLM), a bare string (Ollama), plain text from a proxy.
func TestCompatibleServerErrorBodies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		kind   llm.ErrorKind
		msg    string
	}{
		{"vLLM", 400, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","param":null,"code":400}`, llm.ErrOverflow, "maximum context length is 4096"},
		{"llama.cpp", 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}`, llm.ErrOverflow, "exceeds the available context size"},
		{"Ollama", 404, `{"error":"model \"llama9\" not found, try pulling it first"}`, llm.ErrInvalid, "not found, try pulling"},
		{"OpenRouter", 400, `{"error":{"message":"This endpoint's maximum context length is 131072 tokens. However, you requested about 140000 tokens.","code":400}}`, llm.ErrOverflow, "maximum context length"},
		{"plain text 502", 502, "Bad Gateway", llm.ErrTransient, "Bad Gateway"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			}))
			defer ts.Close()
			_, e := streamErr(t, openai.New(openai.Options{BaseURL: ts.URL + "/v1"}))
			if e.Kind != tc.kind || e.Status != tc.status || !strings.Contains(e.Message, tc.msg) {
				t.Errorf("error = kind %v status %d message %q", e.Kind, e.Status, e.Message)
			}
		})
	}
}

func TestWrongKeyIsAuthError(t *testing.T) {
	srv := fakellm.New(fakellm.WithAPIKey("right"))
	defer srv.Close()
	_, e := streamErr(t, openai.New(openai.Options{APIKey: "wrong", BaseURL: srv.OpenAIURL()}))
	if e.Kind != llm.ErrAuth || e.Status != 401 {
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
	_, e := streamErr(t, openai.New(openai.Options{BaseURL: "http://" + addr + "/v1"}))
	if e.Kind != llm.ErrTransient || e.Status != 0 || !strings.Contains(e.Message, "connection refused") {
		t.Errorf("error = %v", e)
	}
}

func TestStallIsTransient(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	hold := make(chan struct{})
	defer close(hold)
	srv.Enqueue(fakellm.Reply{Text: "thinking…", Hold: hold})
	p := openai.New(openai.Options{APIKey: "k", BaseURL: srv.OpenAIURL(), IdleTimeout: 50 * time.Millisecond})
	_, e := streamErr(t, p)
	if e.Kind != llm.ErrTransient || !errors.Is(e, llm.ErrStalled) {
		t.Errorf("error = %v, want a transient stall", e)
	}
}

// TestStreamWithoutFinishReason uses a server that ends a well-formed stream, [DONE] and
// all, without ever giving a finish_reason.
func TestStreamWithoutFinishReason(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer ts.Close()
	msg, e := streamErr(t, openai.New(openai.Options{BaseURL: ts.URL + "/v1"}))
	if e.Kind != llm.ErrTransient || !errors.Is(e, llm.ErrStreamEndedEarly) || msg.Text() != "Hel" {
		t.Errorf("error = %v, partial %+v", e, msg)
	}
}

func TestEnvironmentIsIgnored(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_API_KEY", "env-key")
	t.Setenv("OPENAI_ADMIN_KEY", "env-admin")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leaked: yes")

	srv := fakellm.New(fakellm.AcceptNoKey())
	defer srv.Close()
	srv.Default(fakellm.Text("ok"))
	for _, key := range []string{"config-key", ""} {
		p := openai.New(openai.Options{APIKey: key, BaseURL: srv.OpenAIURL()})
		if _, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), userText("hi")), nil); err != nil {
			t.Fatal(err)
		}
		h := srv.LastRequest().Header
		wantAuth := ""
		if key != "" {
			wantAuth = "Bearer " + key
		}
		if h.Get("Authorization") != wantAuth || h.Get("OpenAI-Organization") != "" || h.Get("OpenAI-Project") != "" || h.Get("X-Leaked") != "" {
			t.Errorf("key %q: headers = %v", key, h)
		}
	}
}
