package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"strconv"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/sandbox"
)

// NewExecutor returns where tools run. MOM_SANDBOX, read with getenv, chooses the sandbox
// when neither config.json nor --sandbox did. When the sandbox is still open it tries
// bubblewrap first and settles sb (type, default isolation, and why) so that mom check and
// the start-up log describe what was chosen, and how bubblewrap confines commands here. A
// configured sandbox that does not work is an error, never silently replaced by the host.
// log hears about what the sandbox finds wrong in channel directories.
func NewExecutor(ctx context.Context, sb *config.Sandbox, workspace string, log *slog.Logger, getenv func(string) string) (sandbox.Executor, error) {
	if err := applySandboxEnv(sb, getenv); err != nil {
		return nil, err
	}
	var probed *sandbox.Bwrap
	if sb.Type == "" {
		var err error
		probed, err = newBwrap(ctx, *sb, workspace, log)
		if err := sb.Choose(err); err != nil {
			return nil, err
		}
	} else if err := sb.Choose(nil); err != nil {
		return nil, err
	}
	switch sb.Type {
	case config.SandboxBwrap:
		b := probed // the probe was made from the same settings
		if b == nil {
			var err error
			if b, err = newBwrap(ctx, *sb, workspace, log); err != nil {
				return nil, fmt.Errorf("sandbox bwrap: %w", err)
			}
		}
		sb.Boundary, sb.Weakened = b.Boundary()
		return b, nil
	case config.SandboxDocker:
		d, err := sandbox.NewDocker(ctx, workspace, sandbox.DockerOptions{Container: sb.Container, Env: sb.Env})
		if err != nil {
			return nil, fmt.Errorf("sandbox docker: %w", err)
		}
		return d, nil
	default:
		return sandbox.NewHost(workspace, sandbox.WithEnvPassthrough(sb.Env...))
	}
}

// sandboxVar chooses the sandbox, like --sandbox, when neither config.json nor the flag does:
// for containers and service units that pick it without editing the file.
const sandboxVar = "MOM_SANDBOX"

// applySandboxEnv applies MOM_SANDBOX to a sandbox the config and flags left open.
func applySandboxEnv(sb *config.Sandbox, getenv func(string) string) error {
	spec := getenv(sandboxVar)
	if spec == "" || sb.Type != "" {
		return nil
	}
	c := config.Config{Sandbox: *sb}
	if err := c.ApplySandboxFlag(spec); err != nil {
		return fmt.Errorf("%s: %w", sandboxVar, err)
	}
	*sb = c.Sandbox
	return nil
}

// newBwrap makes the bubblewrap executor and checks that it works on this host.
func newBwrap(ctx context.Context, sb config.Sandbox, workspace string, log *slog.Logger) (*sandbox.Bwrap, error) {
	b, err := sandbox.NewBwrap(workspace, sandbox.BwrapOptions{
		Isolation: sandbox.Isolation(sb.Isolation), Offline: sb.Offline, Env: sb.Env, Logger: log,
	})
	if err != nil {
		return nil, err
	}
	if err := b.Check(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// LogSandbox says at start-up where commands run, for the commands that run any (mom and
// mom run; not mom compact, which only asks the model). On the host it warns, plainly: nothing
// stands between the model's commands and this user's files.
func LogSandbox(log *slog.Logger, sb config.Sandbox) {
	switch sb.Type {
	case config.SandboxBwrap:
		log.Info("commands run in bubblewrap", "isolation", sb.Isolation, "network", !sb.Offline, "boundary", sb.Boundary)
		if sb.Weakened != "" {
			log.Warn("the bubblewrap sandbox confines commands less on this host than it can", "why", sb.Weakened)
		}
		return
	case config.SandboxDocker:
		log.Info("commands run in docker", "container", sb.Container)
		return
	}
	why := "sandbox.type is host"
	if sb.Chosen != "" {
		why = sb.Chosen + "; install bubblewrap, or set sandbox.type to docker"
	}
	log.Warn("commands run UNSANDBOXED on this machine as user "+userName()+
		": they can read, change and delete everything this user can, and reach the network", "why", why)
}

// userName names the user mom runs as, for the warning.
func userName() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "uid " + strconv.Itoa(os.Getuid())
}

// approvalsVar sets the approval mode ("off", "ask", "ask-host"), like config.json's
// "approvals": {"mode"}, when the file's top level does not: for a container or a test run
// that decides it without editing the file. Adapters and channels that set a mode keep it.
const approvalsVar = "MOM_APPROVALS"

// applyApprovalsEnv applies MOM_APPROVALS to approvals the config left open.
func applyApprovalsEnv(a *config.Approvals, getenv func(string) string) error {
	mode := getenv(approvalsVar)
	if mode == "" || a.Mode != "" {
		return nil
	}
	switch mode {
	case config.ApprovalsOff, config.ApprovalsAsk, config.ApprovalsAskHost:
		a.Mode = mode
		return nil
	}
	return fmt.Errorf("%s: %q is not an approval mode (use off, ask or ask-host)", approvalsVar, mode)
}
