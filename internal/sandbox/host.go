package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Host is the Executor that runs commands directly on this machine (pi's HostExecutor). It is
// no security boundary: commands see the whole file system with mom's permissions. What it does
// guard is mom's environment: commands get a clean one, so API keys and bot tokens never reach
// them. Sandbox paths are host paths.
type Host struct {
	workspace string
	shell     string
	env       envBuilder
	// grace is how long Run waits for output after the shell is gone; a field so tests can
	// make a grace period certain to outlast them, or short.
	grace time.Duration
}

// HostOption configures NewHost.
type HostOption func(*hostConfig)

type hostConfig struct {
	passthrough []string
}

// WithEnvPassthrough lets the named variables of mom's environment reach commands, on top of
// the default allowlist (PATH, HOME, USER, LOGNAME, LANG, LC_*, TZ, TERM, TMPDIR, SHELL). Loader
// variables (LD_*, DYLD_*) are never passed, even when named.
func WithEnvPassthrough(names ...string) HostOption {
	return func(c *hostConfig) { c.passthrough = append(c.passthrough, names...) }
}

// NewHost returns a host executor whose workspace is the directory workspace. The shell is
// chosen here, once: bash when it is on PATH, sh otherwise. The environment commands get is
// also captured here from mom's own, filtered through the allowlist.
func NewHost(workspace string, opts ...HostOption) (*Host, error) {
	var cfg hostConfig
	for _, o := range opts {
		o(&cfg)
	}
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", workspace, err)
	}
	shell, err := findShell()
	if err != nil {
		return nil, err
	}
	return &Host{
		workspace: abs,
		shell:     shell,
		env:       newEnvBuilder(os.Environ(), cfg.passthrough),
		grace:     defaultOrphanGrace,
	}, nil
}

// findShell prefers bash, which the model assumes, and falls back to sh so a minimal system
// still works.
func findShell() (string, error) {
	for _, name := range []string{"bash", "sh"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("neither bash nor sh was found on PATH; the host executor needs a shell")
}

// Kind reports "host".
func (h *Host) Kind() string { return "host" }

// Workspace returns the absolute host path of the workspace.
func (h *Host) Workspace() string { return h.workspace }

// Shell returns the shell Run uses (an absolute path to bash or sh), for the system prompt.
func (h *Host) Shell() string { return h.shell }

// HostPath returns the cleaned path; on the host the two views are the same. A relative path is
// an error, since it would silently depend on mom's own working directory.
func (h *Host) HostPath(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is relative; an absolute path is needed", path)
	}
	return filepath.Clean(path), nil
}

// SandboxPath returns the cleaned host path.
func (h *Host) SandboxPath(hostPath string) string { return filepath.Clean(hostPath) }

var _ Executor = (*Host)(nil)
