package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/sandbox"
)

// newEnv returns a tool environment on the host executor, with a workspace in a temporary
// directory and the working (scratch) directory inside it.
func newEnv(t testing.TB) *Env {
	t.Helper()
	ws := t.TempDir()
	h, err := sandbox.NewHost(ws)
	if err != nil {
		t.Fatal(err)
	}
	scratch := filepath.Join(h.Workspace(), "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	return &Env{Exec: h, Cwd: scratch, Scratch: confined.Root(scratch)}
}

// call validates args against tool's schema, as the agent does, then runs the tool.
func call(t testing.TB, ctx context.Context, tool Tool, env *Env, args map[string]any) (Result, error) {
	t.Helper()
	if _, ok := args["label"]; !ok {
		args["label"] = "testing"
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(tool, raw); err != nil {
		t.Fatalf("test arguments do not validate: %v", err)
	}
	return tool.Run(ctx, env, raw)
}

// mustText runs the call, fails on error, and returns the result's text.
func mustText(t testing.TB, tool Tool, env *Env, args map[string]any) (string, Result) {
	t.Helper()
	res, err := call(t, context.Background(), tool, env, args)
	if err != nil {
		t.Fatalf("%s: %v", tool.Def().Name, err)
	}
	return resultText(res), res
}

// mustFail runs the call and returns its error text, failing if it succeeded.
func mustFail(t testing.TB, tool Tool, env *Env, args map[string]any) (string, Result) {
	t.Helper()
	res, err := call(t, context.Background(), tool, env, args)
	if err == nil {
		t.Fatalf("%s succeeded with %q, want an error", tool.Def().Name, resultText(res))
	}
	return err.Error(), res
}

func resultText(res Result) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type == llm.TypeText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// numbered returns lines "1".."n", each ended by a newline, as seq prints them.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
