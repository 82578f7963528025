package sandbox

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// newTestBwrap returns a bwrap executor for ws, skipping the test where bubblewrap cannot run
// (scripts/test installs it, so on CI and here it does).
func newTestBwrap(t *testing.T, ws string, opts BwrapOptions) *Bwrap {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap is not installed (scripts/test installs it)")
	}
	b, err := NewBwrap(ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Check(context.Background()); err != nil {
		t.Skipf("bubblewrap cannot make namespaces on this machine: %v", err)
	}
	return b
}

// sh runs script on e and returns its output, failing the test if it could not run.
func sh(t *testing.T, e Executor, script string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	code, err := runOn(t, context.Background(), e, Command{Script: script, Output: &out})
	if err != nil {
		t.Fatalf("%s: %v (output %q)", script, err, out.String())
	}
	return out.String(), code
}

// runOn is run for any executor.
func runOn(t *testing.T, ctx context.Context, e Executor, c Command) (int, error) {
	t.Helper()
	done := make(chan runResult, 1)
	go func() {
		code, err := e.Run(ctx, c)
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

func scopeOf(ws, channel string) Scope {
	return Scope{Channel: filepath.Join(ws, "channels", "a", channel)}
}

func TestBwrapChannelIsolation(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{Isolation: IsolationChannel})
	run := ForRun(b, scopeOf(ws, "c1"))

	out, code := sh(t, run, "cat /workspace/channels/a/c1/log.jsonl /workspace/MEMORY.md")
	if code != 0 || out != "log of c1\nshared memory\n" {
		t.Errorf("own channel and workspace: code %d, output %q", code, out)
	}
	out, code = sh(t, run, "cat /workspace/channels/a/c2/log.jsonl")
	if code == 0 || !strings.Contains(out, "No such file") {
		t.Errorf("another channel's log: code %d, output %q", code, out)
	}
	if out, _ := sh(t, run, "ls /workspace/channels/a"); out != "c1\n" {
		t.Errorf("channels listed: %q, want only c1", out)
	}
	if out, _ := sh(t, b, "ls -A /workspace/channels"); out != "" {
		t.Errorf("without a scope, channels listed: %q, want none", out)
	}

	none := newTestBwrap(t, ws, BwrapOptions{Isolation: IsolationNone})
	out, code = sh(t, ForRun(none, scopeOf(ws, "c1")), "cat /workspace/channels/a/c2/log.jsonl")
	if code != 0 || out != "log of c2\n" {
		t.Errorf("isolation none: code %d, output %q", code, out)
	}
}

func TestBwrapUserIsolation(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{Isolation: IsolationUser})
	asked := 0
	s := scopeOf(ws, "c1")
	s.Shared = func(context.Context) ([]string, error) {
		asked++
		return []string{filepath.Join(ws, "channels", "a", "c2"), filepath.Join(ws, "channels", "a", "..", "..")}, nil
	}
	run := ForRun(b, s)
	if out, _ := sh(t, run, "cat /workspace/channels/a/*/log.jsonl"); out != "log of c1\nlog of c2\n" {
		t.Errorf("member channels: output %q, want c1 and c2 only", out)
	}
	sh(t, run, "true")
	if asked != 1 {
		t.Errorf("membership asked %d times in one run, want once", asked)
	}

	failing := scopeOf(ws, "c1")
	failing.Shared = func(context.Context) ([]string, error) { return nil, errors.New("slack is down") }
	out, _ := sh(t, ForRun(b, failing), "ls /workspace/channels/a")
	if !strings.Contains(out, "slack is down") || !strings.HasSuffix(out, "\nc1\n") {
		t.Errorf("failed lookup: output %q, want a note and only c1", out)
	}
}

// TestBwrapHostileScope checks that a channel directory that is not one (an id that would
// climb out, if the store let it) shows nothing.
func TestBwrapHostileScope(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{})
	for _, dir := range []string{
		filepath.Join(ws, "channels", "a", "..", "..", ".."),
		filepath.Join(ws, "channels", "a"),
		filepath.Join(ws, "channels", "a", "c1", ".."),
		"/etc",
	} {
		if out, _ := sh(t, ForRun(b, Scope{Channel: dir}), "ls -A /workspace/channels"); out != "" {
			t.Errorf("scope %s shows channels %q", dir, out)
		}
	}
}

