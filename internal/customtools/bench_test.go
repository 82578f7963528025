package customtools

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/tools"
)

// BenchmarkExecCall is one call of an executable tool: validation, process start, stdin,
// stdout parsing.
func BenchmarkExecCall(b *testing.B) {
	dir := b.TempDir()
	execFolder(b, dir, "echo", simpleManifest("echo", "x"), `printf '{"content": [{"type": "text", "text": "ok"}]}'`)
	benchCall(b, dir, "echo", `{}`)
}

// BenchmarkMCPCall is one call of a running MCP server's tool.
func BenchmarkMCPCall(b *testing.B) {
	dir := b.TempDir()
	mcpFolder(b, dir, "server", nil)
	benchCall(b, dir, "echo", `{"text": "hi"}`)
}

func benchCall(b *testing.B, dir, name, args string) {
	r := New(Options{DataDir: "/data", Dirs: []string{dir}, Timeout: time.Minute, Environ: testEnviron})
	r.Start(context.Background())
	defer r.Stop()
	tool := tools.FindTool(r.CustomTools(), name)
	if tool == nil {
		b.Fatalf("no tool %s", name)
	}
	raw := json.RawMessage(args)
	env := &tools.Env{Channel: "cli/local"}
	b.ReportAllocs()
	for b.Loop() {
		if err := tools.Validate(tool, raw); err != nil {
			b.Fatal(err)
		}
		if _, err := tool.Run(context.Background(), env, raw); err != nil {
			b.Fatal(err)
		}
	}
}
