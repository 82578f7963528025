package customtools

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mom-agent/mom/internal/tools"
)

// Options configure a Registry.
type Options struct {
	// DataDir is mom's data directory; tools receive it as MOM_DATA_DIR.
	DataDir string
	// Dirs hold the tool folders, in order of precedence: when two folders offer a tool of the
	// same name, the one in the earlier directory (then the earlier folder name) wins. See
	// DefaultDirs.
	Dirs []string
	// Reserved are the names custom tools may not take: the built-in tools.
	Reserved []string
	// Timeout limits a call when the tool's folder sets no "timeout".
	Timeout time.Duration
	// Environ is mom's environment (os.Environ() form). Tools get only the sandbox's
	// allowlist of it, and ${VAR} in a folder's "env" is expanded from it.
	Environ []string
	Logger  *slog.Logger
}

// DefaultDirs are the places tool folders live: <data>/tools, then ~/.config/mom/tools when
// there is a home directory. Neither is inside the workspace the sandbox can write.
func DefaultDirs(dataDir string) []string {
	dirs := []string{filepath.Join(dataDir, "tools")}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		dirs = append(dirs, filepath.Join(home, ".config", "mom", "tools"))
	}
	return dirs
}

// startupWait bounds how long Start waits for MCP servers to list their tools, so that the
// first run's prompt has them; a slower server's tools appear as soon as it is up.
const startupWait = 10 * time.Second

// Registry is the set of custom tools: it discovers the tool folders, runs their MCP servers,
// and keeps the set current while mom runs. It implements tools.CustomTools.
type Registry struct {
	opts   Options
	getenv func(string) (string, bool)

	ctx    context.Context // the servers' lifetime, from Start to Stop
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex // guards folders, reported and the scanning itself
	folders  map[string]*folder
	reported map[string]bool   // problems already logged, so that a rescan does not repeat them
	owners   map[string]string // the folder of each available tool, as last announced

	current atomic.Pointer[[]tools.Tool]
}

// New returns a registry; Start loads the tools.
func New(opts Options) *Registry {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Dirs == nil {
		opts.Dirs = DefaultDirs(opts.DataDir)
	}
	r := &Registry{
		opts: opts, folders: make(map[string]*folder), reported: make(map[string]bool),
		getenv: lookupEnv(opts.Environ),
	}
	r.current.Store(&[]tools.Tool{})
	return r
}

// Start loads every tool folder, starts the MCP servers and watches the directories for
// changes until Stop. It waits a little for the servers to list their tools. The first
// directory is created when missing, so that a folder put there later is noticed.
func (r *Registry) Start(ctx context.Context) {
	r.ctx, r.cancel = context.WithCancel(ctx)
	if len(r.opts.Dirs) > 0 {
		if err := os.MkdirAll(r.opts.Dirs[0], 0o755); err != nil {
			r.opts.Logger.Warn("cannot create the custom tools directory", "dir", r.opts.Dirs[0], "err", err)
		}
	}
	w, err := newWatcher(r.opts.Dirs, r.opts.Logger)
	if err != nil {
		r.opts.Logger.Warn("custom tools will not reload on change", "err", err)
	}
	r.Rescan()
	r.waitReady(startupWait)
	r.changed()
	if w != nil {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			w.run(r.ctx, r.Rescan)
		}()
	}
}

// Stop stops the MCP servers and the watcher, and waits for them.
func (r *Registry) Stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.wg.Wait()
	r.mu.Lock()
	var servers []*mcpServer
	for path := range r.folders {
		servers = append(servers, r.unload(path)...)
	}
	r.current.Store(&[]tools.Tool{})
	r.mu.Unlock()
	stopAll(servers)
}

// stopAll stops servers in parallel. It runs without the registry's lock: a stopping server
// may still report a change, which takes the lock.
func stopAll(servers []*mcpServer) {
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.stop)
	}
	wg.Wait()
}

// CustomTools returns the custom tools available now, sorted by name.
func (r *Registry) CustomTools() []tools.Tool { return *r.current.Load() }

// waitReady waits until every MCP server has tried its first start, or d passes.
func (r *Registry) waitReady(d time.Duration) {
	r.mu.Lock()
	var ready []chan struct{}
	for _, f := range r.folders {
		if f.server != nil {
			ready = append(ready, f.server.ready)
		}
	}
	r.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	for _, c := range ready {
		select {
		case <-c:
		case <-timer.C:
			return
		}
	}
}

