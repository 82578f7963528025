package openai_test

import (
	"encoding/json"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
)

func TestTranscriptConversion(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("you're welcome"))
	history := []llm.Message{
		userText("list and read"),
		{Role: llm.RoleAssistant, StopReason: llm.StopToolUse, Content: []llm.Content{
			{Type: llm.TypeThinking, Thinking: "not sent back"},
			llm.Text("On it."),
			llm.ToolCall("call_1", "bash", json.RawMessage(`{"command":"ls"}`)),
			llm.ToolCall("call_2", "read", json.RawMessage(`{"path":"/nope"}`)),
		}},
		{Role: llm.RoleToolResult, ToolCallID: "call_1", ToolName: "bash", Content: []llm.Content{llm.Text("a.txt\nb.txt")}},
		{Role: llm.RoleToolResult, ToolCallID: "call_2", ToolName: "read", IsError: true, Content: []llm.Content{llm.Text("no such file"), llm.Image("R0lGOD==", "image/gif")}},
		userText("thanks"),
	}
	if _, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), history...), nil); err != nil {
		t.Fatalf("Stream: %v (%s)", err, srv.LastRequest().Rejected)
	}
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := srv.LastRequest().Decode(&body); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"content":"You are mom.","role":"system"}`,
		`{"content":"list and read","role":"user"}`,
		`{"content":"On it.","tool_calls":[{"id":"call_1","function":{"arguments":"{\"command\":\"ls\"}","name":"bash"},"type":"function"},{"id":"call_2","function":{"arguments":"{\"path\":\"/nope\"}","name":"read"},"type":"function"}],"role":"assistant"}`,
		`{"content":"a.txt\nb.txt","tool_call_id":"call_1","role":"tool"}`,
		`{"content":"no such file\n(image omitted: image/gif)","tool_call_id":"call_2","role":"tool"}`,
		`{"content":"thanks","role":"user"}`,
	}
	if len(body.Messages) != len(want) {
		t.Fatalf("sent %d messages, want %d: %s", len(body.Messages), len(want), srv.LastRequest().Body)
	}
	for i, w := range want {
		if string(body.Messages[i]) != w {
			t.Errorf("message %d:\n got %s\nwant %s", i, body.Messages[i], w)
		}
	}
}

func TestPrepareRepairsTheTranscript(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("ok"))
	history := []llm.Message{
		userText("run it"),
		{Role: llm.RoleAssistant, StopReason: llm.StopToolUse, Content: []llm.Content{llm.ToolCall("call_X", "bash", nil)}},
		userText("hello?"),
	}
	if _, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), history...), nil); err != nil {
		t.Fatalf("Stream: %v (%s)", err, srv.LastRequest().Rejected)
	}
	if res, ok := srv.LastRequest().ToolResult("call_X"); !ok || res.Text == "" {
		t.Errorf("synthesized result = %+v %v", res, ok)
	}
}

func TestImageInput(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("a cat"))
	user := llm.Message{Role: llm.RoleUser, Content: []llm.Content{llm.Text("what is this?"), llm.Image("iVBORw0KGgo=", "image/png")}}
	if _, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "gpt-4o"), user), nil); err != nil {
		t.Fatal(err)
	}
	got := srv.LastRequest().Messages[0].Content
	if len(got) != 2 || got[0].Text != "what is this?" || got[1].Type != "image" || got[1].Data != "data:image/png;base64,iVBORw0KGgo=" {
		t.Errorf("user content = %+v", got)
	}
}