func TestBwrapSecretsStayOut(t *testing.T) {
	data, ws := newDataDir(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-secret")
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-test-secret")
	t.Setenv("LD_PRELOAD", "libmom-test-nonexistent.so")
	t.Setenv("MOM_PASS_ME", "passed")
	b := newTestBwrap(t, ws, BwrapOptions{Env: []string{"MOM_PASS_ME"}})
	run := ForRun(b, scopeOf(ws, "c1"))

	out, _ := sh(t, run, "env")
	for _, secret := range []string{"sk-ant-test-secret", "xoxb-test-secret", "LD_PRELOAD"} {
		if strings.Contains(out, secret) {
			t.Errorf("%s reached the command's environment:\n%s", secret, out)
		}
	}
	for _, want := range []string{"MOM_PASS_ME=passed", "HOME=" + sandboxHome, "TMPDIR=/tmp", "PAGER=cat"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("environment lacks %s:\n%s", want, out)
		}
	}
	// mom's own environment is not readable through /proc: the sandbox has its own.
	out, _ = sh(t, run, "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'")
	if strings.Contains(out, "secret") {
		t.Errorf("a process environment with a secret is visible:\n%s", out)
	}
	for _, path := range []string{filepath.Join(data, "config.json"), "/workspace/../config.json", os.Getenv("HOME")} {
		if out, code := sh(t, run, "ls -A "+shellQuoteTest(path)); code == 0 && out != "" {
			t.Errorf("%s is visible in the sandbox: %q", path, out)
		}
	}
	if _, err := os.Stat("/etc/shadow"); err == nil {
		if out, code := sh(t, run, "cat /etc/shadow"); code == 0 && out != "" {
			t.Errorf("/etc/shadow is readable: %q", out)
		}
	}
}

func shellQuoteTest(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestBwrapWritesOnlyTheWorkspace(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{})
	run := ForRun(b, scopeOf(ws, "c1"))
	out, code := sh(t, run, "echo made > /workspace/channels/a/c1/scratch/out.txt && echo global > /workspace/notes.md && pwd")
	if code != 0 {
		t.Fatalf("writing the workspace: code %d, output %q", code, out)
	}
	for p, want := range map[string]string{"channels/a/c1/scratch/out.txt": "made\n", "notes.md": "global\n"} {
		if got, _ := os.ReadFile(filepath.Join(ws, p)); string(got) != want {
			t.Errorf("%s holds %q, want %q", p, got, want)
		}
	}
	if _, code := sh(t, run, "touch /usr/mom-test-file"); code == 0 {
		os.Remove("/usr/mom-test-file")
		t.Error("the sandbox could write /usr")
	}
	// /tmp and the home directory are private and start empty for every command.
	sh(t, run, "echo x > /tmp/mine && echo y > ~/mine")
	if out, _ := sh(t, run, "ls -A /tmp ~"); strings.Contains(out, "mine") {
		t.Errorf("one command's /tmp or home reached the next: %q", out)
	}

	var got bytes.Buffer
	code, err := runOn(t, context.Background(), run, Command{Script: "pwd", Dir: "/workspace/channels/a/c1/scratch", Output: &got})
	if err != nil || code != 0 || got.String() != "/workspace/channels/a/c1/scratch\n" {
		t.Errorf("working directory: %q, code %d, err %v", got.String(), code, err)
	}
	for _, dir := range []string{"/workspace/channels/a/c2/scratch", "/workspace/../", "/tmp"} {
		if _, err := runOn(t, context.Background(), run, Command{Script: "pwd", Dir: dir}); err == nil {
			t.Errorf("working directory %s was accepted", dir)
		}
	}
}

func TestBwrapOffline(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{Offline: true})
	out, _ := sh(t, b, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")
	if out != "lo\n" {
		t.Errorf("offline sandbox has network interfaces %q, want only lo", out)
	}
}

// uniqueSleep returns a sleep duration no other test uses, so the process can be found by its
// command line from outside the sandbox's PID namespace.
func uniqueSleep() string { return strconv.Itoa(500000 + rand.IntN(400000)) }

