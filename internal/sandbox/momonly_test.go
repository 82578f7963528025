package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakedocker "github.com/mom-agent/mom/internal/fake/docker"
)

// TestFileToolsRefuseMomOnlyFiles checks, for every executor, that the file tools can read a
// channel's log.jsonl and context.jsonl but not write or replace them, by their own path or
// through a link, and that the error says what the file is.
func TestFileToolsRefuseMomOnlyFiles(t *testing.T) {
	for _, kind := range []string{"host", "bwrap", "bwrap none", "docker"} {
		t.Run(kind, func(t *testing.T) {
			_, ws := newDataDir(t)
			var e Executor
			base := Inside
			switch kind {
			case "host":
				h, err := NewHost(ws)
				if err != nil {
					t.Fatal(err)
				}
				e, base = h, ws
			case "bwrap", "bwrap none":
				iso := IsolationChannel
				if kind == "bwrap none" {
					iso = IsolationNone
				}
				b, err := NewBwrap(ws, BwrapOptions{Isolation: iso})
				if err != nil {
					t.Skip(err)
				}
				e = ForRun(b, scopeOf(ws, "c1"))
			case "docker":
				withFakeDocker(t, ws, fakedocker.Options{})
				d, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
				if err != nil {
					t.Fatal(err)
				}
				e = d
			}
			ctx := context.Background()
			path := func(rel string) string { return filepath.Join(base, rel) }
			c1 := filepath.Join(ws, "channels", "a", "c1")
			if err := os.WriteFile(filepath.Join(c1, "context.jsonl"), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("channels/a/c1/log.jsonl", filepath.Join(ws, "history")); err != nil {
				t.Fatal(err)
			}
			for rel, what := range map[string]string{
				"channels/a/c1/log.jsonl":     "the channel's history (log.jsonl), which only mom writes",
				"channels/a/c1/context.jsonl": "the model's context for the channel (context.jsonl), which only mom writes",
				"history":                     "(log.jsonl), which only mom writes",
			} {
				err := e.WriteFile(ctx, path(rel), strings.NewReader("forged\n"))
				var mo *momOnlyError
				if !errors.As(err, &mo) || !strings.Contains(err.Error(), what) {
					t.Errorf("writing %s: %v, want an error saying %q", rel, err, what)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(c1, "log.jsonl")); string(b) != "log of c1\n" {
				t.Errorf("log.jsonl holds %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(c1, "context.jsonl")); string(b) != "{}\n" {
				t.Errorf("context.jsonl holds %q", b)
			}
			f, err := e.Open(ctx, path("channels/a/c1/log.jsonl"))
			if err != nil {
				t.Fatalf("reading log.jsonl: %v", err)
			}
			got, _ := io.ReadAll(f)
			f.Close()
			if string(got) != "log of c1\n" {
				t.Errorf("read %q", got)
			}
			// Files of those names elsewhere are anybody's.
			for _, rel := range []string{"channels/a/c1/scratch/log.jsonl", "context.jsonl"} {
				if err := e.WriteFile(ctx, path(rel), strings.NewReader("mine\n")); err != nil {
					t.Errorf("writing %s: %v", rel, err)
				}
			}
		})
	}
}

// TestBwrapFileToolsWriteOnlyTheirChannel checks that under isolation none the file tools,
// like commands, write the run's own channel and the workspace outside channels/, and
// only read the other channels.
func TestBwrapFileToolsWriteOnlyTheirChannel(t *testing.T) {
	_, ws := newDataDir(t)
	b, err := NewBwrap(ws, BwrapOptions{Isolation: IsolationNone})
	if err != nil {
		t.Skip(err)
	}
	run := ForRun(b, scopeOf(ws, "c1"))
	ctx := context.Background()
	for _, p := range []string{"/workspace/channels/a/c1/scratch/ok.txt", "/workspace/notes.md"} {
		if err := run.WriteFile(ctx, p, strings.NewReader("ok")); err != nil {
			t.Errorf("writing %s: %v", p, err)
		}
	}
	for _, p := range []string{"/workspace/channels/a/c2/scratch/x.txt", "/workspace/channels/a/c2/MEMORY.md", "/workspace/channels/a/new/log.jsonl", "/workspace/channels/x.txt"} {
		err := run.WriteFile(ctx, p, strings.NewReader("x"))
		var ro *readOnlyError
		if !errors.As(err, &ro) {
			t.Errorf("writing %s: %v, want a read-only error", p, err)
		}
		if _, err := os.Lstat(filepath.Join(ws, strings.TrimPrefix(p, "/workspace/"))); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if _, err := run.Open(ctx, "/workspace/channels/a/c2/log.jsonl"); err != nil {
		t.Errorf("reading another channel under isolation none: %v", err)
	}
	// Without a scope there is no channel of its own to write.
	if err := b.WriteFile(ctx, "/workspace/channels/a/c1/scratch/ok.txt", strings.NewReader("x")); err == nil {
		t.Error("an executor without a run wrote a channel directory")
	}
}
