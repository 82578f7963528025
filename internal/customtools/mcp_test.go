package customtools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/tools"
)

// TestMCPServerTools: every tool the server lists is a custom tool whose calls reach it, with
// its schema checked first and its environment cleaned.
func TestMCPServerTools(t *testing.T) {
	dir := t.TempDir()
	mcpFolder(t, dir, "server", map[string]string{"GIVEN": "${WEATHER_KEY}"})
	r, logs := startRegistry(t, dir)
	if got := strings.Join(names(r.CustomTools()), " "); got != "crash echo environment sleep" {
		t.Fatalf("tools = %s\n%s", got, logs)
	}
	echo := find(t, r, "echo")
	if res, err := run(t, context.Background(), echo, `{"text": "hi"}`); err != nil || text(res) != "echo: hi" {
		t.Errorf("echo: %q, %v", text(res), err)
	}
	if err := tools.Validate(echo, json.RawMessage(`{"text": 5}`)); err == nil || !strings.Contains(err.Error(), `argument "text" must be a string`) {
		t.Errorf("a wrong argument type was not caught before the call: %v", err)
	}
	res, err := run(t, context.Background(), find(t, r, "environment"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	env := "\n" + text(res) + "\n"
	if !strings.Contains(env, "\nGIVEN=wk-123\n") || strings.Contains(env, "ANTHROPIC_API_KEY") || strings.Contains(env, "SLACK_BOT_TOKEN") {
		t.Errorf("the server's environment:%s", env)
	}
}

// TestMCPCallTimeoutAndCancel: a call that does not finish is cancelled at its time limit or
// when the run stops, and the server keeps serving.
func TestMCPCallTimeoutAndCancel(t *testing.T) {
	dir := t.TempDir()
	mcpFolder(t, dir, "server", nil)
	writeFile(t, dir, "server/mcp.json", strings.Replace(readFile(t, dir+"/server/mcp.json"), `"timeout":30`, `"timeout":0.3`, 1), 0o644)
	r, _ := startRegistry(t, dir)
	sleep := find(t, r, "sleep")
	if _, err := run(t, context.Background(), sleep, `{}`); err == nil || !strings.Contains(err.Error(), "sleep did not finish within 300ms and was cancelled") {
		t.Errorf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(t, ctx, sleep, `{}`); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
	if res, err := run(t, context.Background(), find(t, r, "echo"), `{"text": "still here"}`); err != nil || text(res) != "echo: still here" {
		t.Errorf("after the cancelled calls: %q, %v", text(res), err)
	}
}

// TestMCPServerRestarts: a server that exits is started again; meanwhile its tools answer with
// an error that says why, and the registry never fails.
func TestMCPServerRestarts(t *testing.T) {
	dir := t.TempDir()
	mcpFolder(t, dir, "server", nil)
	r, logs := startRegistry(t, dir)
	_, err := run(t, context.Background(), find(t, r, "crash"), `{}`)
	if err == nil || !strings.Contains(err.Error(), "stopped during the call to crash") {
		t.Errorf("crash: %v", err)
	}
	waitUntil(t, "the restart", func() bool { return strings.Count(logs.String(), "MCP server started") >= 2 })
	if res, err := run(t, context.Background(), find(t, r, "echo"), `{"text": "again"}`); err != nil || text(res) != "echo: again" {
		t.Errorf("after the restart: %q, %v", text(res), err)
	}
	if !strings.Contains(logs.String(), `msg="MCP server stopped; restarting it"`) || !strings.Contains(logs.String(), "exit status 3") {
		t.Errorf("the log does not explain the crash:\n%s", logs)
	}
}

// TestMCPServerThatCannotStart: a command that does not exist is retried, and calls are never
// attempted; the folder's tools are simply not there yet.
func TestMCPServerThatCannotStart(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "gone/mcp.json", `{"command": "./no-such-server"}`, 0o644)
	r, logs := startRegistry(t, dir)
	if len(r.CustomTools()) != 0 {
		t.Errorf("tools of a server that never ran: %v", names(r.CustomTools()))
	}
	if !strings.Contains(logs.String(), "no-such-server") {
		t.Errorf("the log does not name the missing command:\n%s", logs)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
