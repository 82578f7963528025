package fakellm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// post sends a raw request, as an independent client would, and returns status and body.
func post(t *testing.T, url string, header map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return res.StatusCode, res.Header, string(b)
}

var anthropicHeaders = map[string]string{"x-api-key": "k", "anthropic-version": "2023-06-01"}

func messages(srv *fakellm.Server) string { return srv.URL() + "/v1/messages" }

func completions(srv *fakellm.Server) string { return srv.OpenAIURL() + "/chat/completions" }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestAnthropicValidation(t *testing.T) {
	const tools = `"tools":[{"name":"bash","input_schema":{"type":"object"}}]`
	for _, tc := range []struct {
		name, body, want string
	}{
		{"no model", `{"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`, "model: Field required"},
		{"no max_tokens", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "max_tokens: Field required"},
		{"no messages", `{"model":"m","max_tokens":10,"messages":[]}`, "at least one message"},
		{"assistant first", `{"model":"m","max_tokens":10,"messages":[{"role":"assistant","content":"hi"}]}`, `first message must use the "user" role`},
		{"roles repeat", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`, "roles must alternate"},
		{"empty text", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`, "messages.0.content.0.text: text content blocks must be non-empty"},
		{"empty content", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[]}]}`, "non-empty content"},
		{"tool_use unanswered", `{"model":"m","max_tokens":10,` + tools + `,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"bash","input":{}}]},{"role":"user","content":"b"}]}`,
			"`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1"},
		{"stray tool_result", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"x"}]}]}`,
			"unexpected `tool_use_id` found in `tool_result` blocks: toolu_9"},
		{"tool_result after text", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"bash","input":{}}]},{"role":"user","content":[{"type":"text","text":"hi"},{"type":"tool_result","tool_use_id":"t1"}]}]}`,
			"must come before any other content"},
		{"budget too big", `{"model":"m","max_tokens":2000,"thinking":{"type":"enabled","budget_tokens":4000},"messages":[{"role":"user","content":"hi"}]}`, "`max_tokens` must be greater than `thinking.budget_tokens`"},
		{"unsigned thinking", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"thinking","thinking":"x"}]},{"role":"user","content":"b"}]}`, "signature: Field required"},
		{"too many cache breakpoints", `{"model":"m","max_tokens":10,"system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":[` +
			strings.Repeat(`{"type":"text","text":"x","cache_control":{"type":"ephemeral"}},`, 4) + `{"type":"text","text":"y"}]}]}`, "A maximum of 4 blocks with cache_control"},
		{"bad json", `{"model":`, "error parsing the body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakellm.New()
			defer srv.Close()
			srv.Default(fakellm.Text("should not be used"))
			status, _, body := post(t, messages(srv), anthropicHeaders, tc.body)
			var e struct {
				Type  string `json:"type"`
				Error struct{ Type, Message string }
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
			if status != 400 || e.Type != "error" || e.Error.Type != "invalid_request_error" || !strings.Contains(e.Error.Message, tc.want) {
				t.Errorf("got %d %s, want 400 invalid_request_error containing %q", status, body, tc.want)
			}
			if r := srv.LastRequest(); r == nil || !strings.Contains(r.Rejected, tc.want) {
				t.Errorf("recorded request = %+v", r)
			}
		})
	}
}

func TestAnthropicValidTranscriptPasses(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	srv.Default(fakellm.Text("ok"))
	body := `{"model":"m","max_tokens":10,"system":"be brief","messages":[
		{"role":"user","content":"a"},
		{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"t1","name":"bash","input":{"c":1}},{"type":"tool_use","id":"t2","name":"bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"out"}]},{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":"bad"},{"type":"text","text":"next"}]}]}`
	status, _, resp := post(t, messages(srv), anthropicHeaders, body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, resp)
	}
	r := srv.LastRequest()
	if r.System != "be brief" || r.Stream || r.LastUserText() != "next" {
		t.Errorf("decoded = %+v", r)
	}
	res := r.ToolResults()
	if len(res) != 2 || res[0].Text != "out" || !res[1].IsError || res[1].Text != "bad" {
		t.Errorf("tool results = %+v", res)
	}
	if uses := r.ToolUses(); len(uses) != 2 || string(uses[0].Input) != `{"c":1}` {
		t.Errorf("tool uses = %+v", uses)
	}
	var msg struct {
		Type       string `json:"type"`
		StopReason string `json:"stop_reason"`
		Content    []struct{ Type, Text string }
	}
	if err := json.Unmarshal([]byte(resp), &msg); err != nil || msg.Type != "message" || msg.StopReason != "end_turn" || msg.Content[0].Text != "ok" {
		t.Errorf("non-streaming answer = %s (%v)", resp, err)
	}
}

func TestAnthropicHeaders(t *testing.T) {
	srv := fakellm.New(fakellm.WithAPIKey("secret"))
	defer srv.Close()
	srv.Default(fakellm.Text("ok"))
	const body = `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
	for _, tc := range []struct {
		name   string
		header map[string]string
		status int
		want   string
	}{
		{"no key", map[string]string{"anthropic-version": "2023-06-01"}, 401, "x-api-key header is required"},
		{"wrong key", map[string]string{"x-api-key": "nope", "anthropic-version": "2023-06-01"}, 401, "invalid x-api-key"},
		{"no version", map[string]string{"x-api-key": "secret"}, 400, "anthropic-version: header is required"},
		{"bearer key", map[string]string{"Authorization": "Bearer secret", "anthropic-version": "2026-10-21"}, 200, "ok"},
	} {
		status, _, resp := post(t, messages(srv), tc.header, body)
		if status != tc.status || !strings.Contains(resp, tc.want) {
			t.Errorf("%s: %d %s, want %d %q", tc.name, status, resp, tc.status, tc.want)
		}
	}
}

