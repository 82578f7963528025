package anthropic_test

import (
	"encoding/json"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
)

func TestThinkingRoundTrip(t *testing.T) {
	srv, p := setup(t)
	srv.Enqueue(fakellm.Reply{Thinking: "The user greets me; greet back.", Signature: "sig-abc123", Text: "Hello!"})
	srv.Enqueue(fakellm.Text("Fine, thanks."))
	model := llm.Lookup("anthropic", "claude-sonnet-4-5")
	req := request(model, userText("hi"))
	req.Thinking = llm.ThinkingMedium
	var rec recorder
	first, err := p.Stream(ctxT(t), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	sent := srv.LastRequest()
	if sent.Thinking != "enabled" || sent.ThinkingBudget != 8192 || sent.MaxTokens != 64000 {
		t.Errorf("thinking sent = %q budget %d max_tokens %d, want enabled 8192 64000", sent.Thinking, sent.ThinkingBudget, sent.MaxTokens)
	}
	if got := rec.joined(llm.EventThinkingDelta); got != "The user greets me; greet back." {
		t.Errorf("thinking deltas = %q", got)
	}
	th := first.Content[0]
	if th.Type != llm.TypeThinking || th.Signature != "sig-abc123" || th.Thinking != "The user greets me; greet back." {
		t.Fatalf("first block = %+v", th)
	}

	req.Messages = append(req.Messages, *first, userText("how are you?"))
	if _, err := p.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	back := srv.LastRequest().Messages[1]
	if back.Role != "assistant" || len(back.Content) != 2 {
		t.Fatalf("assistant message sent back = %+v", back)
	}
	if b := back.Content[0]; b.Type != "thinking" || b.Signature != "sig-abc123" || b.Text != "The user greets me; greet back." {
		t.Errorf("thinking block sent back = %+v", b)
	}
}

func TestThinkingBlocksWithoutSignatureAreDroppedAndRedactedKept(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("ok"))
	assistant := llm.Message{Role: llm.RoleAssistant, StopReason: llm.StopEnd, Content: []llm.Content{
		{Type: llm.TypeThinking, Thinking: "unsigned, from another provider"},
		{Type: llm.TypeThinking, Redacted: true, Signature: "ENCRYPTED"},
		llm.Text("answer"),
		llm.Text("   "),
	}}
	if _, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), userText("a"), assistant, userText("b")), nil); err != nil {
		t.Fatalf("Stream: %v (%s)", err, srv.LastRequest().Rejected)
	}
	got := srv.LastRequest().Messages[1].Content
	if len(got) != 2 || got[0].Type != "redacted_thinking" || got[0].Signature != "ENCRYPTED" || got[1].Text != "answer" {
		t.Errorf("assistant blocks sent = %+v", got)
	}
}

func TestThinkingConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name      string
		model     llm.Model
		level     llm.ThinkingLevel
		maxTokens int
		thinking  string
		budget    int
		effort    string
		wantMax   int
	}{
		{"off sends nothing", llm.Lookup("anthropic", "claude-sonnet-4-5"), llm.ThinkingOff, 0, "", 0, "", 64000},
		{"low budget", llm.Lookup("anthropic", "claude-haiku-4-5"), llm.ThinkingLow, 0, "enabled", 2048, "", 64000},
		{"budget raises max_tokens", llm.Lookup("anthropic", "claude-sonnet-4-5"), llm.ThinkingHigh, 4000, "enabled", 16384, "", 20480},
		{"unknown model gets thinking", llm.Lookup("anthropic", "claude-unknown-x"), llm.ThinkingHigh, 0, "enabled", 16384, "", 20480},
		{"adaptive on 4.6+", llm.Lookup("anthropic", "claude-opus-4-7"), llm.ThinkingHigh, 0, "adaptive", 0, "high", 128000},
		{"adaptive on 5.x unknown", llm.Lookup("anthropic", "claude-haiku-5-5"), llm.ThinkingLow, 0, "adaptive", 0, "low", 8192},
		{"dated 4.0 id is not 4.6+", llm.Lookup("anthropic", "claude-opus-4-20250514"), llm.ThinkingHigh, 0, "enabled", 16384, "", 32000},
		{"old-style id", llm.Lookup("anthropic", "claude-3-7-sonnet-20250219"), llm.ThinkingLow, 0, "enabled", 2048, "", 8192},
		{"mythos line is adaptive", llm.Lookup("anthropic", "claude-mythos-preview"), llm.ThinkingMedium, 0, "adaptive", 0, "medium", 8192},
		{"budget shrinks to fit a small model", llm.Model{Provider: "anthropic", ID: "claude-small", Known: true, Reasoning: true, MaxOutput: 8192}, llm.ThinkingHigh, 0, "enabled", 7168, "", 8192},
		{"non-reasoning model", llm.Model{Provider: "anthropic", ID: "claude-plain", Known: true, MaxOutput: 4096}, llm.ThinkingHigh, 0, "", 0, "", 4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, p := setup(t)
			srv.Default(fakellm.Text("ok"))
			req := request(tc.model, userText("think"))
			req.Thinking, req.MaxTokens = tc.level, tc.maxTokens
			if _, err := p.Stream(ctxT(t), req, nil); err != nil {
				t.Fatalf("Stream: %v (%s)", err, srv.LastRequest().Rejected)
			}
			got := srv.LastRequest()
			if got.Thinking != tc.thinking || got.ThinkingBudget != tc.budget || got.Effort != tc.effort || got.MaxTokens != tc.wantMax {
				t.Errorf("sent thinking %q budget %d effort %q max_tokens %d; want %q %d %q %d",
					got.Thinking, got.ThinkingBudget, got.Effort, got.MaxTokens, tc.thinking, tc.budget, tc.effort, tc.wantMax)
			}
		})
	}
}

