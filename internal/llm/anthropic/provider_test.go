package anthropic_test

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
	"github.com/mom-agent/mom/internal/llm/anthropic"
)

// setup starts a fake server and a provider pointed at it.
func setup(t *testing.T, opts ...fakellm.Option) (*fakellm.Server, *anthropic.Provider) {
	t.Helper()
	srv := fakellm.New(opts...)
	t.Cleanup(srv.Close)
	return srv, anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL()})
}

// recorder collects stream events.
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

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestTextStreamingUsageAndCost(t *testing.T) {
	srv, p := setup(t)
	const answer = "Hello there! The weather is lovely today, isn't it?"
	srv.Enqueue(fakellm.Reply{Text: answer, Usage: &fakellm.Usage{Input: 100, Output: 20, CacheRead: 1000, CacheWrite: 500}})
	model := llm.Lookup("anthropic", "claude-sonnet-4-5-20250929")
	var rec recorder
	msg, err := p.Stream(ctxT(t), request(model, userText("hi")), rec.on)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if got := rec.joined(llm.EventTextDelta); got != answer {
		t.Errorf("deltas joined = %q, want %q", got, answer)
	}
	if n := rec.count(llm.EventTextDelta); n < 2 {
		t.Errorf("got %d text deltas, want the answer in several", n)
	}
	for _, ev := range rec.events {
		if ev.Index != 0 {
			t.Errorf("event %+v has index %d, want 0", ev, ev.Index)
		}
	}
	if msg.Text() != answer || msg.StopReason != llm.StopEnd || msg.Role != llm.RoleAssistant {
		t.Errorf("message = %+v", msg)
	}
	if msg.API != "anthropic-messages" || msg.Provider != "anthropic" || msg.Model != "claude-sonnet-4-5-20250929" || msg.Timestamp == 0 {
		t.Errorf("message metadata = api %q provider %q model %q ts %d", msg.API, msg.Provider, msg.Model, msg.Timestamp)
	}
	u := msg.Usage
	if u.Input != 100 || u.Output != 20 || u.CacheRead != 1000 || u.CacheWrite != 500 || u.TotalTokens != 1620 {
		t.Errorf("usage = %+v", u)
	}
	want := (100*3 + 20*15 + 1000*0.3 + 500*3.75) / 1e6
	if !near(u.Cost.Total, want) || !near(u.Cost.CacheWrite, 500*3.75/1e6) {
		t.Errorf("cost = %+v, want total %v", u.Cost, want)
	}
}

func TestUnknownModelCostsNothing(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Text: "ok", Usage: &fakellm.Usage{Input: 10, Output: 5}})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-next-preview"), userText("hi")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Usage.Input != 10 || msg.Usage.Output != 5 || msg.Usage.Cost.Total != 0 {
		t.Errorf("usage = %+v, want counts and zero cost", msg.Usage)
	}
	if got := srv.LastRequest().MaxTokens; got != 8192 {
		t.Errorf("max_tokens for an unknown model = %d, want 8192", got)
	}
}

