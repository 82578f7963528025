package customtools

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mom-agent/mom/internal/tools"
)

// The tests run real processes: shell scripts for executable tools, and this test binary
// itself as an MCP server (with the real SDK) when MCP_TEST_SERVER is set.
func TestMain(m *testing.M) {
	if os.Getenv("MCP_TEST_SERVER") == "1" {
		serveTestMCP()
		return
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Text string `json:"text"`
}

// serveTestMCP is the MCP server of the tests: echo, sleep (until cancelled), crash (exit 3),
// and environment.
func serveTestMCP() {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sleep", Description: "Wait until cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exit at once."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "environment", Description: "List the environment."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Environ(), "\n")}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// logBuffer collects a registry's log for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// testEnviron is mom's environment in the tests: what a tool may get, and secrets it may not.
var testEnviron = []string{
	"PATH=" + os.Getenv("PATH"), "HOME=/home/ada", "LANG=C.UTF-8",
	"ANTHROPIC_API_KEY=sk-ant-secret", "SLACK_BOT_TOKEN=xoxb-secret", "WEATHER_KEY=wk-123",
}

// testOptions are the options of the tests' registries over dirs.
func testOptions(dirs ...string) Options {
	return Options{
		DataDir: "/data", Dirs: dirs, Reserved: []string{"bash", "read", "invoke_tool"},
		Timeout: time.Minute, Environ: testEnviron,
	}
}

// startRegistry starts a registry over dirs and stops it when the test ends.
func startRegistry(t *testing.T, dirs ...string) (*Registry, *logBuffer) {
	t.Helper()
	return startRegistryWith(t, testOptions(dirs...))
}

// startRegistryWith starts a registry with o and stops it when the test ends.
func startRegistryWith(t *testing.T, o Options) (*Registry, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	o.Logger = slog.New(slog.NewTextHandler(logs, nil))
	r := New(o)
	r.Start(context.Background())
	t.Cleanup(r.Stop)
	return r, logs
}

// writeFile writes name under dir, creating directories.
func writeFile(t testing.TB, dir, name, content string, mode os.FileMode) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// execFolder writes a tool folder with a tool.json and a run.sh.
func execFolder(t testing.TB, dir, folder, manifest, script string) string {
	t.Helper()
	path := filepath.Join(dir, folder)
	writeFile(t, path, "run.sh", "#!/bin/sh\n"+script, 0o755)
	writeFile(t, path, "tool.json", manifest, 0o644)
	return path
}

// simpleManifest is a tool.json for a tool without arguments.
func simpleManifest(name, description string) string {
	b, _ := json.Marshal(map[string]any{"name": name, "description": description, "run": "./run.sh"})
	return string(b)
}

// mcpFolder writes a tool folder running this test binary as an MCP server.
func mcpFolder(t testing.TB, dir, folder string, extraEnv map[string]string) string {
	t.Helper()
	env := map[string]string{"MCP_TEST_SERVER": "1"}
	for k, v := range extraEnv {
		env[k] = v
	}
	b, _ := json.Marshal(map[string]any{"command": os.Args[0], "env": env, "timeout": 30})
	path := filepath.Join(dir, folder)
	writeFile(t, path, "mcp.json", string(b), 0o644)
	return path
}

func names(list []tools.Tool) []string {
	out := make([]string, len(list))
	for i, t := range list {
		out[i] = t.Def().Name
	}
	return out
}

// find returns the registry's tool name, failing when there is none.
func find(t *testing.T, r *Registry, name string) tools.Tool {
	t.Helper()
	tool := tools.FindTool(r.CustomTools(), name)
	if tool == nil {
		t.Fatalf("no tool %q among %v", name, names(r.CustomTools()))
	}
	return tool
}

// run validates args against the tool's schema, as the agent does, then runs it.
func run(t *testing.T, ctx context.Context, tool tools.Tool, args string) (tools.Result, error) {
	t.Helper()
	if err := tools.Validate(tool, json.RawMessage(args)); err != nil {
		t.Fatalf("arguments %s do not validate: %v", args, err)
	}
	return tool.Run(ctx, &tools.Env{Channel: "slack-acme/C123"}, json.RawMessage(args))
}

// text joins a result's text.
func text(res tools.Result) string { return resultText(res) }

// waitUntil polls cond; the bound only guards against a hang.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func hasTool(r *Registry, name string) bool { return slices.Contains(names(r.CustomTools()), name) }
