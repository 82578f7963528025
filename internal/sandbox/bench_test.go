package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
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
	if _, err := exec.LookPath("bwrap"); err != nil {
		b.Skip("bubblewrap is not installed")
	}
	ws := b.TempDir()
	channel := filepath.Join(ws, "channels", "a", "c1")
	if err := os.MkdirAll(channel, 0o755); err != nil {
		b.Fatal(err)
	}
	bw, err := NewBwrap(ws, BwrapOptions{})
	if err != nil {
		b.Fatal(err)
	}
	e := ForRun(bw, Scope{Channel: channel})
	ctx := context.Background()
	for b.Loop() {
		if code, err := e.Run(ctx, Command{Script: "true"}); err != nil || code != 0 {
			b.Fatal(code, err)
		}
	}
}