func TestToolCalls(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{
		Text: "Let me check.",
		ToolCalls: []fakellm.ToolCall{
			{ID: "toolu_A", Name: "bash", Args: map[string]any{"command": "ls -la /workspace", "label": "list files"}},
			{Name: "read", Args: map[string]any{"path": "/workspace/MEMORY.md"}},
		},
		ChunkSize: 5,
	})
	req := request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("what's here?"))
	req.Tools = []llm.Tool{
		{Name: "bash", Description: "Run a command", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
		{Name: "read", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
	}
	var rec recorder
	msg, err := p.Stream(ctxT(t), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != llm.StopToolUse {
		t.Errorf("stop reason = %q, want toolUse", msg.StopReason)
	}
	calls := msg.ToolCalls()
	if len(calls) != 2 || calls[0].ID != "toolu_A" || calls[0].Name != "bash" || calls[1].Name != "read" || !strings.HasPrefix(calls[1].ID, "toolu_") {
		t.Fatalf("tool calls = %+v", calls)
	}
	var args map[string]string
	if err := json.Unmarshal(calls[0].Arguments, &args); err != nil || args["command"] != "ls -la /workspace" {
		t.Errorf("first call arguments = %s (%v)", calls[0].Arguments, err)
	}
	var starts []llm.StreamEvent
	fragments := map[int]int{}
	for _, ev := range rec.events {
		switch ev.Type {
		case llm.EventToolCallStart:
			starts = append(starts, ev)
		case llm.EventToolCallDelta:
			fragments[ev.Index]++
		}
	}
	if len(starts) != 2 || starts[0].ToolCallID != "toolu_A" || starts[0].ToolName != "bash" || starts[0].Index != 1 || starts[1].Index != 2 {
		t.Errorf("toolcall_start events = %+v", starts)
	}
	if fragments[1] < 2 || fragments[2] < 2 {
		t.Errorf("argument fragments per call = %v, want several each", fragments)
	}
	got := srv.LastRequest()
	if strings.Join(got.Tools, ",") != "bash,read" {
		t.Errorf("tools sent = %v", got.Tools)
	}
	var body struct {
		Tools []struct {
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := got.Decode(&body); err != nil {
		t.Fatal(err)
	}
	if s := body.Tools[1].InputSchema; s["type"] != "object" || s["additionalProperties"] != false || s["required"] == nil {
		t.Errorf("second tool's schema = %v", s)
	}
}

func TestInvalidToolArgumentsBecomeEmptyObject(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{ToolCalls: []fakellm.ToolCall{{Name: "bash", Args: `{"command": "ls`}}})
	var rec recorder
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-haiku-4-5"), userText("go")), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if calls := msg.ToolCalls(); len(calls) != 1 || string(calls[0].Arguments) != "{}" {
		t.Errorf("calls = %+v, want arguments {}", calls)
	}
	if got := rec.joined(llm.EventToolCallDelta); got != `{"command": "ls` {
		t.Errorf("streamed fragments = %q, want the raw text", got)
	}
}

func TestRefusalIsAnAnswerWithStopError(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Text: "I can't help with that.", StopReason: "refusal"})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("?")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != llm.StopError || msg.ErrorMessage == "" {
		t.Errorf("message = %+v, want stop reason error with a message", msg)
	}
}

func TestLengthStopReason(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Text: "cut", StopReason: "length"})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("?")), nil)
	if err != nil || msg.StopReason != llm.StopLength {
		t.Fatalf("msg %+v err %v, want stop reason length", msg, err)
	}
}

func TestPrepareRepairsTheTranscript(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("fine"))
	model := llm.Lookup("anthropic", "claude-sonnet-4-5")
	// A crash left a tool call without its result, and an aborted answer.
	history := []llm.Message{
		userText("run it"),
		{Role: llm.RoleAssistant, StopReason: llm.StopToolUse, Content: []llm.Content{llm.ToolCall("toolu_X", "bash", json.RawMessage(`{"command":"true"}`))}},
		userText("hello?"),
		{Role: llm.RoleAssistant, StopReason: llm.StopAborted, Content: []llm.Content{llm.Text("partial")}},
		userText("still there?"),
	}
	if _, err := p.Stream(ctxT(t), request(model, history...), nil); err != nil {
		t.Fatalf("Stream: %v (rejected: %q)", err, srv.LastRequest().Rejected)
	}
	got := srv.LastRequest()
	res, ok := got.ToolResult("toolu_X")
	if !ok || !res.IsError {
		t.Errorf("tool result for the orphaned call = %+v, %v; want a synthesized error", res, ok)
	}
	if got.LastUserText() != "hello?\n\nstill there?" {
		t.Errorf("last user text = %q", got.LastUserText())
	}
}

func TestContextCancelledDuringHeldStream(t *testing.T) {
	srv, p := setup(t)
	hold := make(chan struct{})
	defer close(hold)
	srv.Enqueue(fakellm.Reply{Text: "partial answer", Hold: hold})
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	type result struct {
		msg *llm.Message
		err error
	}
	done := make(chan result, 1)
	gotText := make(chan struct{})
	go func() {
		msg, err := p.Stream(ctx, request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("hi")), func(ev llm.StreamEvent) {
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
		t.Fatalf("err = %v, want context.Canceled", r.err)
	}
	if r.msg == nil || r.msg.Text() != "partial answer" || r.msg.StopReason != llm.StopAborted {
		t.Errorf("partial message = %+v", r.msg)
	}
}
