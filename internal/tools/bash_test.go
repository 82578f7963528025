package tools

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
)

func TestBashOutput(t *testing.T) {
	env := newEnv(t)
	got, res := mustText(t, NewBash(), env, map[string]any{"command": "echo out; echo err >&2"})
	if got != "out\nerr" {
		t.Errorf("text %q", got)
	}
	if res.Details != nil {
		t.Errorf("details %v for output that was not cut", res.Details)
	}
	if got, _ := mustText(t, NewBash(), env, map[string]any{"command": "true"}); got != "(no output)" {
		t.Errorf("empty output: %q", got)
	}
	if got, _ := mustText(t, NewBash(), env, map[string]any{"command": "pwd -P"}); got != mustEval(t, env.Cwd) {
		t.Errorf("ran in %q, want the working directory %q", got, env.Cwd)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBashExitCode(t *testing.T) {
	env := newEnv(t)
	if got, _ := mustFail(t, NewBash(), env, map[string]any{"command": "echo partial; exit 3"}); got != "partial\n\nCommand exited with code 3" {
		t.Errorf("error %q", got)
	}
	if got, _ := mustFail(t, NewBash(), env, map[string]any{"command": "exit 7"}); got != "Command exited with code 7" {
		t.Errorf("error %q", got)
	}
}

func TestBashTimeout(t *testing.T) {
	env := newEnv(t)
	// 0.01 is clamped to the 1-second minimum.
	got, _ := mustFail(t, NewBash(), env, map[string]any{"command": "echo started; sleep 100", "timeout": 0.01})
	if got != "started\n\nCommand timed out after 1 seconds" {
		t.Errorf("error %q", got)
	}
}

func TestBashAbort(t *testing.T) {
	env := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	env.Progress = func(partial string) {
		if strings.Contains(partial, "started") {
			once.Do(cancel)
		}
	}
	_, err := call(t, ctx, NewBash(), env, map[string]any{"command": "echo started; sleep 100"})
	if err == nil || err.Error() != "started\n\nCommand aborted" {
		t.Errorf("error %v", err)
	}
}

func TestBashMissingWorkingDirectory(t *testing.T) {
	env := newEnv(t)
	env.Cwd = filepath.Join(env.Cwd, "gone")
	got, _ := mustFail(t, NewBash(), env, map[string]any{"command": "true"})
	if !strings.Contains(got, env.Cwd) || !strings.Contains(got, "does not exist") {
		t.Errorf("error %q should name the missing directory", got)
	}
}

var fullOutputRE = regexp.MustCompile(`Full output: (\S+)\]$`)

// spilled returns the content of the full-output file the notice in text names.
func spilled(t *testing.T, text string) string {
	t.Helper()
	m := fullOutputRE.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no full output path in %q", text[max(0, len(text)-200):])
	}
	if !strings.HasPrefix(filepath.Base(m[1]), "bash-") || !strings.HasSuffix(m[1], ".log") {
		t.Errorf("full output file named %s", m[1])
	}
	return readFile(t, m[1])
}

func TestBashTruncatesByLines(t *testing.T) {
	env := newEnv(t)
	got, res := mustText(t, NewBash(), env, map[string]any{"command": "seq 1 10000"})
	wantStart := numbered(10000)[len(numbered(8000)):]
	if !strings.HasPrefix(got, strings.TrimSuffix(wantStart, "\n")+"\n\n[Showing lines 8001-10000 of 10000. Full output: "+env.Scratch.Path()+"/bash-") {
		t.Errorf("text ends %q", got[max(0, len(got)-200):])
	}
	if full := spilled(t, got); full != numbered(10000) {
		t.Errorf("full output file holds %d bytes, want %d", len(full), len(numbered(10000)))
	}
	d, ok := res.Details.(*bashDetails)
	if !ok || !d.Truncation.Truncated || d.Truncation.TruncatedBy != "lines" || d.Truncation.TotalLines != 10000 ||
		d.Truncation.OutputLines != 2000 || d.FullOutputPath == "" {
		t.Errorf("details %+v", res.Details)
	}
}

func TestBashTruncatesByBytes(t *testing.T) {
	env := newEnv(t)
	// 1000 lines of 100 bytes: under the line limit, over the byte limit.
	got, _ := mustText(t, NewBash(), env, map[string]any{"command": `for i in $(seq 1 1000); do printf '%099d\n' $i; done`})
	// 50 KB holds 512 such lines (51200 / 100).
	if !strings.Contains(got, "\n\n[Showing lines 489-1000 of 1000 (50.0KB limit). Full output: ") {
		t.Errorf("text ends %q", got[max(0, len(got)-200):])
	}
	if full := spilled(t, got); len(full) != 100_000 {
		t.Errorf("full output %d bytes", len(full))
	}
}

func TestBashTruncatesOneHugeLine(t *testing.T) {
	env := newEnv(t)
	got, res := mustText(t, NewBash(), env, map[string]any{"command": "head -c 61440 /dev/zero | tr '\\0' x"})
	want := strings.Repeat("x", 51200) + "\n\n[Showing last 50.0KB of line 1 (line is 60.0KB). Full output: "
	if !strings.HasPrefix(got, want) {
		t.Errorf("text %q...%q", got[:20], got[max(0, len(got)-200):])
	}
	if full := spilled(t, got); full != strings.Repeat("x", 61440) {
		t.Errorf("full output %d bytes", len(full))
	}
	if d := res.Details.(*bashDetails); !d.Truncation.LastLinePartial {
		t.Errorf("details %+v", d)
	}
}

func TestBashTruncatedFailure(t *testing.T) {
	env := newEnv(t)
	got, res := mustFail(t, NewBash(), env, map[string]any{"command": "seq 1 3000; exit 2"})
	if !regexp.MustCompile(`^1001\n[\s\S]*\n3000\n\n\[Showing lines 1001-3000 of 3000\. Full output: \S+\]\n\nCommand exited with code 2$`).MatchString(got) {
		t.Errorf("error ends %q", got[max(0, len(got)-200):])
	}
	if res.Details == nil {
		t.Error("details are lost on failure")
	}
}

func TestBashLargeOutputStreamsToFile(t *testing.T) {
	env := newEnv(t)
	// About 20 MB: far more than the sink holds in memory.
	got, _ := mustText(t, NewBash(), env, map[string]any{"command": "seq 1 3000000"})
	if !strings.Contains(got, "[Showing lines 2998001-3000000 of 3000000. Full output: ") {
		t.Errorf("text ends %q", got[max(0, len(got)-200):])
	}
	full := spilled(t, got)
	if !strings.HasPrefix(full, "1\n2\n3\n") || !strings.HasSuffix(full, "\n2999999\n3000000\n") || strings.Count(full, "\n") != 3000000 {
		t.Errorf("full output is not the whole output (%d bytes)", len(full))
	}
}

func TestBashWithoutScratchDirectory(t *testing.T) {
	env := newEnv(t)
	env.Scratch = confined.Dir{}
	got, res := mustText(t, NewBash(), env, map[string]any{"command": "seq 1 3000"})
	if !strings.HasSuffix(got, "\n\n[Showing lines 1001-3000 of 3000]") {
		t.Errorf("text ends %q", got[max(0, len(got)-100):])
	}
	if d := res.Details.(*bashDetails); d.FullOutputPath != "" || d.FullOutputError == "" {
		t.Errorf("details %+v", d)
	}
}

func TestBashProgress(t *testing.T) {
	env := newEnv(t)
	var updates []string
	env.Progress = func(partial string) { updates = append(updates, partial) }
	mustText(t, NewBash(), env, map[string]any{"command": "echo one; sleep 0.1; echo two"})
	if len(updates) == 0 || updates[len(updates)-1] != "one\ntwo\n" {
		t.Errorf("progress updates %q", updates)
	}
	for _, u := range updates {
		if !strings.HasPrefix(u, "one\n") {
			t.Errorf("update %q does not show the output so far", u)
		}
	}
}

func TestBashKeepsSecretsAway(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "secret")
	env := newEnv(t)
	got, _ := mustText(t, NewBash(), env, map[string]any{"command": "echo \"key=$ANTHROPIC_API_KEY\""})
	if got != "key=" {
		t.Errorf("the command saw %q", got)
	}
}

