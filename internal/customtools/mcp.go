package customtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/tools"
)

// The restart policy of a server that exits: wait minBackoff, doubling up to maxBackoff; a
// server that ran for stableAfter starts over at minBackoff.
const (
	minBackoff  = 500 * time.Millisecond
	maxBackoff  = 30 * time.Second
	stableAfter = time.Minute
)

// startTimeout bounds the MCP handshake and the tool listing of a starting server.
const startTimeout = 30 * time.Second

// terminateWait is how long a stopping server gets, after its stdin is closed, to exit before
// it is sent SIGTERM (and later SIGKILL).
const terminateWait = 2 * time.Second

// mcpServer runs the server of one mcp.json and keeps it running.
type mcpServer struct {
	folder  string
	spec    mcpSpec
	named   []string
	timeout time.Duration
	opts    *Options
	log     *slog.Logger
	// changed tells the registry that the server's tools changed.
	changed func()

	mu      sync.Mutex
	session *mcp.ClientSession
	tools   []tools.Tool
	// down says why the server is not running, for the error a call gets meanwhile.
	down string

	ready     chan struct{} // closed when the first start has succeeded or failed
	readyOnce sync.Once
	cancel    context.CancelFunc
	done      chan struct{}
}

// newMCPServer prepares the server an mcp.json describes; start runs it.
func newMCPServer(dir string, spec mcpSpec, o *Options, getenv func(string) (string, bool), changed func()) (*mcpServer, error) {
	named, err := expandEnv(dir+"/"+mcpManifest, spec.Env, getenv)
	if err != nil {
		return nil, err
	}
	return &mcpServer{
		folder: dir, spec: spec, named: named, timeout: timeout(spec.Timeout, o.Timeout), opts: o,
		log: o.Logger.With("folder", dir), changed: changed, down: "it is starting",
		ready: make(chan struct{}), done: make(chan struct{}),
	}, nil
}

// start runs the server in the background until stop.
func (s *mcpServer) start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	go s.supervise(ctx)
}

// stop stops the server and waits until it has exited.
func (s *mcpServer) stop() {
	s.cancel()
	<-s.done
}

// currentTools returns the tools of the server's last listing. They stay while the server is
// down, so that a call explains the outage instead of claiming the tool does not exist.
func (s *mcpServer) currentTools() []tools.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools
}

// supervise starts the server and starts it again whenever it exits, with backoff, until ctx
// ends. A server that cannot start is retried the same way: it may be waiting for a network.
func (s *mcpServer) supervise(ctx context.Context) {
	defer close(s.done)
	wait := minBackoff
	for {
		began := time.Now()
		err := s.serve(ctx)
		if ctx.Err() != nil {
			s.setDown("mom is stopping it")
			s.readyOnce.Do(func() { close(s.ready) })
			return
		}
		if time.Since(began) >= stableAfter {
			wait = minBackoff
		}
		s.setDown(fmt.Sprintf("%v; mom starts it again in %s", err, wait.Round(time.Millisecond)))
		s.log.Warn("MCP server stopped; restarting it", "err", err, "in", wait.Round(time.Millisecond))
		s.readyOnce.Do(func() { close(s.ready) })
		select {
		case <-ctx.Done():
			s.setDown("mom is stopping it")
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, maxBackoff)
	}
}

// serve starts the server, lists its tools and waits until it exits or ctx ends.
func (s *mcpServer) serve(ctx context.Context) error {
	environ, err := toolEnv(s.opts.Environ, s.named, s.opts.DataDir, s.folder, "")
	if err != nil {
		return err
	}
	cmd := exec.Command(s.spec.Command, s.spec.Args...)
	cmd.Dir, cmd.Env = s.folder, environ
	proc, err := startProcess(cmd)
	if err != nil {
		return err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "mom", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{}, // no roots: mom has none to offer
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			go s.relist(ctx, req.Session)
		},
	})
	hctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	session, err := client.Connect(hctx, proc.transport(), nil)
	if err != nil {
		proc.terminate()
		return withStderr(fmt.Errorf("it did not start: %w", err), proc.stderr)
	}
	defer func() {
		proc.terminate()
		_ = session.Close()
	}()
	list, err := s.list(hctx, session)
	if err != nil {
		return withStderr(fmt.Errorf("it did not list its tools: %w", err), proc.stderr)
	}
	s.setUp(session, list)
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = t.Def().Name
	}
	s.log.Info("MCP server started", "tools", strings.Join(names, ", "))
	s.readyOnce.Do(func() { close(s.ready) })

	ended := make(chan struct{})
	go func() {
		_ = session.Wait()
		close(ended)
	}()
	select {
	case <-ctx.Done():
		s.setDown("mom is stopping it")
		return nil
	case <-proc.exited:
	case <-ended:
	}
	s.setDown("it stopped")
	if proc.waitExit(terminateWait) {
		return withStderr(fmt.Errorf("it exited (%s)", proc.status()), proc.stderr)
	}
	return withStderr(errors.New("it closed its connection"), proc.stderr)
}

