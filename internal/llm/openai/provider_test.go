package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/openai"
)

func setup(t *testing.T, opts ...fakellm.Option) (*fakellm.Server, *openai.Provider) {
	t.Helper()
	srv := fakellm.New(opts...)
	t.Cleanup(srv.Close)
	return srv, openai.New(openai.Options{APIKey: "sk-test", BaseURL: srv.OpenAIURL()})
}

type recorder struct{ events []llm.StreamEvent }

func (r *recorder) on(ev llm.StreamEvent) { r.events = append(r.events, ev) }

func (r *recorder) joined(typ llm.StreamEventType) string {
	var b strings.Builder
	for _, ev := range r.events {
		if ev.Type == typ {
			b.WriteString(ev.Delta)
		}
	}
	return b.String()
}

func (r *recorder) count(typ llm.StreamEventType) int {
	n := 0
	for _, ev := range r.events {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

func userText(s string) llm.Message { return llm.NewUserText(s, time.Unix(1700000000, 0)) }

func request(model llm.Model, msgs ...llm.Message) *llm.Request {
	return &llm.Request{Model: model, System: "You are mom.", Messages: msgs}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestTextStreamingUsageAndCost(t *testing.T) {
	srv, p := setup(t)
	const answer = "Hello there! The weather is lovely today, isn't it?"
	srv.Enqueue(fakellm.Reply{Text: answer, Model: "gpt-4o-2024-08-06", Usage: &fakellm.Usage{Input: 100, Output: 20, CacheRead: 1000}})
	var rec recorder
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), userText("hi")), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.joined(llm.EventTextDelta); got != answer || rec.count(llm.EventTextDelta) < 2 {
		t.Errorf("deltas = %q in %d events", got, rec.count(llm.EventTextDelta))
	}
	if msg.Text() != answer || msg.StopReason != llm.StopEnd || msg.API != "openai-completions" || msg.Provider != "openai" ||
		msg.Model != "gpt-4o-2024-08-06" || msg.Timestamp == 0 {
		t.Errorf("message = %+v", msg)
	}
	u := msg.Usage
	if u.Input != 100 || u.CacheRead != 1000 || u.Output != 20 || u.TotalTokens != 1120 {
		t.Errorf("usage = %+v", u)
	}
	if want := (100*2.5 + 20*10 + 1000*1.25) / 1e6; math.Abs(u.Cost.Total-want) > 1e-12 {
		t.Errorf("cost = %v, want %v", u.Cost.Total, want)
	}
	sent := srv.LastRequest()
	var body struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Messages []map[string]any `json:"messages"`
	}
	if err := sent.Decode(&body); err != nil {
		t.Fatal(err)
	}
	if !body.StreamOptions.IncludeUsage || !sent.Stream || sent.System != "You are mom." || body.Messages[0]["role"] != "system" {
		t.Errorf("request = %s", sent.Body)
	}
	if sent.Header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("Authorization = %q", sent.Header.Get("Authorization"))
	}
}

func TestUnknownModelCostsNothing(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Text: "ok", Usage: &fakellm.Usage{Input: 10, Output: 5}})
	req := request(llm.Lookup("openai", "qwen3:8b"), userText("hi"))
	req.MaxTokens = 1000
	msg, err := p.Stream(ctxT(t), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Usage.Input != 10 || msg.Usage.Output != 5 || msg.Usage.Cost.Total != 0 {
		t.Errorf("usage = %+v", msg.Usage)
	}
	var body map[string]any
	if err := srv.LastRequest().Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body["max_tokens"] != 1000.0 || body["max_completion_tokens"] != nil {
		t.Errorf("an unknown model should get max_tokens: %v", body)
	}
}

func TestMaxCompletionTokensForKnownModels(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("ok"))
	req := request(llm.Lookup("openai", "o3"), userText("hi"))
	req.MaxTokens = 2000
	if _, err := p.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := srv.LastRequest().Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body["max_completion_tokens"] != 2000.0 || body["max_tokens"] != nil {
		t.Errorf("body = %v", body)
	}
}

func TestToolCalls(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{
		ToolCalls: []fakellm.ToolCall{
			{ID: "call_A", Name: "bash", Args: map[string]any{"command": "ls -la /workspace"}},
			{Name: "read", Args: map[string]any{"path": "/workspace/MEMORY.md"}},
		},
		ChunkSize: 6,
	})
	req := request(llm.Lookup("openai", "gpt-4.1"), userText("look"))
	req.Tools = []llm.Tool{
		{Name: "bash", Description: "Run a command", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
		{Name: "read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
	}
	var rec recorder
	msg, err := p.Stream(ctxT(t), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	calls := msg.ToolCalls()
	if msg.StopReason != llm.StopToolUse || len(calls) != 2 || calls[0].ID != "call_A" || calls[1].Name != "read" || !strings.HasPrefix(calls[1].ID, "call_") {
		t.Fatalf("message = %+v", msg)
	}
	if string(calls[1].Arguments) != `{"path":"/workspace/MEMORY.md"}` {
		t.Errorf("arguments = %s", calls[1].Arguments)
	}
	fragments := map[int]int{}
	starts := 0
	for _, ev := range rec.events {
		switch ev.Type {
		case llm.EventToolCallStart:
			starts++
			if ev.ToolName == "" || ev.ToolCallID == "" {
				t.Errorf("start without id or name: %+v", ev)
			}
		case llm.EventToolCallDelta:
			fragments[ev.Index]++
		}
	}
	if starts != 2 || fragments[0] < 2 || fragments[1] < 2 {
		t.Errorf("starts %d, fragments %v", starts, fragments)
	}
	if got := srv.LastRequest().Tools; strings.Join(got, ",") != "bash,read" {
		t.Errorf("tools = %v", got)
	}
}

func TestStopWithToolCallsMeansToolUse(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("bash", map[string]string{"command": "ls"})}, StopReason: "stop"})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "llama3.1"), userText("hi")), nil)
	if err != nil || msg.StopReason != llm.StopToolUse {
		t.Fatalf("msg %+v err %v, want toolUse", msg, err)
	}
}

