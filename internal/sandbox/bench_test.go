package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkHostRunTrue measures the per-command overhead of the host executor: environment,
// pipe, fork/exec of the shell, and reaping.
func BenchmarkHostRunTrue(b *testing.B) {
	h, err := NewHost(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if code, err := h.Run(ctx, Command{Script: "true"}); err != nil || code != 0 {
			b.Fatal(code, err)
		}
	}
}

// BenchmarkBwrapRunTrue measures the same for the bwrap executor under channel isolation:
// on top of the host's work, bubblewrap's namespaces and mounts. Compare it with
// BenchmarkHostRunTrue for the per-command price of the sandbox.
func BenchmarkBwrapRunTrue(b *testing.B) {
	benchmarkBwrap(b, IsolationChannel, 1, 0)
}

// BenchmarkBwrapRunTrueNone1000 is BenchmarkBwrapRunTrue under isolation none in a
// workspace of 1,000 channels, each with its log.jsonl and context.jsonl.
func BenchmarkBwrapRunTrueNone1000(b *testing.B) {
	benchmarkBwrap(b, IsolationNone, 1000, 0)
}

// BenchmarkBwrapRunTrueUser100 is BenchmarkBwrapRunTrue under user isolation for a person in
// 100 channels: each is a mount of its own.
func BenchmarkBwrapRunTrueUser100(b *testing.B) {
	benchmarkBwrap(b, IsolationUser, 100, 99)
}

// benchmarkBwrap runs `true` in a workspace of n channels, for a run of the first that sees
// shared others.
func benchmarkBwrap(b *testing.B, iso Isolation, n, shared int) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		b.Skip("bubblewrap is not installed")
	}
	ws := b.TempDir()
	var dirs []string
	for i := range n {
		dir := filepath.Join(ws, "channels", "a", "c"+strconv.Itoa(i))
		if err := os.MkdirAll(filepath.Join(dir, "scratch"), 0o755); err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"log.jsonl", "context.jsonl"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("{}\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		dirs = append(dirs, dir)
	}
	bw, err := NewBwrap(ws, BwrapOptions{Isolation: iso})
	if err != nil {
		b.Fatal(err)
	}
	e := ForRun(bw, Scope{Channel: dirs[0], Shared: func(context.Context) ([]string, error) { return dirs[1 : 1+shared], nil }})
	ctx := context.Background()
	for b.Loop() {
		if code, err := e.Run(ctx, Command{Script: "true"}); err != nil || code != 0 {
			b.Fatal(code, err)
		}
	}
}
