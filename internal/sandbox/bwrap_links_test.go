package sandbox

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestBwrapLeavesOutWhatMomDidNotMake plants, on the host, what a command might have left
// in a channel directory in place of mom's files: a link in place of log.jsonl or of the
// channel directory itself, a second name for context.jsonl, a FIFO. The sandbox must not
// follow a link to mount what it points to, and mom's log must name each problem.
func TestBwrapLeavesOutWhatMomDidNotMake(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, ws string)
		channel string // the run's channel
		shared  string // a channel of the person's, under user isolation
		problem string
	}{
		{
			name: "log.jsonl is a link to another channel's",
			plant: func(t *testing.T, ws string) {
				replaceWithLink(t, filepath.Join(ws, "channels/a/c1/log.jsonl"), "../c2/log.jsonl")
			},
			channel: "c1", problem: "channels/a/c1/log.jsonl is a symbolic link",
		},
		{
			name: "the channel directory is a link to another channel's",
			plant: func(t *testing.T, ws string) {
				replaceWithLink(t, filepath.Join(ws, "channels/a/c3"), "c2")
			},
			channel: "c3", problem: "channels/a/c3 is not a directory",
		},
		{
			name: "a shared channel's directory is a link",
			plant: func(t *testing.T, ws string) {
				replaceWithLink(t, filepath.Join(ws, "channels/a/c3"), "c2")
			},
			channel: "c1", shared: "c3", problem: "channels/a/c3 is not a directory",
		},
		{
			name: "context.jsonl has a second name",
			plant: func(t *testing.T, ws string) {
				p := filepath.Join(ws, "channels/a/c1/context.jsonl")
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Link(p, filepath.Join(ws, "keep.jsonl")); err != nil {
					t.Fatal(err)
				}
			},
			channel: "c1", problem: "channels/a/c1/context.jsonl has 2 names",
		},
		{
			name: "context.jsonl is a FIFO",
			plant: func(t *testing.T, ws string) {
				if err := syscall.Mkfifo(filepath.Join(ws, "channels/a/c1/context.jsonl"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			channel: "c1", problem: "channels/a/c1/context.jsonl is a named pipe",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ws := newDataDir(t)
			tc.plant(t, ws)
			var logged bytes.Buffer
			b := newTestBwrap(t, ws, BwrapOptions{Isolation: IsolationUser, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
			s := scopeOf(ws, tc.channel)
			if tc.shared != "" {
				s.Shared = func(context.Context) ([]string, error) {
					return []string{filepath.Join(ws, "channels", "a", tc.shared)}, nil
				}
			}
			out, _ := sh(t, ForRun(b, s), "ls -A /workspace/channels/a; cat /workspace/channels/a/*/log.jsonl; echo forged >> /workspace/channels/a/"+tc.channel+"/log.jsonl")
			if strings.Contains(out, "log of c2") {
				t.Errorf("the command saw another channel's log through the link: %q", out)
			}
			if !strings.Contains(logged.String(), tc.problem) {
				t.Errorf("mom's log does not say %q:\n%s", tc.problem, logged.String())
			}
			if b, _ := os.ReadFile(filepath.Join(ws, "channels/a/c2/log.jsonl")); string(b) != "log of c2\n" {
				t.Errorf("c2's log.jsonl holds %q", b)
			}
		})
	}
}

// replaceWithLink replaces path (a file or a directory) with a symbolic link to target.
func replaceWithLink(t *testing.T, path, target string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