func TestBashInvalidUTF8(t *testing.T) {
	env := newEnv(t)
	got, _ := mustText(t, NewBash(), env, map[string]any{"command": `printf 'a\377b'`})
	if got != "a\uFFFDb" {
		t.Errorf("text %q", got)
	}
}

// BenchmarkBashTrue is the per-call overhead of the bash tool on the host executor: argument
// decoding, the output sink, and one shell started and reaped.
func BenchmarkBashTrue(b *testing.B) {
	env := newEnv(b)
	bash := NewBash()
	args := []byte(`{"label":"bench","command":"true"}`)
	ctx := context.Background()
	for b.Loop() {
		if _, err := bash.Run(ctx, env, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBashOutput1MB measures streaming 1 MB of output through the sink (with spilling).
func BenchmarkBashOutput1MB(b *testing.B) {
	env := newEnv(b)
	bash := NewBash()
	args := []byte(`{"label":"bench","command":"head -c 1048576 /dev/zero | tr '\\0' '\\n'"}`)
	ctx := context.Background()
	b.SetBytes(1 << 20)
	for b.Loop() {
		if _, err := bash.Run(ctx, env, args); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBashFullOutputNeverFollowsALink: a command can replace its scratch/ with a link to
// any directory of the host; the full output of the next long command must not be written
// there.
func TestBashFullOutputNeverFollowsALink(t *testing.T) {
	env := newEnv(t)
	ws, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "ch"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "ch", "scratch")); err != nil {
		t.Fatal(err)
	}
	env.Scratch = confined.Root(ws).Join("ch", "scratch")
	_, res := mustText(t, NewBash(), env, map[string]any{"command": "seq 1 3000"})
	d := res.Details.(*bashDetails)
	if d.FullOutputPath != "" || !strings.Contains(d.FullOutputError, "symbolic link") {
		t.Errorf("details %+v, want the link named as why the full output was not saved", d)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("the full output went through the link: %v", ents)
	}
}