// Rescan brings the registry in line with the directories: new folders are loaded, changed
// ones reloaded (their MCP server restarted), removed ones dropped (their server stopped).
func (r *Registry) Rescan() {
	found := scanDirs(r.opts.Dirs)
	r.mu.Lock()
	if r.ctx == nil || r.ctx.Err() != nil {
		r.mu.Unlock()
		return
	}
	var stopping []*mcpServer
	seen := make(map[string]bool, len(found))
	for _, s := range found {
		seen[s.path] = true
		if old := r.folders[s.path]; old != nil && old.fingerprint == s.fingerprint {
			continue
		}
		clear(r.reported) // something changed: say again what is still wrong
		stopping = append(stopping, r.unload(s.path)...)
		r.folders[s.path] = r.load(s)
	}
	for path := range r.folders {
		if !seen[path] {
			r.opts.Logger.Info("custom tool folder removed", "folder", path)
			clear(r.reported)
			stopping = append(stopping, r.unload(path)...)
		}
	}
	r.rebuild()
	r.mu.Unlock()
	stopAll(stopping)
}

// load makes a folder's tools and starts its MCP server; a problem (openFolder) is logged
// (once) and leaves the folder without tools.
func (r *Registry) load(s scanned) *folder {
	f, err := openFolder(s, &r.opts, r.getenv, r.changed)
	if err != nil {
		r.problem("custom tool folder skipped", "folder", s.path, "err", err)
		return f
	}
	if f.server != nil {
		f.server.start(r.ctx)
	}
	return f
}

// unload drops a folder and returns its server, for the caller to stop once it has let go of
// the lock.
func (r *Registry) unload(path string) []*mcpServer {
	f := r.folders[path]
	if f == nil {
		return nil
	}
	delete(r.folders, path)
	if f.server != nil {
		return []*mcpServer{f.server}
	}
	return nil
}

// changed is called by an MCP server whose tool list changed.
func (r *Registry) changed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rebuild()
}

// rebuild recomputes the set of tools from the folders, refusing names that clash.
func (r *Registry) rebuild() {
	folders := make([]*folder, 0, len(r.folders))
	for _, f := range r.folders {
		folders = append(folders, f)
	}
	slices.SortFunc(folders, func(a, b *folder) int {
		return cmp.Or(cmp.Compare(a.order, b.order), strings.Compare(a.path, b.path))
	})
	owner := make(map[string]string)
	var list []tools.Tool
	for _, f := range folders {
		for _, t := range f.tools() {
			name := t.Def().Name
			if why := nameRefused(name, r.opts.Reserved, owner); why != nil {
				args := []any{"tool", name, "folder", f.path}
				if why.used != "" {
					args = append(args, "used", why.used)
				}
				r.problem("custom tool refused: "+why.reason, args...)
				continue
			}
			owner[name] = f.path
			list = append(list, t)
		}
	}
	slices.SortFunc(list, func(a, b tools.Tool) int { return strings.Compare(a.Def().Name, b.Def().Name) })
	r.current.Store(&list)
	r.announce(owner)
}

// announce logs the tools that became available or went away since the last rebuild. A
// restarted server's tools are the same tools: only names and folders count.
func (r *Registry) announce(owner map[string]string) {
	for name, path := range owner {
		if r.owners[name] != path {
			r.opts.Logger.Info("custom tool ready", "tool", name, "folder", path)
		}
	}
	for name, path := range r.owners {
		if _, ok := owner[name]; !ok {
			r.opts.Logger.Info("custom tool gone", "tool", name, "folder", path)
		}
	}
	r.owners = owner
}

// problem logs a warning the first time it comes up, so a rescan does not repeat it.
func (r *Registry) problem(msg string, args ...any) {
	key := msg + fmt.Sprint(args...)
	if r.reported[key] {
		return
	}
	r.reported[key] = true
	r.opts.Logger.Warn(msg, args...)
}

// folder is one loaded tool folder.
type folder struct {
	path        string
	order       int // index of its directory in Options.Dirs
	fingerprint string
	exec        tools.Tool
	server      *mcpServer
	shows       string // what it runs, for `mom check`
}

func (f *folder) tools() []tools.Tool {
	switch {
	case f.exec != nil:
		return []tools.Tool{f.exec}
	case f.server != nil:
		return f.server.currentTools()
	}
	return nil
}