func TestPromptCachingMarkers(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("ok"))
	req := request(llm.Lookup("anthropic", "claude-sonnet-4-5"),
		userText("first"),
		llm.Message{Role: llm.RoleAssistant, StopReason: llm.StopEnd, Content: []llm.Content{llm.Text("reply")}},
		llm.Message{Role: llm.RoleUser, Content: []llm.Content{llm.Text("second"), llm.Text("and more")}},
	)
	req.Tools = []llm.Tool{
		{Name: "a", Parameters: json.RawMessage(`{"type":"object"}`)},
		{Name: "b", Parameters: json.RawMessage(`{"type":"object"}`)},
	}
	if _, err := p.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	got := srv.LastRequest()
	if got.CacheMarkers != 3 {
		t.Errorf("cache_control breakpoints = %d, want 3", got.CacheMarkers)
	}
	var body struct {
		System []struct {
			CacheControl *struct{ Type string } `json:"cache_control"`
		} `json:"system"`
		Tools []struct {
			CacheControl *struct{ Type string } `json:"cache_control"`
		} `json:"tools"`
	}
	if err := got.Decode(&body); err != nil {
		t.Fatal(err)
	}
	if len(body.System) != 1 || body.System[0].CacheControl == nil || body.System[0].CacheControl.Type != "ephemeral" {
		t.Errorf("system prompt is not cached: %+v", body.System)
	}
	if body.Tools[0].CacheControl != nil || body.Tools[1].CacheControl == nil {
		t.Errorf("want the cache breakpoint on the last tool only")
	}
	last := got.Messages[2].Content
	if !last[1].Cached || last[0].Cached || got.Messages[0].Content[0].Cached {
		t.Errorf("want the breakpoint on the last block of the last user message only: %+v", got.Messages)
	}
}

func TestImageInput(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("a cat"))
	user := llm.Message{Role: llm.RoleUser, Content: []llm.Content{llm.Text("what is this?"), llm.Image("iVBORw0KGgo=", "image/png")}}
	if _, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), user), nil); err != nil {
		t.Fatal(err)
	}
	b := srv.LastRequest().Messages[0].Content[1]
	if b.Type != "image" || b.MediaType != "image/png" || b.Data != "iVBORw0KGgo=" {
		t.Errorf("image block = %+v", b)
	}
}

func TestTranscriptConversion(t *testing.T) {
	srv, p := setup(t)
	srv.Default(fakellm.Text("you're welcome"))
	history := []llm.Message{
		userText("list and read"),
		{Role: llm.RoleAssistant, StopReason: llm.StopToolUse, Content: []llm.Content{
			llm.Text("On it."),
			llm.ToolCall("toolu_1", "bash", json.RawMessage(`{"command":"ls"}`)),
			llm.ToolCall("toolu_2", "read", json.RawMessage(`{"path":"/nope"}`)),
		}},
		{Role: llm.RoleToolResult, ToolCallID: "toolu_1", ToolName: "bash", Content: []llm.Content{llm.Text("a.txt\nb.txt")}},
		{Role: llm.RoleToolResult, ToolCallID: "toolu_2", ToolName: "read", IsError: true, Content: []llm.Content{llm.Text("no such file"), llm.Image("R0lGOD==", "image/gif")}},
		userText("thanks"),
	}
	if _, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-sonnet-4-5"), history...), nil); err != nil {
		t.Fatalf("Stream: %v (%s)", err, srv.LastRequest().Rejected)
	}
	var body struct {
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := srv.LastRequest().Decode(&body); err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"user","content":[{"text":"list and read","type":"text"}]},` +
		`{"role":"assistant","content":[{"text":"On it.","type":"text"},` +
		`{"id":"toolu_1","input":{"command":"ls"},"name":"bash","type":"tool_use"},` +
		`{"id":"toolu_2","input":{"path":"/nope"},"name":"read","type":"tool_use"}]},` +
		`{"role":"user","content":[{"content":[{"text":"a.txt\nb.txt","type":"text"}],"tool_use_id":"toolu_1","type":"tool_result"},` +
		`{"content":[{"text":"no such file","type":"text"},{"source":{"data":"R0lGOD==","media_type":"image/gif","type":"base64"},"type":"image"}],"is_error":true,"tool_use_id":"toolu_2","type":"tool_result"},` +
		`{"cache_control":{"type":"ephemeral"},"text":"thanks","type":"text"}]}]`
	got, _ := json.Marshal(body.Messages)
	if string(got) != want {
		t.Errorf("messages sent:\n%s\nwant:\n%s", got, want)
	}
}
