package llm_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

// piMessages are `message` fields of context.jsonl lines as pi-coding-agent writes them.
var piMessages = []string{
	`{"role":"user","content":[{"type":"text","text":"[mario]: morning all"}],"timestamp":1773568801000}`,
	`{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"toolCall","id":"toolu_01ABC","name":"bash","arguments":{"label":"Extract PDF text","command":"pdftotext /workspace/C123ABC/attachments/1773568805000_report.pdf - | head -50"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3120,"output":88,"cacheRead":0,"cacheWrite":3050,"totalTokens":6258,"cost":{"input":0.00936,"output":0.00132,"cacheRead":0,"cacheWrite":0.0114375,"total":0.0221175}},"stopReason":"toolUse","timestamp":1773568806000}`,
	`{"role":"toolResult","toolCallId":"toolu_01ABC","toolName":"bash","content":[{"type":"text","text":"Quarterly report ..."}],"isError":false,"timestamp":1773568809300}`,
	`{"role":"toolResult","toolCallId":"toolu_02","toolName":"bash","content":[{"type":"text","text":"exit 1"}],"details":{"truncation":{"truncated":false},"fullOutputPath":"/tmp/x"},"isError":true,"timestamp":1773568809400}`,
	`{"role":"assistant","content":[{"type":"thinking","thinking":"Let me think.","thinkingSignature":"EqQBCgIYAhIM"},{"type":"thinking","thinking":"","thinkingSignature":"ENCRYPTED","redacted":true},{"type":"text","text":"Done."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":4,"totalTokens":10,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1773568810000}`,
	`{"role":"assistant","content":[],"api":"openai-completions","provider":"openai","model":"gpt-4o","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"openai API error 429: slow down","timestamp":1773568811000}`,
	`{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"timestamp":1773568812000}`,
}

func semantic(t *testing.T, s []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(s, &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestPiMessagesRoundTrip(t *testing.T) {
	for _, line := range piMessages {
		var m llm.Message
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("Unmarshal %s: %v", line, err)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if !reflect.DeepEqual(semantic(t, []byte(line)), semantic(t, out)) {
			t.Errorf("round trip changed the message:\n in %s\nout %s", line, out)
		}
	}
}

func TestPiMessageFields(t *testing.T) {
	var a llm.Message
	if err := json.Unmarshal([]byte(piMessages[1]), &a); err != nil {
		t.Fatal(err)
	}
	calls := a.ToolCalls()
	if a.Role != llm.RoleAssistant || a.StopReason != llm.StopToolUse || a.Usage.CacheWrite != 3050 || a.Usage.Cost.Total != 0.0221175 ||
		len(calls) != 1 || calls[0].ID != "toolu_01ABC" || a.Text() != "Let me look." {
		t.Errorf("assistant = %+v", a)
	}
	var r llm.Message
	if err := json.Unmarshal([]byte(piMessages[3]), &r); err != nil {
		t.Fatal(err)
	}
	if !r.IsError || r.ToolCallID != "toolu_02" || !bytes.Contains(r.Details, []byte("fullOutputPath")) {
		t.Errorf("tool result = %+v", r)
	}
	var th llm.Message
	if err := json.Unmarshal([]byte(piMessages[4]), &th); err != nil {
		t.Fatal(err)
	}
	if c := th.Content[1]; !c.Redacted || c.Signature != "ENCRYPTED" || th.Content[0].Signature != "EqQBCgIYAhIM" {
		t.Errorf("thinking = %+v", th.Content)
	}
}

func TestUserContentAsString(t *testing.T) {
	data := []byte(`{"role":"user","content":"hello there","timestamp":5}`)
	var strict llm.Message
	if err := json.Unmarshal(data, &strict); !llm.IsStringContent(err) {
		t.Fatalf("json.Unmarshal of string content: err = %v, want the type error IsStringContent names", err)
	}
	m, err := llm.ParseMessage(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 1 || m.Content[0].Type != llm.TypeText || m.Text() != "hello there" || m.Timestamp != 5 {
		t.Errorf("message = %+v", m)
	}
	out, _ := json.Marshal(m)
	if string(out) != `{"role":"user","content":[{"type":"text","text":"hello there"}],"timestamp":5}` {
		t.Errorf("marshalled = %s", out)
	}
}

func TestRoleSpecificFieldsOnly(t *testing.T) {
	out, err := json.Marshal(llm.Message{Role: llm.RoleUser, Content: []llm.Content{llm.Text("x")}, StopReason: llm.StopEnd, ToolCallID: "t", Usage: llm.Usage{Input: 5}})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"stopReason", "toolCallId", "usage", "isError"} {
		if strings.Contains(string(out), key) {
			t.Errorf("user message carries %s: %s", key, out)
		}
	}
	out, _ = json.Marshal(llm.Message{Role: llm.RoleToolResult, ToolCallID: "t", Details: json.RawMessage("null")})
	if !strings.Contains(string(out), `"isError":false`) || strings.Contains(string(out), "details") || !strings.Contains(string(out), `"content":[]`) {
		t.Errorf("tool result = %s", out)
	}
}

func TestToolCallWithoutArgumentsIsEmptyObject(t *testing.T) {
	out, err := json.Marshal(llm.Content{Type: llm.TypeToolCall, ID: "1", Name: "x"})
	if err != nil || string(out) != `{"type":"toolCall","id":"1","name":"x","arguments":{}}` {
		t.Errorf("got %s %v", out, err)
	}
}

// FuzzMessageJSON checks that any input either fails to decode or survives a second round
// trip unchanged, and that nothing panics.
func FuzzMessageJSON(f *testing.F) {
	for _, line := range piMessages {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"role":"user","content":"plain"}`))
	f.Add([]byte(`{"role":"toolResult","content":null,"details":null,"isError":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := llm.ParseMessage(data)
		if err != nil {
			return
		}
		first, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("Marshal of a decoded message failed: %v", err)
		}
		var again llm.Message
		if err := json.Unmarshal(first, &again); err != nil {
			t.Fatalf("re-decoding %s: %v", first, err)
		}
		second, err := json.Marshal(again)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("round trip not stable:\n%s\n%s (%v)", first, second, err)
		}
	})
}