// withStderr adds the last line the server wrote to stderr, which usually says what went wrong.
func withStderr(err error, stderr *tail) error {
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return fmt.Errorf("%w; its last words on stderr: %s", err, last)
	}
	return err
}

// list fetches every tool the server offers and makes a custom tool of each. A tool with a
// name the model APIs reject or a schema that does not resolve is left out with a log line.
func (s *mcpServer) list(ctx context.Context, session *mcp.ClientSession) ([]tools.Tool, error) {
	var out []tools.Tool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		tool, err := s.wrap(t)
		if err != nil {
			s.log.Warn("MCP server offers a tool mom cannot use; it is left out", "tool", t.Name, "err", err)
			continue
		}
		out = append(out, tool)
	}
	return out, nil
}

// relist fetches the tools again after the server said they changed.
func (s *mcpServer) relist(ctx context.Context, session *mcp.ClientSession) {
	lctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	list, err := s.list(lctx, session)
	if err != nil {
		s.log.Warn("MCP server's tools changed but could not be listed", "err", err)
		return
	}
	s.mu.Lock()
	current := s.session == session
	if current {
		s.tools = list
	}
	s.mu.Unlock()
	if current {
		s.changed()
	}
}

func (s *mcpServer) wrap(t *mcp.Tool) (tools.Tool, error) {
	if !validName.MatchString(t.Name) {
		return nil, fmt.Errorf("the name must be 1 to 64 letters, digits, \"_\" or \"-\"")
	}
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("its input schema: %w", err)
	}
	desc := t.Description
	if strings.TrimSpace(desc) == "" {
		desc = t.Title
	}
	return tools.NewCustom(llm.Tool{Name: t.Name, Description: desc, Parameters: schema}, s.caller(t.Name))
}

// caller returns the function that runs one call of the server's tool name.
func (s *mcpServer) caller(name string) tools.CustomFunc {
	return func(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
		s.mu.Lock()
		session, down := s.session, s.down
		s.mu.Unlock()
		if session == nil {
			return tools.Result{}, fmt.Errorf("%s is not available: the MCP server in %s is not running (%s)", name, s.folder, down)
		}
		callCtx, cancel := context.WithTimeoutCause(ctx, s.timeout, errTimeout)
		defer cancel()
		params := &mcp.CallToolParams{Name: name, Arguments: args}
		if env != nil && env.Channel != "" {
			params.Meta = mcp.Meta{"mom/channel": env.Channel}
		}
		res, err := session.CallTool(callCtx, params)
		switch {
		case ctx.Err() != nil:
			return tools.Result{}, fmt.Errorf("%s was stopped: %w", name, ctx.Err())
		case errors.Is(context.Cause(callCtx), errTimeout):
			return tools.Result{}, fmt.Errorf("%s did not finish within %s and was cancelled (a \"timeout\" in its mcp.json allows more)", name, s.timeout)
		case errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF):
			return tools.Result{}, fmt.Errorf("the MCP server in %s stopped during the call to %s; mom starts it again", s.folder, name)
		case err != nil:
			return tools.Result{}, fmt.Errorf("the MCP server in %s failed the call to %s: %w", s.folder, name, err)
		}
		out := fromMCP(res)
		if res.IsError {
			msg := resultText(out)
			if msg == "" {
				msg = name + " failed without saying why"
			}
			return out, errors.New(msg)
		}
		return out, nil
	}
}

func (s *mcpServer) setUp(session *mcp.ClientSession, list []tools.Tool) {
	s.mu.Lock()
	s.session, s.tools, s.down = session, list, ""
	s.mu.Unlock()
	s.changed()
}

func (s *mcpServer) setDown(why string) {
	s.mu.Lock()
	s.session, s.down = nil, why
	s.mu.Unlock()
}
