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

// mcpServer runs the server of one mcp.json and keeps it running: a process it starts, or a
// remote server it stays connected to.
type mcpServer struct {
	folder  string
	spec    mcpSpec
	named   []string // the process's "env", expanded
	remote  *remote  // set for a "url" server
	timeout time.Duration
	opts    *Options
	log     *slog.Logger
	// changed tells the registry that the server's tools changed.
	changed func()

	mu      sync.Mutex
	session *mcp.ClientSession
	link    link
	tools   []tools.Tool
	// down says why the server is not running, for the error a call gets meanwhile.
	down string

	ready     chan struct{} // closed when the first start has succeeded or failed
	readyOnce sync.Once
	cancel    context.CancelFunc
	done      chan struct{}
}

// link is how mom reaches one MCP server for one session: a process it started, spoken to
// over stdio, or a remote server's URL.
type link interface {
	// transport is what the MCP client connects through.
	transport() mcp.Transport
	// gone is closed when the server is known to be gone before the session has noticed: its
	// process exited, or it stopped answering. It is watched until ctx ends.
	gone(ctx context.Context, session *mcp.ClientSession) <-chan struct{}
	// explain adds what the link knows about a failure: the process's last words on stderr,
	// or the header to fix when a server refused mom's credentials.
	explain(err error) error
	// ended says why the server went away, once the session ended (with sessionErr) or gone
	// was closed.
	ended(sessionErr error) error
	// close lets go of the server; a process is stopped.
	close()
}

// newMCPServer prepares the server an mcp.json describes; start runs it.
func newMCPServer(dir string, spec mcpSpec, o *Options, getenv func(string) (string, bool), changed func()) (*mcpServer, error) {
	s := &mcpServer{
		folder: dir, spec: spec, timeout: timeout(spec.Timeout, o.Timeout), opts: o,
		log: o.Logger.With("folder", dir), changed: changed, down: "it is starting",
		ready: make(chan struct{}), done: make(chan struct{}),
	}
	var err error
	if spec.URL != "" {
		s.remote, err = newRemote(dir+"/"+mcpManifest, spec, getenv)
	} else {
		s.named, err = expandEnv(dir+"/"+mcpManifest, spec.Env, getenv)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// name is how messages name the server: by its folder, or by its address.
func (s *mcpServer) name() string {
	if s.remote != nil {
		return "the MCP server at " + s.spec.URL
	}
	return "the MCP server in " + s.folder
}

// again says what mom does about a server that is down.
func (s *mcpServer) again() string {
	if s.remote != nil {
		return "mom connects again"
	}
	return "mom starts it again"
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

// supervise starts the server (connects to it) and does so again whenever it exits (the
// connection is lost), with backoff, until ctx ends. A server that cannot start is retried
// the same way: it may be waiting for a network.
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
		s.setDown(fmt.Sprintf("%v; %s in %s", err, s.again(), wait.Round(time.Millisecond)))
		if s.remote != nil {
			s.log.Warn("MCP server not connected; connecting again", "url", s.spec.URL, "err", err, "in", wait.Round(time.Millisecond))
		} else {
			s.log.Warn("MCP server stopped; restarting it", "err", err, "in", wait.Round(time.Millisecond))
		}
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

// open starts the server's process, or prepares a connection to its URL.
func (s *mcpServer) open() (link, error) {
	if s.remote != nil {
		return s.remote.open(), nil
	}
	environ, err := toolEnv(s.opts.Environ, s.named, s.opts.DataDir, s.folder, "")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(s.spec.Command, s.spec.Args...)
	cmd.Dir, cmd.Env = s.folder, environ
	return startProcess(cmd)
}

// connection is one session with a server, and its tools as first listed.
type connection struct {
	link    link
	session *mcp.ClientSession
	tools   []tools.Tool
	end     context.CancelFunc // ends what the session's transport keeps open
}

// close ends the session and lets go of the server.
func (c *connection) close() {
	c.link.close()
	_ = c.session.Close()
	c.end()
}

// errStartTimeout is why a handshake was given up.
var errStartTimeout = fmt.Errorf("no answer within %s", startTimeout)

// connect opens a link to the server and a session over it, and lists the server's tools.
func (s *mcpServer) connect(ctx context.Context) (*connection, error) {
	l, err := s.open()
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "mom", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{}, // no roots: mom has none to offer
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			go s.relist(ctx, req.Session)
		},
	})
	// The SSE transport holds its event stream open with the context it connected with, so
	// that context lasts as long as the session; only the handshake has a time limit.
	sctx, end := context.WithCancelCause(ctx)
	timer := time.AfterFunc(startTimeout, func() { end(errStartTimeout) })
	fail := func(what string, err error) (*connection, error) {
		l.close()
		if cause := context.Cause(sctx); errors.Is(cause, errStartTimeout) {
			err = cause
		}
		end(nil)
		return nil, l.explain(fmt.Errorf("%s: %w", what, err))
	}
	session, err := client.Connect(sctx, l.transport(), nil)
	if err != nil {
		if s.remote != nil {
			return fail("it did not answer", err)
		}
		return fail("it did not start", err)
	}
	list, err := s.list(sctx, session)
	if err != nil {
		_ = session.Close()
		return fail("it did not list its tools", err)
	}
	if !timer.Stop() {
		_ = session.Close()
		return fail("it did not list its tools", errStartTimeout)
	}
	return &connection{link: l, session: session, tools: list, end: func() { end(nil) }}, nil
}

