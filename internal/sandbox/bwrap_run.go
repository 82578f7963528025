package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// sharedLookup bounds the membership lookup of HostPath, which has no context of its own.
const sharedLookup = 10 * time.Second

// bwrapRun is a Bwrap executor narrowed to one run's scope (or to none).
type bwrapRun struct {
	cfg   *bwrapConfig
	scope *Scope // nil: no channel is visible (unless isolation is none)

	mu  sync.Mutex
	vis visibility // what the scope allows, once known
}

// Kind reports "bwrap".
func (r *bwrapRun) Kind() string { return "bwrap" }

// Workspace returns /workspace.
func (r *bwrapRun) Workspace() string { return Inside }

// HostPath returns the host file a sandbox path names, refusing paths outside the workspace,
// links that lead out of it, and hidden channels.
func (r *bwrapRun) HostPath(path string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedLookup)
	defer cancel()
	v, _ := r.visible(ctx)
	return r.cfg.ws.confinedHostPath(path, v)
}

// SandboxPath translates a host path in the workspace to /workspace/...
func (r *bwrapRun) SandboxPath(hostPath string) string { return r.cfg.ws.sandboxPath(hostPath) }

func (r *bwrapRun) traits() Traits {
	return Traits{Isolation: r.cfg.isolation, Offline: r.cfg.offline}
}

// Run runs c.Script in a fresh sandbox, in c.Dir (a sandbox path; the workspace when empty).
// Timeout, abort and a normal exit all end every process the command started, since they
// live in the sandbox's PID namespace.
func (r *bwrapRun) Run(ctx context.Context, c Command) (int, error) {
	v, note := r.visible(ctx)
	dir := Inside
	if c.Dir != "" {
		host, err := r.cfg.ws.confine(c.Dir, v)
		if err != nil {
			return -1, fmt.Errorf("cannot run command: working directory: %w", err)
		}
		if err := checkDir(host); err != nil {
			return -1, fmt.Errorf("cannot run command: %w", err)
		}
		dir = r.cfg.ws.sandboxPath(host)
	}
	h := r.cfg.state.Load().hardening
	env, err := r.cfg.env.build(append(h.env(r.cfg.euid), c.Env...))
	if err != nil {
		return -1, fmt.Errorf("cannot run command: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return -1, fmt.Errorf("command not started: %w", err)
	}
	if note != "" && c.Output != nil {
		fmt.Fprintln(c.Output, note)
	}
	cmd, m, err := r.cfg.command(h, r.own(), v, dir, c.Script)
	if err != nil {
		return -1, fmt.Errorf("cannot run command: %w", err)
	}
	for _, p := range m.problems {
		r.cfg.log.Warn("a channel directory holds something mom did not make there", "problem", p)
	}
	cmd.Env = env
	return runProcess(ctx, cmd, c.Timeout, r.cfg.grace, c.Output)
}

// own returns the channel directory this run's commands and file tools may write (relative
// to the workspace), "" when there is none.
func (r *bwrapRun) own() string {
	if r.scope == nil {
		return ""
	}
	return r.cfg.channelKey(r.scope.Channel)
}

// Open opens a file in the workspace for reading.
func (r *bwrapRun) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	v, _ := r.visible(ctx)
	return r.cfg.ws.open(ctx, path, v)
}

// OpenHost opens a file in the workspace and returns it.
func (r *bwrapRun) OpenHost(ctx context.Context, path string) (*os.File, error) {
	v, _ := r.visible(ctx)
	return r.cfg.ws.openHost(ctx, path, v)
}

// Stat reports on a file in the workspace.
func (r *bwrapRun) Stat(ctx context.Context, path string) (FileInfo, error) {
	v, _ := r.visible(ctx)
	return r.cfg.ws.stat(ctx, path, v)
}

// WriteFile replaces a file in the workspace atomically: outside channels/ or in the run's
// own channel, as a command could.
func (r *bwrapRun) WriteFile(ctx context.Context, path string, rd io.Reader) error {
	v, _ := r.visible(ctx)
	return r.cfg.ws.writeFile(ctx, path, rd, v, writableFor(r.own()))
}

// visible returns the channel directories this run may see (nil: all). When the membership
// lookup of user isolation fails, the run sees only its own channel for now and note says
// so; the lookup is tried again by the next command.
func (r *bwrapRun) visible(ctx context.Context) (v visibility, note string) {
	if r.cfg.isolation == IsolationNone {
		return nil, ""
	}
	if r.scope == nil {
		return visibility{}, ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.vis != nil {
		return r.vis, ""
	}
	v = visibility{}
	if k := r.cfg.channelKey(r.scope.Channel); k != "" {
		v[k] = true
	}
	if r.cfg.isolation == IsolationUser && r.scope.Shared != nil {
		dirs, err := r.scope.Shared(ctx)
		if err != nil {
			return v, fmt.Sprintf("[mom: could not find out which channels the person who asked is in (%v); this command sees only this channel]", err)
		}
		for _, d := range dirs {
			if k := r.cfg.channelKey(d); k != "" {
				v[k] = true
			}
		}
	}
	r.vis = v
	return v, ""
}
