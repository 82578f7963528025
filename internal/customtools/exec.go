package customtools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/tools"
)

// maxStdout caps what an executable tool may print: enough for a few images, not enough to
// exhaust mom's memory.
const maxStdout = 16 << 20

// stderrKeep is how much of a tool's stderr is kept for the error message when it fails.
const stderrKeep = 4 << 10

// waitDelay bounds the wait for a killed tool's output pipes, which a process that escaped its
// group could hold open.
const waitDelay = 2 * time.Second

// errTimeout is the cause of a call's context when its time limit passed.
var errTimeout = errors.New("time limit reached")

// execTool is a tool.json tool: one process per call.
type execTool struct {
	name    string
	dir     string // the tool's folder, MOM_TOOL_DIR
	run     string // absolute path of the executable
	named   []string
	timeout time.Duration
	dataDir string
	environ []string
}

// newExecTool makes the tool a tool.json describes.
func newExecTool(dir string, spec execSpec, o *Options, getenv func(string) (string, bool)) (tools.Tool, error) {
	named, err := expandEnv(dir+"/"+toolManifest, spec.Env, getenv)
	if err != nil {
		return nil, err
	}
	e := &execTool{
		name: spec.Name, dir: dir, run: spec.Run, named: named,
		timeout: timeout(spec.Timeout, o.Timeout), dataDir: o.DataDir, environ: o.Environ,
	}
	t, err := tools.NewCustom(llm.Tool{Name: spec.Name, Description: spec.Description, Parameters: spec.Parameters}, e.call)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: \"parameters\": %w", dir, toolManifest, err)
	}
	return t, nil
}

// call runs the executable with the arguments on stdin and reads its answer from stdout. The
// process and everything it started are killed when the run is stopped or the time limit
// passes.
func (e *execTool) call(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
	environ, err := toolEnv(e.environ, e.named, e.dataDir, e.dir, env.Channel)
	if err != nil {
		return tools.Result{}, err
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, e.timeout, errTimeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, e.run)
	cmd.Dir = e.dir
	cmd.Env = environ
	cmd.Stdin = bytes.NewReader(args)
	stdout := &capped{max: maxStdout}
	stderr := &tail{keep: stderrKeep}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	runErr := cmd.Run()
	// The first process may be gone while others of its group live on (a backgrounded job);
	// they belong to this call and end with it.
	_ = killGroup(cmd)

	switch {
	case ctx.Err() != nil:
		return tools.Result{}, fmt.Errorf("%s was stopped: %w", e.name, ctx.Err())
	case errors.Is(context.Cause(runCtx), errTimeout):
		return tools.Result{}, fmt.Errorf("%s did not finish within %s and was stopped (a \"timeout\" in its tool.json allows more)", e.name, e.timeout)
	case stdout.over:
		return tools.Result{}, fmt.Errorf("%s printed more than %d MB; a tool's answer must be smaller", e.name, maxStdout>>20)
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return tools.Result{}, fmt.Errorf("cannot run %s (%s): %w", e.name, e.run, runErr)
	}
	res, failed, perr := parseOutput(stdout.buf.Bytes())
	if perr != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", e.name, perr)
	}
	if exitErr != nil || failed {
		return res, errors.New(failure(e.name, res, stderr.String(), exitErr))
	}
	return res, nil
}

// failure words a failed call for the model: what the tool said, on stdout or else stderr,
// and how it exited.
func failure(name string, res tools.Result, stderr string, exitErr *exec.ExitError) string {
	msg := resultText(res)
	if msg == "" {
		msg = strings.TrimSpace(stderr)
	}
	how := name + " failed"
	if exitErr != nil {
		how = fmt.Sprintf("%s exited with status %d", name, exitErr.ExitCode())
	}
	if msg == "" {
		return how
	}
	return msg + "\n(" + how + ")"
}

// capped is a buffer that stops growing at max and remembers that it was cut.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.over = true
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}

// tail keeps the last bytes written to it. It may be read while a process writes to it.
type tail struct {
	keep int
	mu   sync.Mutex
	buf  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.keep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.keep:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) > t.keep {
		return string(t.buf[len(t.buf)-t.keep:])
	}
	return string(t.buf)
}