// findSleep returns the host pids of live `sleep n` processes.
func findSleep(t *testing.T, n string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc to look for processes in")
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if string(cmdline) == "sleep\x00"+n+"\x00" && !processGone(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// assertSleepsGone waits for every `sleep n` to die and fails if one survives.
func assertSleepsGone(t *testing.T, n string) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		pids := findSleep(t, n)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, p := range pids {
				killProcess(p)
			}
			t.Fatalf("processes %v survived the kill", pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// treeScript starts a background grandchild, one that leaves the process group with setsid,
// and blocks in the foreground.
func treeScript(n string) string {
	return "sleep " + n + " & setsid sleep " + n + " & echo started; sleep " + n
}

func TestBwrapTimeoutKillsTree(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{})
	n := uniqueSleep()
	out := &syncBuffer{}
	_, err := runOn(t, context.Background(), ForRun(b, scopeOf(ws, "c1")), Command{Script: treeScript(n), Timeout: 500 * time.Millisecond, Output: out})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error %v, want ErrTimeout (output %q)", err, out.String())
	}
	if !strings.Contains(out.String(), "started") {
		t.Fatalf("the script did not get to start its children: %q", out.String())
	}
	assertSleepsGone(t, n)
}

func TestBwrapCancelKillsTree(t *testing.T) {
	_, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{})
	n := uniqueSleep()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	go func() {
		for deadline := time.Now().Add(hangGuard); !strings.Contains(out.String(), "started") && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		// Cancel once all three sleeps run, so there is a tree to kill.
		for deadline := time.Now().Add(hangGuard); len(findSleep(t, n)) < 3 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	_, err := runOn(t, ctx, ForRun(b, scopeOf(ws, "c1")), Command{Script: treeScript(n), Output: out})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	assertSleepsGone(t, n)
}

func TestBwrapFileOpsFollowIsolation(t *testing.T) {
	data, ws := newDataDir(t)
	b := newTestBwrap(t, ws, BwrapOptions{})
	run := ForRun(b, scopeOf(ws, "c1"))
	ctx := context.Background()
	// A link made inside the sandbox to another channel or out of the workspace.
	sh(t, ForRun(newTestBwrap(t, ws, BwrapOptions{Isolation: IsolationNone}), scopeOf(ws, "c1")),
		"cd /workspace/channels/a/c1 && ln -s ../c2/log.jsonl other && ln -s ../../../../config.json cfg")
	for _, p := range []string{"/workspace/channels/a/c1/other", "/workspace/channels/a/c1/cfg", "/workspace/channels/a/c2/log.jsonl"} {
		if f, err := run.Open(ctx, p); err == nil {
			f.Close()
			t.Errorf("opened %s", p)
		}
		if f, err := run.OpenHost(ctx, p); err == nil {
			f.Close()
			t.Errorf("OpenHost gave out %s", p)
		}
	}
	if err := run.WriteFile(ctx, "/workspace/channels/a/c1/cfg", strings.NewReader("{}")); err == nil {
		t.Error("wrote through a link to config.json")
	}
	if b, _ := os.ReadFile(filepath.Join(data, "config.json")); !strings.Contains(string(b), "xoxb-config-secret") {
		t.Errorf("config.json was changed: %q", b)
	}
	if fi, err := run.Stat(ctx, "/workspace/channels/a/c1/log.jsonl"); err != nil || fi.Size != int64(len("log of c1\n")) {
		t.Errorf("stat own log: %+v, %v", fi, err)
	}
	if f, err := run.OpenHost(ctx, "/workspace/channels/a/c1/log.jsonl"); err != nil || f.Name() != filepath.Join(ws, "channels/a/c1/log.jsonl") {
		t.Errorf("OpenHost = %v, %v", f, err)
	} else {
		f.Close()
	}
	if got := run.SandboxPath(filepath.Join(ws, "channels/a/c1/scratch")); got != "/workspace/channels/a/c1/scratch" {
		t.Errorf("SandboxPath = %q", got)
	}
	if tr := TraitsOf(run); tr != (Traits{Isolation: IsolationChannel}) {
		t.Errorf("traits %+v", tr)
	}
}
