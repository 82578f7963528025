package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

// writeRealistic fills a session with n entries in the shape of a busy channel: a user line,
// an assistant turn with a tool call and usage, a tool result of a few KB, a final answer.
func writeRealistic(tb testing.TB, path string, n int) {
	tb.Helper()
	s, err := openPath(path, "/data/workspace/channels/slack-acme/C0A34FL8PMH")
	if err != nil {
		tb.Fatal(err)
	}
	output := strings.Repeat("drwxr-xr-x  2 mom mom 4096 Mar 15 10:00 some-directory-name\n", 50) // ~3 KB
	price := llm.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	t0 := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		ts := t0.Add(time.Duration(i) * time.Second)
		var m llm.Message
		switch i % 4 {
		case 0:
			m = llm.NewUserText(fmt.Sprintf("[2026-03-15 11:00:05+01:00] [mario]: can you check the build of branch feature-%d and tell me what failed?", i), ts)
		case 1:
			m = llm.Message{Role: llm.RoleAssistant, Content: []llm.Content{
				{Type: llm.TypeThinking, Thinking: "The user wants the build checked; list the CI logs first.", Signature: "EqQBCkgIBhABGAIiQL2"},
				llm.Text("Let me look."),
				llm.ToolCall(fmt.Sprintf("toolu_%08d", i), "bash", json.RawMessage(`{"label":"List CI logs","command":"ls -la /workspace/ci/logs | head -50"}`)),
			}, API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5",
				Usage: price.Apply(llm.Usage{Input: 3120, Output: 88, CacheRead: 40000, CacheWrite: 3050}), StopReason: llm.StopToolUse, Timestamp: ts.UnixMilli()}
		case 2:
			m = llm.Message{Role: llm.RoleToolResult, ToolCallID: fmt.Sprintf("toolu_%08d", i-1), ToolName: "bash",
				Content: []llm.Content{llm.Text(output)}, Timestamp: ts.UnixMilli(),
				Details: json.RawMessage(`{"truncation":{"truncated":false,"totalLines":50,"totalBytes":3000}}`)}
		case 3:
			m = llm.Message{Role: llm.RoleAssistant, Content: []llm.Content{llm.Text("The build failed in `TestFoo`: a nil map write in handler.go:42. Want me to fix it?")},
				API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5",
				Usage: price.Apply(llm.Usage{Input: 200, Output: 40, CacheRead: 43000}), StopReason: llm.StopEnd, Timestamp: ts.UnixMilli()}
		}
		if _, err := s.AppendMessage(m); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
}

func BenchmarkOpenSession10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "context.jsonl")
	writeRealistic(b, path, 10_000)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := openPath(path, "/")
		if err != nil || s.Len() != 10_000 {
			b.Fatal(err)
		}
		s.Close()
	}
}

func BenchmarkContextAfterLoad10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "context.jsonl")
	writeRealistic(b, path, 10_000)
	s, err := openPath(path, "/")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Context()) != 10_000 {
			b.Fatal("short context")
		}
	}
}

// BenchmarkRebuildContext10k is what a compaction costs in memory: the context rebuilt from
// the branch.
func BenchmarkRebuildContext10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "context.jsonl")
	writeRealistic(b, path, 10_000)
	s, err := openPath(path, "/")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		buildContext(s.entries, s.branch)
	}
}

func BenchmarkAppendMessage(b *testing.B) {
	s, err := openPath(filepath.Join(b.TempDir(), "context.jsonl"), "/")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	m := llm.NewUserText("[mario]: can you check the build of branch feature-x and tell me what failed?", time.Now())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AppendMessage(m); err != nil {
			b.Fatal(err)
		}
	}
}