func TestOpenAIValidation(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"no model", `{"messages":[{"role":"user","content":"hi"}]}`, "you must provide a model parameter"},
		{"no messages", `{"model":"m","messages":[]}`, "[] is too short - 'messages'"},
		{"unanswered call", `{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"b"}]}`,
			"The following tool_call_ids did not have response messages: call_1"},
		{"stray tool message", `{"model":"m","messages":[{"role":"user","content":"a"},{"role":"tool","tool_call_id":"call_9","content":"x"}]}`,
			"messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"},
		{"bad role", `{"model":"m","messages":[{"role":"robot","content":"a"}]}`, "Invalid value: 'robot'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakellm.New()
			defer srv.Close()
			status, _, body := post(t, completions(srv), map[string]string{"Authorization": "Bearer k"}, tc.body)
			var e struct {
				Error struct{ Message, Type string }
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatal(err)
			}
			if status != 400 || e.Error.Type != "invalid_request_error" || !strings.Contains(e.Error.Message, tc.want) {
				t.Errorf("got %d %s, want %q", status, body, tc.want)
			}
		})
	}
}

func TestOpenAIAuthAndNonStreaming(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	srv.Default(fakellm.Reply{Text: "hello", Usage: &fakellm.Usage{Input: 3, Output: 2, CacheRead: 5}})
	const body = `{"model":"gpt-4o","messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"hi"}]}]}`
	if status, _, resp := post(t, completions(srv), nil, body); status != 401 || !strings.Contains(resp, "didn't provide an API key") {
		t.Errorf("no key: %d %s", status, resp)
	}
	status, _, resp := post(t, completions(srv), map[string]string{"Authorization": "Bearer k"}, body)
	var c struct {
		Object  string
		Choices []struct {
			Message      struct{ Role, Content string }
			FinishReason string `json:"finish_reason"`
		}
		Usage struct {
			PromptTokens  int `json:"prompt_tokens"`
			PromptDetails struct {
				Cached int `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		}
	}
	if err := json.Unmarshal([]byte(resp), &c); err != nil || status != 200 || c.Object != "chat.completion" ||
		c.Choices[0].Message.Content != "hello" || c.Choices[0].FinishReason != "stop" || c.Usage.PromptTokens != 8 || c.Usage.PromptDetails.Cached != 5 {
		t.Errorf("answer %d %s (%v)", status, resp, err)
	}
	if r := srv.LastRequest(); r.System != "sys" || r.LastUserText() != "hi" {
		t.Errorf("decoded = %+v", r)
	}
}

func TestUnscriptedRequestFailsClearly(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	status, _, body := post(t, messages(srv), anthropicHeaders, `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`)
	if status != 500 || !strings.Contains(body, "no reply was scripted") {
		t.Errorf("got %d %s", status, body)
	}
	if r := srv.LastRequest(); !r.Unscripted {
		t.Errorf("request not marked unscripted: %+v", r)
	}
}

func TestUnknownPathExplainsBaseURLs(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	status, _, body := post(t, srv.URL()+"/chat/completions", nil, `{}`)
	if status != 404 || !strings.Contains(body, srv.OpenAIURL()) {
		t.Errorf("got %d %s", status, body)
	}
}

func TestScriptOrder(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	srv.Enqueue(fakellm.Text("first"), fakellm.Text("second"))
	srv.Handle(func(r *fakellm.Request) (fakellm.Reply, bool) {
		if strings.Contains(r.LastUserText(), "weather") {
			return fakellm.Text("sunny"), true
		}
		return fakellm.Reply{}, false
	})
	srv.Default(fakellm.Text("default"))
	ask := func(q string) string {
		status, _, body := post(t, messages(srv), anthropicHeaders, fmt.Sprintf(`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":%q}]}`, q))
		var m struct{ Content []struct{ Text string } }
		if err := json.Unmarshal([]byte(body), &m); err != nil || status != 200 {
			t.Fatalf("%d %s", status, body)
		}
		return m.Content[0].Text
	}
	got := []string{ask("weather?"), ask("x"), ask("weather?"), ask("x")}
	if strings.Join(got, ",") != "first,second,sunny,default" {
		t.Errorf("answers = %v", got)
	}
	if srv.Pending() != 0 {
		t.Errorf("pending = %d", srv.Pending())
	}
}

func TestStreamingChunksAndUTF8(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	srv.Enqueue(fakellm.Reply{Text: "héllo wörld — ünïcode ✓✓✓", ChunkSize: 3})
	status, h, body := post(t, messages(srv), anthropicHeaders, `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("%d %v", status, h)
	}
	var text strings.Builder
	var names []string
	for _, block := range strings.Split(strings.TrimSpace(body), "\n\n") {
		lines := strings.SplitN(block, "\n", 2)
		name := strings.TrimPrefix(lines[0], "event: ")
		names = append(names, name)
		var ev struct {
			Type  string
			Delta struct{ Type, Text string }
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(lines[1], "data: ")), &ev); err != nil || ev.Type != name {
			t.Fatalf("event %q: %v", block, err)
		}
		if ev.Delta.Type == "text_delta" {
			if !utf8Valid(ev.Delta.Text) {
				t.Errorf("delta %q splits a character", ev.Delta.Text)
			}
			text.WriteString(ev.Delta.Text)
		}
	}
	if text.String() != "héllo wörld — ünïcode ✓✓✓" {
		t.Errorf("text = %q", text.String())
	}
	if names[0] != "message_start" || names[len(names)-2] != "message_delta" || names[len(names)-1] != "message_stop" {
		t.Errorf("events = %v", names)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestWaitRequestsAndHold(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	hold := make(chan struct{})
	srv.Enqueue(fakellm.Reply{Text: "done", Hold: hold})
	done := make(chan string, 1)
	go func() {
		_, _, body := post(t, completions(srv), map[string]string{"Authorization": "Bearer k"},
			`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
		done <- body
	}()
	reqs, err := srv.WaitRequests(ctxT(t), 1)
	if err != nil || len(reqs) != 1 || reqs[0].Protocol != fakellm.OpenAI {
		t.Fatalf("WaitRequests = %v, %v", reqs, err)
	}
	close(hold)
	body := <-done
	if !strings.Contains(body, `"finish_reason":"stop"`) || !strings.HasSuffix(strings.TrimSpace(body), "data: [DONE]") {
		t.Errorf("body = %s", body)
	}
}

func TestCloseEndsHeldAnswers(t *testing.T) {
	srv := fakellm.New()
	srv.Enqueue(fakellm.Reply{Text: "x", Hold: make(chan struct{})}, fakellm.Reply{Text: "y", Delay: time.Hour})
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, messages(srv), strings.NewReader(`{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
			req.Header.Set("x-api-key", "k")
			req.Header.Set("anthropic-version", "2023-06-01")
			if res, err := http.DefaultClient.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		}()
	}
	if _, err := srv.WaitRequests(ctxT(t), 2); err != nil {
		t.Fatal(err)
	}
	srv.Close() // must not wait for the hour or the hold
	wg.Wait()
}

func TestConcurrentRequests(t *testing.T) {
	srv := fakellm.New()
	defer srv.Close()
	srv.Handle(func(r *fakellm.Request) (fakellm.Reply, bool) {
		return fakellm.Text("echo " + r.LastUserText()), true
	})
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			status, _, body := post(t, completions(srv), map[string]string{"Authorization": "Bearer k"},
				fmt.Sprintf(`{"model":"m","stream":true,"messages":[{"role":"user","content":"n%d"}]}`, i))
			if status != 200 || !strings.Contains(body, "[DONE]") {
				t.Errorf("request %d: %d %s", i, status, body)
			}
		}(i)
	}
	wg.Wait()
	if n := len(srv.Requests()); n != 20 {
		t.Errorf("recorded %d requests", n)
	}
}

func TestContextWindowOverflow(t *testing.T) {
	srv := fakellm.New(fakellm.WithContextWindow(10))
	defer srv.Close()
	srv.Default(fakellm.Text("ok"))
	long := strings.Repeat("word ", 20)
	status, _, body := post(t, messages(srv), anthropicHeaders, fmt.Sprintf(`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":%q}]}`, long))
	if status != 400 || !strings.Contains(body, "prompt is too long: 25 tokens > 10 maximum") {
		t.Errorf("anthropic: %d %s", status, body)
	}
	status, _, body = post(t, completions(srv), map[string]string{"Authorization": "Bearer k"}, fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":%q}]}`, long))
	if status != 400 || !strings.Contains(body, `"code":"context_length_exceeded"`) {
		t.Errorf("openai: %d %s", status, body)
	}
	if status, _, _ := post(t, messages(srv), anthropicHeaders, `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"short"}]}`); status != 200 {
		t.Errorf("a short request got %d", status)
	}
}
