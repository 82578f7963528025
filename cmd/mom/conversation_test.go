package main

import (
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTerminalConversationWithEveryTool has the model call bash, read, edit, write and attach in a
// terminal conversation, and checks that each result reaches the model, that people see each
// step, and that log.jsonl and context.jsonl hold exactly the documented formats.
func TestTerminalConversationWithEveryTool(t *testing.T) {
	w := newWorld(t)
	w.llm.Enqueue(
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_bash", Name: "bash", Args: map[string]any{
			"label": "make a note", "command": "printf 'hello\\n' > notes.txt && echo made it"}}),
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_read", Name: "read", Args: map[string]any{
			"label": "read the note", "path": "notes.txt"}}),
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_edit", Name: "edit", Args: map[string]any{
			"label": "improve the note", "path": "notes.txt", "oldText": "hello", "newText": "hello world"}}),
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_write", Name: "write", Args: map[string]any{
			"label": "write a report", "path": "out/report.md", "content": "# Report\nall good\n"}}),
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_attach", Name: "attach", Args: map[string]any{
			"label": "share the report", "path": "out/report.md", "title": "Report"}}),
		fakellm.Reply{Text: "All **done**.", Usage: &fakellm.Usage{Input: 1200, Output: 30, CacheRead: 800}},
	)
	p := w.start()
	p.send("please tidy up my notes")
	p.waitFor("All **done**.")
	if code := p.quit(); code != 0 {
		t.Fatalf("mom exited %d\n%s", code, p.err)
	}

	reqs := w.llm.Requests()
	if len(reqs) != 6 {
		t.Fatalf("model got %d requests, want 6", len(reqs))
	}
	if got := reqs[0].LastUserText(); !regexp.MustCompile(`^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00:00\] \[ada\]: please tidy up my notes$`).MatchString(got) {
		t.Errorf("trigger as the model saw it = %q", got)
	}
	wantResults := map[string]string{
		"toolu_bash": "made it", "toolu_read": "hello", "toolu_edit": "Successfully replaced text",
		"toolu_write": "Successfully wrote 18 bytes", "toolu_attach": "Attached file: Report",
	}
	last := reqs[5]
	for id, want := range wantResults {
		res, ok := last.ToolResult(id)
		if !ok || res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("result of %s = %+v, want it to contain %q", id, res, want)
		}
	}
	scratch := filepath.Join(w.channelDir("terminal", "local"), "scratch")
	if b, _ := os.ReadFile(filepath.Join(scratch, "notes.txt")); string(b) != "hello world\n" {
		t.Errorf("notes.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(scratch, "out", "report.md")); string(b) != "# Report\nall good\n" {
		t.Errorf("report.md = %q", b)
	}
	out := p.out.String()
	for _, label := range []string{"→ make a note", "→ read the note", "→ improve the note", "→ write a report",
		"→ share the report", "attached file: " + filepath.Join(scratch, "out", "report.md") + " (Report)"} {
		if !strings.Contains(out, label) {
			t.Errorf("the terminal did not show %q:\n%s", label, out)
		}
	}
	if !strings.Contains(out, "↳ ") || !strings.Contains(out, "cache 800 read") {
		t.Errorf("no usage summary in:\n%s", out)
	}

	checkLog(t, filepath.Join(w.channelDir("terminal", "local"), "log.jsonl"))
	checkContext(t, filepath.Join(w.channelDir("terminal", "local"), "context.jsonl"))
}