// serve starts the server (connects to it), lists its tools and waits until it exits, the
// connection is lost, or ctx ends.
func (s *mcpServer) serve(ctx context.Context) error {
	c, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer c.close()
	s.setUp(c.session, c.link, c.tools)
	names := make([]string, len(c.tools))
	for i, t := range c.tools {
		names[i] = t.Def().Name
	}
	if s.remote != nil {
		s.log.Info("MCP server connected", "url", s.spec.URL, "tools", strings.Join(names, ", "))
	} else {
		s.log.Info("MCP server started", "tools", strings.Join(names, ", "))
	}
	s.readyOnce.Do(func() { close(s.ready) })

	watch, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	ended := make(chan error, 1)
	go func() { ended <- c.session.Wait() }()
	var sessionErr error
	select {
	case <-ctx.Done():
		s.setDown("mom is stopping it")
		return nil
	case <-c.link.gone(watch, c.session):
	case sessionErr = <-ended:
	}
	s.setDown("it stopped")
	return c.link.ended(sessionErr)
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
	if !validName().MatchString(t.Name) {
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
		session, l, down := s.session, s.link, s.down
		s.mu.Unlock()
		if session == nil {
			if s.remote != nil {
				return tools.Result{}, fmt.Errorf("%s is not available: %s is not connected (%s)", name, s.name(), down)
			}
			return tools.Result{}, fmt.Errorf("%s is not available: %s is not running (%s)", name, s.name(), down)
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
		case err != nil && s.remote != nil && unanswered(err):
			err = l.explain(err)
			// The session may be one the server has forgotten: a new one is made rather
			// than every later call failing the same way.
			l.(*remoteLink).drop(session, fmt.Errorf("it did not answer a call: %w", err))
			return tools.Result{}, fmt.Errorf("%s did not answer the call to %s: %w; %s", s.name(), name, err, s.again())
		case errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF):
			return tools.Result{}, fmt.Errorf("%s stopped during the call to %s; %s", s.name(), name, s.again())
		case err != nil:
			return tools.Result{}, fmt.Errorf("%s failed the call to %s: %w", s.name(), name, err)
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

func (s *mcpServer) setUp(session *mcp.ClientSession, l link, list []tools.Tool) {
	s.mu.Lock()
	s.session, s.link, s.tools, s.down = session, l, list, ""
	s.mu.Unlock()
	s.changed()
}

func (s *mcpServer) setDown(why string) {
	s.mu.Lock()
	s.session, s.link, s.down = nil, nil, why
	s.mu.Unlock()
}
