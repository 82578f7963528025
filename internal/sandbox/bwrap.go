package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Bwrap is the Executor that runs every command in a bubblewrap sandbox of its own (Linux):
// the workspace read-write at /workspace, the system directories read-only with the secrets
// in /etc covered, a private /tmp, /proc, /dev and home directory, no view of other processes
// (mom's environment among them), and the network only when configured. Under channel or
// user isolation, other channels' directories are not there at all. Everything a command
// starts ends with it: its processes live in a PID namespace that dies when it exits, is
// aborted or times out.
//
// The file operations run on the host, confined to what the command would see; see
// workspaceMap.
type Bwrap struct {
	bwrapRun // used without a Scope: under isolation, no channel is visible
}

// BwrapOptions configure NewBwrap.
type BwrapOptions struct {
	// Isolation is what commands see of other channels; "" means IsolationChannel.
	Isolation Isolation
	// Offline cuts commands off the network (they keep a loopback interface of their own).
	Offline bool
	// Env names variables of mom's environment that reach commands besides the default
	// allowlist (see WithEnvPassthrough). Loader variables never do.
	Env []string
}

// bwrapConfig is what every run of a Bwrap shares.
type bwrapConfig struct {
	ws        workspaceMap
	bwrap     string // the bwrap program
	shell     string
	env       envBuilder
	isolation Isolation
	offline   bool
	system    []string // systemMounts(), worked out once
	// grace is how long Run waits for output after the shell is gone (see defaultOrphanGrace).
	grace time.Duration
}

// NewBwrap returns a bubblewrap executor for the host directory workspace. It fails when
// bwrap is not installed or the shell is not in a directory the sandbox shows; whether
// bubblewrap can actually make namespaces here only Check finds out.
func NewBwrap(workspace string, opts BwrapOptions) (*Bwrap, error) {
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, errors.New("the bwrap sandbox needs bubblewrap, which is not installed (apt-get install bubblewrap, dnf install bubblewrap, apk add bubblewrap)")
	}
	iso := opts.Isolation
	switch iso {
	case "":
		iso = IsolationChannel
	case IsolationChannel, IsolationUser, IsolationNone:
	default:
		return nil, fmt.Errorf("isolation %q is not known (use channel, user or none)", iso)
	}
	ws, err := newWorkspaceMap(workspace)
	if err != nil {
		return nil, err
	}
	shell, err := findShell()
	if err != nil {
		return nil, err
	}
	if !shown(shell) {
		return nil, fmt.Errorf("the shell %s is not in a directory the bwrap sandbox shows (%s); install bash or sh there", shell, strings.Join(systemDirs, ", "))
	}
	env := newEnvBuilder(os.Environ(), opts.Env)
	// The host's home and temporary directory do not exist inside; these do.
	env.base = merge(env.base, []string{"HOME=" + sandboxHome, "TMPDIR=/tmp"})
	cfg := &bwrapConfig{
		ws: ws, bwrap: bw, shell: shell, env: env, isolation: iso, offline: opts.Offline,
		system: systemMounts(), grace: defaultOrphanGrace,
	}
	return &Bwrap{bwrapRun{cfg: cfg}}, nil
}

// shown reports whether the host path p is inside one of systemDirs, so it exists in the
// sandbox at the same place.
func shown(p string) bool {
	for _, d := range systemDirs {
		if _, ok := within(d, p); ok {
			return true
		}
	}
	return false
}

// Check runs `true` in the sandbox, to find out whether bubblewrap works on this host (it
// needs unprivileged user namespaces, or root). The error carries bwrap's own explanation.
func (b *Bwrap) Check(ctx context.Context) error {
	var out bytes.Buffer
	code, err := b.Run(ctx, Command{Script: "true", Timeout: 30 * time.Second, Output: &out})
	if err == nil && code != 0 {
		err = fmt.Errorf("exit code %d", code)
	}
	if err != nil {
		if msg := strings.TrimSpace(out.String()); msg != "" {
			return fmt.Errorf("bubblewrap does not work here: %s (%w)", msg, err)
		}
		return fmt.Errorf("bubblewrap does not work here: %w", err)
	}
	return nil
}

// Scope returns the executor for one run: its commands see the run's channel, and under
// IsolationUser the shared ones, and no other channel.
func (b *Bwrap) Scope(s Scope) Executor {
	if b.cfg.isolation == IsolationNone {
		return b
	}
	return &bwrapRun{cfg: b.cfg, scope: &s}
}

// args returns bwrap's command line for one command.
func (c *bwrapConfig) args(v visibility, dir, script string) []string {
	args := make([]string, 0, len(c.system)+16)
	args = append(args, "--unshare-all")
	if !c.offline {
		args = append(args, "--share-net")
	}
	args = append(args, "--die-with-parent", "--new-session")
	args = append(args, c.system...)
	args = append(args, "--bind", c.ws.host, Inside)
	args = append(args, channelMounts(c.ws.host, v)...)
	return append(args, "--chdir", dir, c.shell, "-c", script)
}

// channelKey returns the visibility key of a channel's host directory, or "" when dir is
// not a channel directory of this workspace.
func (c *bwrapConfig) channelKey(dir string) string {
	r, ok := within(c.ws.host, filepath.Clean(dir))
	if !ok || channelKey(r) != r {
		return ""
	}
	return r
}

var (
	_ Executor = (*Bwrap)(nil)
	_ Scoper   = (*Bwrap)(nil)
)
