package sandbox

import (
	"context"
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
