package sandbox

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// hangGuard is how long a test lets Run take before declaring it hung. It is a guard against a
// deadlock, not a timing assertion: a healthy run returns long before it.
const hangGuard = 30 * time.Second

func newTestHost(t *testing.T, opts ...HostOption) *Host {
	t.Helper()
	h, err := NewHost(t.TempDir(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// syncBuffer is a bytes.Buffer that the test may read while Run writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type runResult struct {
	code int
	err  error
}

// run runs c on h and fails the test if Run does not return within hangGuard.
func run(t *testing.T, ctx context.Context, h *Host, c Command) (int, error) {
	t.Helper()
	done := make(chan runResult, 1)
	go func() {
		code, err := h.Run(ctx, c)
		done <- runResult{code, err}
	}()
	select {
	case r := <-done:
		return r.code, r.err
	case <-time.After(hangGuard):
		t.Fatalf("Run did not return within %s", hangGuard)
		return 0, nil
	}
}

func TestRunDirectory(t *testing.T) {
	h := newTestHost(t)
	sub := filepath.Join(h.Workspace(), "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{{"", h.Workspace()}, {sub, sub}} {
		var out bytes.Buffer
		if _, err := run(t, context.Background(), h, Command{Script: "pwd -P", Dir: tc.dir, Output: &out}); err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(tc.want)
		if got := strings.TrimSpace(out.String()); got != want {
			t.Errorf("dir %q: pwd %q, want %q", tc.dir, got, want)
		}
	}
}

func TestRunMissingDirectory(t *testing.T) {
	h := newTestHost(t)
	missing := filepath.Join(h.Workspace(), "nope")
	_, err := run(t, context.Background(), h, Command{Script: "true", Dir: missing})
	if err == nil {
		t.Fatal("Run succeeded in a missing directory")
	}
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("error %q should name %s and match fs.ErrNotExist", err, missing)
	}
	if want := "cannot run command: working directory " + missing + " does not exist"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}

	file := filepath.Join(h.Workspace(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := run(t, context.Background(), h, Command{Script: "true", Dir: file}); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("file as directory: error %v", err)
	}
	if _, err := run(t, context.Background(), h, Command{Script: "true", Dir: "relative"}); err == nil || !strings.Contains(err.Error(), "relative") {
		t.Errorf("relative directory: error %v", err)
	}
}

func TestRunEnvironmentAllowlist(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "secret")
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-secret")
	t.Setenv("LD_PRELOAD", "libmom-test-nonexistent.so")
	t.Setenv("DYLD_INSERT_LIBRARIES", "x")
	t.Setenv("HOME", "/home/mom-test")
	t.Setenv("LC_MOMTEST", "C")
	t.Setenv("MOM_PASS_ME", "passed")
	t.Setenv("PAGER", "less")

	printEnv := func(h *Host, extra ...string) map[string]string {
		t.Helper()
		var out bytes.Buffer
		code, err := run(t, context.Background(), h, Command{Script: "env", Env: extra, Output: &out})
		if err != nil || code != 0 {
			t.Fatalf("env: code %d, err %v, output %s", code, err, out.String())
		}
		vars := map[string]string{}
		for _, line := range strings.Split(out.String(), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				vars[k] = v
			}
		}
		return vars
	}

	vars := printEnv(newTestHost(t), "FOO=bar", "LD_LIBRARY_PATH=/evil", "LD_AUDIT=/evil", "DYLD_LIBRARY_PATH=/evil", "GIT_PAGER=more")
	for _, k := range []string{"ANTHROPIC_API_KEY", "SLACK_BOT_TOKEN", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "MOM_PASS_ME"} {
		if v, ok := vars[k]; ok {
			t.Errorf("%s=%s reached the command", k, v)
		}
	}
	want := map[string]string{
		"HOME": "/home/mom-test", "PATH": os.Getenv("PATH"), "LC_MOMTEST": "C", "FOO": "bar",
		"PAGER": "cat", "GIT_PAGER": "more", "GIT_TERMINAL_PROMPT": "0", "DEBIAN_FRONTEND": "noninteractive",
	}
	for k, v := range want {
		if vars[k] != v {
			t.Errorf("%s=%q, want %q", k, vars[k], v)
		}
	}

	vars = printEnv(newTestHost(t, WithEnvPassthrough("MOM_PASS_ME", "PAGER", "LD_PRELOAD")))
	if vars["MOM_PASS_ME"] != "passed" {
		t.Errorf("passthrough variable missing: %q", vars["MOM_PASS_ME"])
	}
	if vars["PAGER"] != "less" {
		t.Errorf("a passed-through PAGER should win over the default, got %q", vars["PAGER"])
	}
	if _, ok := vars["LD_PRELOAD"]; ok {
		t.Error("LD_PRELOAD passed through although it is a loader variable")
	}
	if _, ok := vars["ANTHROPIC_API_KEY"]; ok {
		t.Error("passthrough let an unnamed secret through")
	}
}