// checkLog checks log.jsonl line by line: the person's message, then mom's reply.
func checkLog(t *testing.T, path string) {
	t.Helper()
	lines := apptest.JSONLines(t, path)
	if len(lines) != 2 {
		t.Fatalf("log.jsonl has %d lines, want 2: %v", len(lines), lines)
	}
	isoUTC := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`)
	user, bot := lines[0], lines[1]
	for i, l := range lines {
		if id, _ := l["id"].(string); id == "" {
			t.Errorf("line %d has no id: %v", i+1, l)
		}
		if ts, _ := l["ts"].(string); !isoUTC.MatchString(ts) {
			t.Errorf("line %d ts = %v, want ISO 8601 UTC", i+1, l["ts"])
		}
		if att, ok := l["attachments"].([]any); !ok || len(att) != 0 {
			t.Errorf("line %d attachments = %v, want []", i+1, l["attachments"])
		}
	}
	sender := user["sender"].(map[string]any)
	if sender["username"] != "ada" || sender["isBot"] != false || user["text"] != "please tidy up my notes" || user["isMention"] != true {
		t.Errorf("person's line = %v", user)
	}
	if s := bot["sender"].(map[string]any); s["isBot"] != true || bot["text"] != "All **done**." {
		t.Errorf("mom's line = %v", bot)
	}
}

// checkContext checks context.jsonl against pi's session format v3.
func checkContext(t *testing.T, path string) {
	t.Helper()
	lines := apptest.JSONLines(t, path)
	head := lines[0]
	if head["type"] != "session" || head["version"] != float64(3) || head["cwd"] == nil {
		t.Fatalf("header = %v", head)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(head["id"].(string)) {
		t.Errorf("header id %v is not a UUID v4", head["id"])
	}
	isoMs := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	hex8 := regexp.MustCompile(`^[0-9a-f]{8}$`)
	seen := map[string]bool{}
	var parent any // nil for the first entry
	var roles []string
	for i, e := range lines[1:] {
		id, _ := e["id"].(string)
		if !hex8.MatchString(id) || seen[id] {
			t.Errorf("entry %d id %q is not a fresh 8-hex id", i+1, id)
		}
		seen[id] = true
		if e["parentId"] != parent {
			t.Errorf("entry %d parentId = %v, want %v", i+1, e["parentId"], parent)
		}
		parent = id
		if ts, _ := e["timestamp"].(string); !isoMs.MatchString(ts) {
			t.Errorf("entry %d timestamp = %v", i+1, e["timestamp"])
		}
		if e["type"] != "message" {
			continue
		}
		m := e["message"].(map[string]any)
		if ms, ok := m["timestamp"].(float64); !ok || ms < 1e12 {
			t.Errorf("entry %d message timestamp = %v, want unix ms", i+1, m["timestamp"])
		}
		role := m["role"].(string)
		roles = append(roles, role)
		switch role {
		case "assistant":
			u := m["usage"].(map[string]any)
			for _, k := range []string{"input", "output", "cacheRead", "cacheWrite", "totalTokens"} {
				if _, ok := u[k].(float64); !ok {
					t.Errorf("entry %d usage.%s missing: %v", i+1, k, u)
				}
			}
			if c, ok := u["cost"].(map[string]any); !ok || c["total"] == nil {
				t.Errorf("entry %d usage.cost missing: %v", i+1, u)
			}
			if m["provider"] != "anthropic" || m["api"] != "anthropic-messages" || m["model"] == "" || m["stopReason"] == "" {
				t.Errorf("entry %d assistant fields: %v", i+1, m)
			}
			for _, b := range m["content"].([]any) {
				block := b.(map[string]any)
				if block["type"] == "toolCall" {
					if _, ok := block["arguments"].(map[string]any); !ok || block["id"] == "" || block["name"] == "" {
						t.Errorf("entry %d tool call = %v", i+1, block)
					}
				}
			}
		case "toolResult":
			if m["toolCallId"] == "" || m["toolName"] == "" || m["isError"] != false {
				t.Errorf("entry %d tool result = %v", i+1, m)
			}
		}
	}
	want := "user assistant toolResult assistant toolResult assistant toolResult assistant toolResult assistant toolResult assistant"
	if got := strings.Join(roles, " "); got != want {
		t.Errorf("message roles:\n got %s\nwant %s", got, want)
	}
}

// TestSecondProcessContinuesTheChannel runs two processes one after the other; the second
// sends the model the first one's conversation.
func TestSecondProcessContinuesTheChannel(t *testing.T) {
	w := newWorld(t)
	w.llm.Enqueue(fakellm.Text("Nice to meet you, Ada."), fakellm.Text("Your name is Ada."))
	if res := w.ask("my name is Ada"); strings.TrimSpace(res.stdout) != "Nice to meet you, Ada." {
		t.Fatalf("first answer = %q", res.stdout)
	}
	if res := w.ask("what is my name?"); strings.TrimSpace(res.stdout) != "Your name is Ada." {
		t.Fatalf("second answer = %q", res.stdout)
	}
	second := w.llm.Requests()[1]
	var got []string
	for _, m := range second.Messages {
		for _, b := range m.Content {
			got = append(got, m.Role+": "+b.Text)
		}
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"my name is Ada", "assistant: Nice to meet you, Ada.", "what is my name?"} {
		if !strings.Contains(joined, want) {
			t.Errorf("second request lacks %q:\n%s", want, joined)
		}
	}
}

// TestOpenAICompatibleServer runs a conversation through the OpenAI protocol, as with Ollama
// or vLLM.
func TestOpenAICompatibleServer(t *testing.T) {
	w := newWorld(t, withProvider("openai"))
	w.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "count", "command": "echo 42"})),
		fakellm.Text("The answer is 42."),
	)
	if res := w.ask("count for me"); strings.TrimSpace(res.stdout) != "The answer is 42." {
		t.Fatalf("answer = %q\n%s", res.stdout, res.stderr)
	}
	reqs := w.llm.Requests()
	if reqs[0].Protocol != fakellm.OpenAI {
		t.Fatalf("protocol = %s", reqs[0].Protocol)
	}
	if res := reqs[1].ToolResults(); len(res) != 1 || strings.TrimSpace(res[0].Text) != "42" {
		t.Errorf("tool results sent back = %+v", res)
	}
}

// TestOneShotPromptFromStdin reads the prompt from stdin with -m -.
func TestOneShotPromptFromStdin(t *testing.T) {
	w := newWorld(t)
	w.llm.Enqueue(fakellm.Text("read it"))
	res := w.mom("a prompt\nover two lines\n", "run", w.dir, "-m", "-")
	if res.code != 0 || strings.TrimSpace(res.stdout) != "read it" {
		t.Fatalf("exit %d, stdout %q\n%s", res.code, res.stdout, res.stderr)
	}
	if got := w.llm.Requests()[0].LastUserText(); !strings.HasSuffix(got, "[ada]: a prompt\n| over two lines") {
		t.Errorf("prompt = %q", got)
	}
	if res := w.mom("", "run", w.dir, "-m", "-"); res.code != 1 || !strings.Contains(res.stderr, "stdin was empty") {
		t.Errorf("empty stdin: exit %d, stderr %q", res.code, res.stderr)
	}
}
