package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Bwrap is the Executor that runs every command in a bubblewrap sandbox of its own (Linux):
// the workspace read-write at /workspace, the system directories read-only with the secrets
// in /etc covered, a private /tmp, /dev and home directory, a read-only /proc of its own, no
// view of other processes (mom's environment among them), and the network only when
// configured. Commands have no capabilities, run in a user namespace of their own where the
// kernel allows it (as uid 65534 when mom is root) and cannot make another. They write their
// own channel's directory, but not its log.jsonl and context.jsonl, which only mom writes;
// other channels' directories are read-only (isolation none, and the person's other channels
// under user isolation) or not there at all. Everything a command starts ends with it: its
// processes live in a PID namespace that dies when it exits, is aborted or times out.
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
	// Logger hears about files in channel directories that are not what mom made (a link in
	// place of log.jsonl, say), which the sandbox then leaves out. Nil discards.
	Logger *slog.Logger
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
	euid      int      // mom's effective uid: as root, commands run as sandboxUID
	log       *slog.Logger
	// grace is how long Run waits for output after the shell is gone (see defaultOrphanGrace).
	grace time.Duration
	// state is how far bubblewrap locks commands down here; the strongest until Check finds
	// that the host cannot do that.
	state atomic.Pointer[bwrapState]
}

// bwrapState is what Check found out.
type bwrapState struct {
	hardening hardening
	weakened  string // why hardening is weaker than hardenings[0]; "" when it is not
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
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg := &bwrapConfig{
		ws: ws, bwrap: bw, shell: shell, env: env, isolation: iso, offline: opts.Offline,
		system: systemMounts(), euid: os.Geteuid(), log: log, grace: defaultOrphanGrace,
	}
	cfg.state.Store(&bwrapState{hardening: hardenings[0]})
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

// Check finds out whether bubblewrap works on this host (it needs unprivileged user
// namespaces, or root) and how far it can lock commands down: it runs `true` in the sandbox
// at each level of hardenings, strongest first, and keeps the first that works. Boundary
// says which, and why it is not the strongest. The error, when none works, carries bwrap's
// own explanation.
func (b *Bwrap) Check(ctx context.Context) error {
	var first error
	for _, h := range hardenings {
		b.cfg.state.Store(&bwrapState{hardening: h})
		err := b.try(ctx)
		if err == nil {
			if first != nil {
				b.cfg.state.Store(&bwrapState{hardening: h, weakened: h.weaker(b.cfg.euid, first.Error())})
			}
			return nil
		}
		if first == nil {
			first = err
		}
	}
	b.cfg.state.Store(&bwrapState{hardening: hardenings[0]})
	return fmt.Errorf("bubblewrap does not work here: %w", first)
}

// try runs `true` in the sandbox; the error carries what bwrap printed.
func (b *Bwrap) try(ctx context.Context) error {
	var out bytes.Buffer
	code, err := b.Run(ctx, Command{Script: "true", Timeout: 30 * time.Second, Output: &out})
	if err == nil && code != 0 {
		err = fmt.Errorf("exit code %d", code)
	}
	if err != nil {
		if msg := strings.TrimSpace(out.String()); msg != "" {
			return fmt.Errorf("%s (%w)", msg, err)
		}
		return err
	}
	return nil
}

// Boundary describes in words how commands are confined here, as Check found it, and when
// that is weaker than elsewhere, why: for mom check and the start-up log.
func (b *Bwrap) Boundary() (description, weakened string) {
	st := b.cfg.state.Load()
	return st.hardening.describe(b.cfg.euid), st.weakened
}

// Scope returns the executor for one run: its commands write the run's channel and read,
// under IsolationUser, the shared ones and under IsolationNone all others; other channels
// are not there.
func (b *Bwrap) Scope(s Scope) Executor {
	return &bwrapRun{cfg: b.cfg, scope: &s}
}

// command returns the bwrap command for one command at hardening h, with the files its
// options name by descriptor (already in cmd.ExtraFiles). own is the channel the command may
// write, v the channels it may see (nil: all).
func (c *bwrapConfig) command(h hardening, own string, v visibility, dir, script string) (*exec.Cmd, *mounts, error) {
	m, err := c.channelMounts(own, v)
	if err != nil {
		return nil, nil, err
	}
	args := make([]string, 0, len(c.system)+len(m.args)+20)
	args = append(args, "--unshare-all")
	if !c.offline {
		args = append(args, "--share-net")
	}
	args = append(args, "--die-with-parent", "--new-session")
	args = append(args, h.args(c.euid)...)
	args = append(args, c.system...)
	args = append(args, "--bind", c.ws.host, Inside)
	args = append(args, m.args...)
	args = append(args, "--chdir", dir, c.shell, "-c", script)
	cmd := exec.Command(c.bwrap, args...)
	cmd.ExtraFiles = m.files
	return cmd, m, nil
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
