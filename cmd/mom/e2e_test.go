package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The end-to-end tests run the real mom binary against the loopback fake model. The binary is
// built once per test run; with -race, it is built with the race detector too, so races in a
// real process fail the tests as well.

// momBinary is the path of the binary built by TestMain.
var momBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mom-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	momBinary = filepath.Join(dir, "mom")
	// MOM_TEST_BINARY runs a binary built elsewhere: scripts/bench measures the stripped
	// build people install, not this package's debug build.
	if prebuilt := os.Getenv("MOM_TEST_BINARY"); prebuilt != "" {
		momBinary = prebuilt
	} else {
		args := []string{"build", "-o", momBinary}
		if raceEnabled {
			args = append(args, "-race")
		}
		build := exec.Command("go", append(args, ".")...)
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building mom: %v\n%s", err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// world is one data directory with a fake model, and the environment mom runs in.
type world struct {
	t   testing.TB
	dir string
	llm *fakellm.Server
	env []string
	// cred, when set, runs mom as another user (see runAs).
	cred *syscall.Credential
}

// newWorld makes a data directory whose config points at a fresh fake model, with the
// terminal adapter and fast retries.
func newWorld(t testing.TB, opts ...func(*worldConfig)) *world {
	t.Helper()
	c := worldConfig{busy: "reject", provider: "anthropic"}
	for _, o := range opts {
		o(&c)
	}
	srv := fakellm.New(fakellm.WithAPIKey("test-key"))
	t.Cleanup(srv.Close)
	w := &world{t: t, dir: filepath.Join(t.TempDir(), "data"), llm: srv}
	home := t.TempDir()
	// MOM_WEB_LISTEN moves the web chat of a generated config to a free port, so tests never
	// fight over 8787. MOM_SANDBOX=host keeps commands on the host, where the tests watch
	// their files and processes; sandbox_test.go covers bwrap and docker. MOM_APPROVALS=off
	// runs them unasked; approvals_test.go asks.
	w.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "USER=ada", "LANG=C.UTF-8", "TZ=UTC", "MOM_WEB_LISTEN=127.0.0.1:0", "MOM_SANDBOX=host", "MOM_APPROVALS=off"}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := srv.URL()
	if c.provider == "openai" {
		base = srv.OpenAIURL()
	}
	key := c.apiKey
	if key == "" {
		key = "test-key"
	}
	w.writeConfig(fmt.Sprintf(`{
  // written by the end-to-end tests
  "model": {"provider": %q, "id": "claude-sonnet-4-5", "apiKey": %q, "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "adapters": {"terminal": {"type": "cli", "busy": %q}},
}`, c.provider, key, base, c.busy))
	return w
}

type worldConfig struct {
	busy, provider, apiKey string
}

func withBusy(policy string) func(*worldConfig) { return func(c *worldConfig) { c.busy = policy } }
func withAPIKey(key string) func(*worldConfig)  { return func(c *worldConfig) { c.apiKey = key } }
func withProvider(p string) func(*worldConfig)  { return func(c *worldConfig) { c.provider = p } }

func (w *world) writeConfig(text string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "config.json"), []byte(text), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// channelDir is where a channel's files live.
func (w *world) channelDir(adapter, channel string) string {
	return filepath.Join(w.dir, "workspace", "channels", adapter, channel)
}

// result is what a finished mom process left behind.
type result struct {
	stdout, stderr string
	code           int
}

// mom runs the binary to its end with args (the data directory is not added) and stdin.
func (w *world) mom(stdin string, args ...string) result {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), apptest.HangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, momBinary, args...)
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: w.cred}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	default:
		w.t.Fatalf("running mom %v: %v\nstderr:\n%s", args, err, res.stderr)
	}
	if ctx.Err() != nil {
		w.t.Fatalf("mom %v did not finish\nstdout:\n%s\nstderr:\n%s", args, res.stdout, res.stderr)
	}
	return res
}

// ask runs `mom run` with one prompt in the default one-shot channel and expects success.
func (w *world) ask(prompt string) result {
	w.t.Helper()
	res := w.mom("", "run", w.dir, "-m", prompt)
	if res.code != 0 {
		w.t.Fatalf("mom run exited %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	return res
}

// proc is a mom process running in the background with its stdin held open, like a person at
// the terminal.
type proc struct {
	t     testing.TB
	cmd   *exec.Cmd
	stdin interface {
		Write([]byte) (int, error)
		Close() error
	}
	out, err *apptest.SyncBuffer
	done     chan struct{}
	waitErr  error
}

// start runs `mom <data-dir>` with the terminal adapter reading from a pipe.
func (w *world) start(extraArgs ...string) *proc {
	w.t.Helper()
	cmd := exec.Command(momBinary, append([]string{w.dir}, extraArgs...)...)
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: w.cred}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	p := &proc{t: w.t, cmd: cmd, stdin: stdin, out: &apptest.SyncBuffer{}, err: &apptest.SyncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.err
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	go func() { p.waitErr = cmd.Wait(); close(p.done) }()
	w.t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// send types a line.
func (p *proc) send(line string) {
	p.t.Helper()
	if _, err := p.stdin.Write([]byte(line + "\n")); err != nil {
		p.t.Fatalf("typing %q: %v", line, err)
	}
}

// waitFor waits until stdout contains s (count times, default once).
func (p *proc) waitFor(s string, count ...int) {
	p.t.Helper()
	n := 1
	if len(count) > 0 {
		n = count[0]
	}
	p.waitOutput(p.out, "print", s, n)
}

// waitForErr waits until stderr (the log) contains s.
func (p *proc) waitForErr(s string) {
	p.t.Helper()
	p.waitOutput(p.err, "log", s, 1)
}

// waitOutput waits until buf holds s n times, failing at once if mom exits first.
func (p *proc) waitOutput(buf *apptest.SyncBuffer, verb, s string, n int) {
	p.t.Helper()
	deadline := time.Now().Add(apptest.HangGuard)
	for strings.Count(buf.String(), s) < n {
		select {
		case <-p.done:
			p.t.Fatalf("mom exited before it would %s %q\nstdout:\n%s\nstderr:\n%s", verb, s, p.out, p.err)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("mom did not %s %q\nstdout:\n%s\nstderr:\n%s", verb, s, p.out, p.err)
		}
	}
}

// quit closes stdin (Ctrl-D) and waits for mom to exit; it returns the exit status.
func (p *proc) quit() int {
	p.t.Helper()
	p.stdin.Close()
	return p.wait()
}

// terminate sends SIGTERM and expects a clean exit.
func (p *proc) terminate() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(); code != 0 {
		p.t.Errorf("mom exited %d after SIGTERM\nstderr:\n%s", code, p.err)
	}
}

func (p *proc) wait() int {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(apptest.HangGuard):
		p.t.Fatalf("mom did not exit\nstdout:\n%s\nstderr:\n%s", p.out, p.err)
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal())
		}
		return ee.ExitCode()
	}
	return 0
}

// waitRequests waits until the fake model has received n requests and returns them.
func (w *world) waitRequests(n int) []*fakellm.Request {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), apptest.HangGuard)
	defer cancel()
	reqs, err := w.llm.WaitRequests(ctx, n)
	if err != nil {
		w.t.Fatalf("waiting for %d model requests: %v (got %d)", n, err, len(w.llm.Requests()))
	}
	return reqs
}
