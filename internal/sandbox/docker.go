package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// dockerCheckTimeout bounds each docker call of the start-up check.
const dockerCheckTimeout = 30 * time.Second

// Docker is the Executor that runs commands with `docker exec` in a running container that
// mounts the workspace at /workspace (pi-mom's DockerExecutor). mom does not create the
// container; NewDocker checks that it runs and says how to create it when it does not.
// Commands that are aborted or time out are killed inside the container, not only the docker
// client on the host. The file operations run on the host, on the mounted workspace.
type Docker struct {
	ws        workspaceMap
	container string
	docker    string // the docker client
	env       envBuilder
	// grace is how long Run waits for output after the client is gone (see defaultOrphanGrace).
	grace time.Duration
}

// DockerOptions configure NewDocker.
type DockerOptions struct {
	// Container is the name or id of the running container.
	Container string
	// Env names variables of mom's environment that reach commands besides the default
	// allowlist. Loader variables never do.
	Env []string
}

// hostIdentity are the allowlisted variables that describe the host rather than the
// container (its PATH and home do not exist there); they reach the container only when
// config names them.
var hostIdentity = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR"}

// NewDocker returns a docker executor for the host directory workspace after checking that
// docker answers, the container runs, and it mounts workspace at /workspace. Each failure is
// an error that says what to run to fix it.
func NewDocker(ctx context.Context, workspace string, opts DockerOptions) (*Docker, error) {
	if opts.Container == "" {
		return nil, errors.New("the docker sandbox needs the name of a running container")
	}
	ws, err := newWorkspaceMap(workspace)
	if err != nil {
		return nil, err
	}
	d := &Docker{ws: ws, container: opts.Container, grace: defaultOrphanGrace}
	d.docker, err = exec.LookPath("docker")
	if err != nil {
		return nil, fmt.Errorf("the docker sandbox needs the docker command, which is not on PATH; install Docker, then create the container:\n\n    %s", d.runCommand())
	}
	env := newEnvBuilder(os.Environ(), opts.Env)
	env.base = slices.DeleteFunc(slices.Clone(env.base), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(hostIdentity, name) && !slices.Contains(opts.Env, name)
	})
	d.env = env
	if err := d.check(ctx); err != nil {
		return nil, err
	}
	return d, nil
}

// runCommand is the command that creates a suitable container. --init reaps the processes
// that commands leave behind; sleep infinity keeps the container up.
func (d *Docker) runCommand() string {
	return fmt.Sprintf("docker run -d --init --restart unless-stopped --name %s -v %s:%s alpine:latest sleep infinity",
		quoteArg(d.container), quoteArg(d.ws.host), Inside)
}

// check asks docker whether it answers, the container runs, and what it mounts.
func (d *Docker) check(ctx context.Context) error {
	if _, err := d.query(ctx, "version", "--format", "{{.Server.Version}}"); err != nil {
		return fmt.Errorf("docker does not answer (%w); start the Docker daemon, or choose another sandbox", err)
	}
	out, err := d.query(ctx, "inspect", "--type", "container", "--format", "{{.State.Running}} {{json .Mounts}}", d.container)
	if err != nil {
		return fmt.Errorf("container %s cannot be inspected (%w). Create it with:\n\n    %s", d.container, err, d.runCommand())
	}
	running, mounts, _ := strings.Cut(strings.TrimSpace(out), " ")
	if running != "true" {
		return fmt.Errorf("container %s exists but is not running. Start it with:\n\n    docker start %s", d.container, quoteArg(d.container))
	}
	var ms []struct{ Source, Destination string }
	if err := json.Unmarshal([]byte(mounts), &ms); err != nil {
		return fmt.Errorf("docker inspect %s: unexpected answer %q: %w", d.container, out, err)
	}
	recreate := fmt.Sprintf("Create the container again with the workspace mounted:\n\n    docker rm -f %s\n    %s", quoteArg(d.container), d.runCommand())
	for _, m := range ms {
		if filepath.Clean(m.Destination) != Inside {
			continue
		}
		if src := filepath.Clean(m.Source); src == d.ws.host || src == d.ws.real || sameDir(src, d.ws.real) {
			return nil
		}
		return fmt.Errorf("container %s mounts %s at %s, not this workspace (%s). %s", d.container, m.Source, Inside, d.ws.host, recreate)
	}
	return fmt.Errorf("container %s does not mount the workspace at %s. %s", d.container, Inside, recreate)
}

// sameDir reports whether the host paths a and b name one directory. Docker reports a
// mount's source as it was given to `docker run -v`, which may reach the workspace through a
// symbolic link or another mount of it.
func sameDir(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && fa.IsDir() && os.SameFile(fa, fb)
}

// query runs one docker command and returns its standard output; the error carries its
// standard error.
func (d *Docker) query(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, dockerCheckTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, d.docker, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("docker %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("docker %s: %w", args[0], err)
	}
	return stdout.String(), nil
}

// Kind reports "docker".
func (d *Docker) Kind() string { return "docker" }

// Workspace returns /workspace.
func (d *Docker) Workspace() string { return Inside }

// Container returns the container's name, for the system prompt and logs.
func (d *Docker) Container() string { return d.container }

// HostPath returns the host file a container path under /workspace names; other container
// paths, and links that lead out of the workspace, are refused.
func (d *Docker) HostPath(path string) (string, error) { return d.ws.confinedHostPath(path, nil) }

// SandboxPath translates a host path in the workspace to /workspace/...
func (d *Docker) SandboxPath(hostPath string) string { return d.ws.sandboxPath(hostPath) }

// quoteArg quotes s for a POSIX shell when it needs it, so the commands mom prints can be
// pasted as they are.
func quoteArg(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var _ Executor = (*Docker)(nil)
