package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// executorKind makes one kind of executor for the tests of what every executor does alike.
// A kind that cannot run here (no bubblewrap, no Docker engine) skips with the reason.
type executorKind struct {
	name string
	make func(t *testing.T) Executor
}

func executorKinds() []executorKind {
	kinds := []executorKind{
		{"host", func(t *testing.T) Executor { return newTestHost(t) }},
		{"bwrap", func(t *testing.T) Executor {
			_, ws := newDataDir(t)
			return newTestBwrap(t, ws, BwrapOptions{})
		}},
	}
	for _, b := range dockerBackends() {
		kinds = append(kinds, executorKind{"docker-" + b.name, func(t *testing.T) Executor {
			_, ws := newDataDir(t)
			d, err := NewDocker(context.Background(), ws, DockerOptions{Container: b.start(t, ws).container})
			if err != nil {
				t.Fatal(err)
			}
			return d
		}})
	}
	return kinds
}

// eachExecutor runs test against every kind of executor, as subtests named after them.
func eachExecutor(t *testing.T, test func(t *testing.T, e Executor)) {
	for _, k := range executorKinds() {
		t.Run(k.name, func(t *testing.T) { test(t, k.make(t)) })
	}
}

func TestExecutorExitCodes(t *testing.T) {
	eachExecutor(t, func(t *testing.T, e Executor) {
		for _, tc := range []struct {
			script string
			want   int
		}{
			{"true", 0},
			{"false", 1},
			{"exit 42", 42},
			{"kill -9 $$", 128 + 9},
		} {
			code, err := runOn(t, context.Background(), e, Command{Script: tc.script})
			if err != nil {
				t.Fatalf("%q: %v", tc.script, err)
			}
			if code != tc.want {
				t.Errorf("%q: exit code %d, want %d", tc.script, code, tc.want)
			}
		}
	})
}

// TestExecutorOutputInOrder: standard output and standard error arrive as one stream in the
// order they were written, the way a person at a terminal sees them. Many alternations make
// two streams merged after the fact (docker's, without care) show.
func TestExecutorOutputInOrder(t *testing.T) {
	var script, want strings.Builder
	for i := range 50 {
		fmt.Fprintf(&script, "echo out%d; echo err%d >&2; ", i, i)
		fmt.Fprintf(&want, "out%d\nerr%d\n", i, i)
	}
	eachExecutor(t, func(t *testing.T, e Executor) {
		var out bytes.Buffer
		if _, err := runOn(t, context.Background(), e, Command{Script: script.String(), Output: &out}); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != want.String() {
			t.Errorf("output out of order:\n%s", got)
		}
	})
}

func TestExecutorStdinIsEmpty(t *testing.T) {
	eachExecutor(t, func(t *testing.T, e Executor) {
		var out bytes.Buffer
		if _, err := runOn(t, context.Background(), e, Command{Script: "cat; echo done", Output: &out}); err != nil {
			t.Fatal(err)
		}
		if out.String() != "done\n" {
			t.Errorf("output %q: cat should read an empty stdin", out.String())
		}
	})
}