func TestStopReasons(t *testing.T) {
	for reason, want := range map[string]llm.StopReason{"length": llm.StopLength, "refusal": llm.StopError, "stop": llm.StopEnd} {
		srv, p := setup(t)
		srv.Enqueue(fakellm.Reply{Text: "x", StopReason: reason})
		msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), userText("hi")), nil)
		if err != nil || msg.StopReason != want {
			t.Errorf("%s: msg %+v err %v, want %s", reason, msg, err, want)
		}
	}
}

func TestInvalidToolArgumentsBecomeEmptyObject(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{ToolCalls: []fakellm.ToolCall{{Name: "bash", Args: `{"command": "ls`}}})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), userText("go")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if calls := msg.ToolCalls(); len(calls) != 1 || string(calls[0].Arguments) != "{}" {
		t.Errorf("calls = %+v", calls)
	}
}

func TestReasoningFields(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			srv, p := setup(t)
			srv.Enqueue(fakellm.Reply{Thinking: "Two plus two is four.", Text: "4", ReasoningField: field})
			req := request(llm.Lookup("openai", "deepseek-reasoner"), userText("2+2?"))
			req.Thinking = llm.ThinkingHigh
			var rec recorder
			msg, err := p.Stream(ctxT(t), req, rec.on)
			if err != nil {
				t.Fatal(err)
			}
			if rec.joined(llm.EventThinkingDelta) != "Two plus two is four." || rec.count(llm.EventThinkingDelta) < 2 {
				t.Errorf("thinking deltas = %q", rec.joined(llm.EventThinkingDelta))
			}
			if len(msg.Content) != 2 || msg.Content[0].Thinking != "Two plus two is four." || msg.Content[1].Text != "4" {
				t.Errorf("content = %+v", msg.Content)
			}
			for _, ev := range rec.events {
				if ev.Type == llm.EventTextDelta && ev.Index != 1 {
					t.Errorf("text delta index = %d, want 1", ev.Index)
				}
			}
			if got := srv.LastRequest().Effort; got != "high" {
				t.Errorf("reasoning_effort = %q, want high for an unknown model", got)
			}
		})
	}
}

func TestReasoningEffortOnlyForReasoningModels(t *testing.T) {
	for _, tc := range []struct {
		id    string
		level llm.ThinkingLevel
		want  string
	}{{"o4-mini", llm.ThinkingLow, "low"}, {"gpt-5", llm.ThinkingMedium, "medium"}, {"gpt-4o", llm.ThinkingHigh, ""}, {"o3", llm.ThinkingOff, ""}} {
		srv, p := setup(t)
		srv.Default(fakellm.Text("ok"))
		req := request(llm.Lookup("openai", tc.id), userText("hi"))
		req.Thinking = tc.level
		if _, err := p.Stream(ctxT(t), req, nil); err != nil {
			t.Fatal(err)
		}
		if got := srv.LastRequest().Effort; got != tc.want {
			t.Errorf("%s %s: reasoning_effort = %q, want %q", tc.id, tc.level, got, tc.want)
		}
	}
}

func TestContextCancelledDuringHeldStream(t *testing.T) {
	srv, p := setup(t)
	hold := make(chan struct{})
	defer close(hold)
	srv.Enqueue(fakellm.Reply{Text: "partial answer", Hold: hold})
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	gotText := make(chan struct{})
	type result struct {
		msg *llm.Message
		err error
	}
	done := make(chan result, 1)
	go func() {
		msg, err := p.Stream(ctx, request(llm.Lookup("openai", "gpt-4o"), userText("hi")), func(ev llm.StreamEvent) {
			if ev.Type == llm.EventTextDelta && strings.HasSuffix(ev.Delta, "answer") {
				close(gotText)
			}
		})
		done <- result{msg, err}
	}()
	<-gotText
	cancel()
	r := <-done
	if !errors.Is(r.err, context.Canceled) {
		t.Fatalf("err = %v", r.err)
	}
	if r.msg == nil || r.msg.Text() != "partial answer" || r.msg.StopReason != llm.StopAborted {
		t.Errorf("partial = %+v", r.msg)
	}
}