func TestRunRejectsMalformedEnv(t *testing.T) {
	h := newTestHost(t)
	if _, err := run(t, context.Background(), h, Command{Script: "true", Env: []string{"NOEQUALS"}}); err == nil || !strings.Contains(err.Error(), "NOEQUALS") {
		t.Errorf("error %v, want one naming the bad entry", err)
	}
}

func TestRunFallsBackToSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	if err := os.Symlink(sh, filepath.Join(bin, "sh")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	h := newTestHost(t)
	if h.Shell() != filepath.Join(bin, "sh") {
		t.Fatalf("shell %s, want the sh in %s", h.Shell(), bin)
	}
	var out bytes.Buffer
	if _, err := run(t, context.Background(), h, Command{Script: "echo ok", Output: &out}); err != nil || out.String() != "ok\n" {
		t.Errorf("sh: output %q, err %v", out.String(), err)
	}

	t.Setenv("PATH", t.TempDir())
	if _, err := NewHost(t.TempDir()); err == nil || !strings.Contains(err.Error(), "PATH") {
		t.Errorf("no shell at all: error %v", err)
	}
}

// grandchildScript starts a background sleep that keeps stdout open, prints its pid, and
// blocks in a foreground sleep: the shape that makes a naive Wait hang forever.
const grandchildScript = "sleep 100 & echo $!; sleep 100"

func TestRunTimeoutKillsProcessTree(t *testing.T) {
	h := newTestHost(t)
	out := &syncBuffer{}
	_, err := run(t, context.Background(), h, Command{Script: grandchildScript, Timeout: 200 * time.Millisecond, Output: out})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error %v, want ErrTimeout", err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Errorf("a timeout should not look like the caller's ctx ending: %v", err)
	}
	assertGone(t, out.String())
}

func TestRunCancelKillsProcessTree(t *testing.T) {
	h := newTestHost(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	started := make(chan struct{})
	go func() {
		// Cancel once the grandchild's pid is out, so there is a tree to kill.
		for deadline := time.Now().Add(hangGuard); !strings.Contains(out.String(), "\n") && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		close(started)
		cancel()
	}()
	_, err := run(t, ctx, h, Command{Script: grandchildScript, Output: out})
	<-started
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	assertGone(t, out.String())
}

func TestRunCancelledBeforeStart(t *testing.T) {
	h := newTestHost(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(t, ctx, h, Command{Script: "true"}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestRunBackgroundJobAfterExit checks that a script whose background job keeps the output
// pipe open still returns (after the grace period, here made short) with the script's own exit code, and that
// the job is left running: it may be a server the model started on purpose.
func TestRunBackgroundJobAfterExit(t *testing.T) {
	h := newTestHost(t)
	h.grace = time.Millisecond
	// The pid goes to a file: output still in the pipe when the grace ends may be dropped.
	pidFile := filepath.Join(h.Workspace(), "pid")
	code, err := run(t, context.Background(), h, Command{Script: "sleep 100 & echo $! > " + pidFile + "; exit 3"})
	if err != nil || code != 3 {
		t.Fatalf("code %d, err %v", code, err)
	}
	b, _ := os.ReadFile(pidFile)
	pid := firstPid(t, string(b))
	t.Cleanup(func() { killProcess(pid) })
	if processGone(pid) {
		t.Error("background job was killed after a normal exit")
	}
}

// TestRunCancelAfterShellExit cancels while Run waits for a background job that holds the
// output pipe after the shell itself has exited: the job must be killed and Run must return.
func TestRunCancelAfterShellExit(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to watch the shell in")
	}
	h := newTestHost(t)
	h.grace = 2 * hangGuard // the cancel, however late, comes while Run still waits
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	go func() {
		defer cancel()
		deadline := time.Now().Add(hangGuard)
		for !strings.Contains(out.String(), "\n") && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		fields := strings.Fields(out.String())
		if len(fields) < 2 {
			return
		}
		shell, _ := strconv.Atoi(fields[1])
		for !processGone(shell) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}()
	_, err := run(t, ctx, h, Command{Script: "sleep 100 & echo $! $$", Output: out})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	assertGone(t, strings.Fields(out.String())[0]+"\n")
}

func firstPid(t *testing.T, output string) int {
	t.Helper()
	line, _, _ := strings.Cut(output, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no pid in output %q", output)
	}
	return pid
}

// assertGone fails unless the process whose pid starts output has died. A killed process may
// linger as a zombie until its new parent reaps it; for our purpose that is gone.
func assertGone(t *testing.T, output string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to look for the grandchild in")
	}
	pid := firstPid(t, output)
	deadline := time.Now().Add(hangGuard)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			killProcess(pid)
			t.Fatalf("grandchild %d survived the kill", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killProcess cleans up after a test that leaves a process running on purpose (or by failure).
func killProcess(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

func processGone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name: "pid (comm) S ...".
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' || stat[i+2] == 'X'
}
