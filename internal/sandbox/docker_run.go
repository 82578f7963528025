package sandbox

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// commandMarker is the variable every command in the container carries, with a value unique
// to the command. Its processes inherit it, including those that left the process group, so
// the kill finds them all by it.
const commandMarker = "MOM_COMMAND"

// dockerKillTimeout bounds the docker exec that kills an aborted command.
const dockerKillTimeout = 30 * time.Second

// dockerShell runs the script ($1) with bash where the container has it, else with sh. Its
// standard error goes into its standard output first: docker exec carries the two as
// separate streams, which the client writes out in whatever order they reached it, so
// without this an error could show before the output that preceded it.
const dockerShell = `exec 2>&1; command -v bash >/dev/null 2>&1 && exec bash -c "$1"; exec sh -c "$1"`

// dockerKill kills every process of the container whose environment holds the marker
// MOM_COMMAND=$1. It looks three times, a tenth of a second apart, to catch a process that
// was being forked during the first pass (or whose exec had not started yet).
const dockerKill = `i=0; while [ $i -lt 3 ]; do for p in /proc/[0-9]*; do if tr '\0' '\n' < "$p/environ" 2>/dev/null | grep -qx "` + commandMarker + `=$1"; then kill -9 "${p#/proc/}" 2>/dev/null; fi; done; i=$((i+1)); sleep 0.1; done`

// Run runs c.Script in the container with `docker exec`, in c.Dir (a container path; the
// workspace when empty). Variable values travel in the docker client's environment, named
// with -e, so they never show in the host's process list. When ctx ends or the timeout
// passes, the client is killed and so is every process of the command inside the container.
func (d *Docker) Run(ctx context.Context, c Command) (int, error) {
	dir := Inside
	if c.Dir != "" {
		if !strings.HasPrefix(c.Dir, "/") {
			return -1, fmt.Errorf("cannot run command: working directory %q is relative; an absolute path is needed", c.Dir)
		}
		dir = c.Dir
	}
	id := rand.Text()
	env, err := d.env.build(append(c.Env[:len(c.Env):len(c.Env)], commandMarker+"="+id))
	if err != nil {
		return -1, fmt.Errorf("cannot run command: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return -1, fmt.Errorf("command not started: %w", err)
	}
	args := []string{"exec", "-w", dir}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		args = append(args, "-e", name)
	}
	args = append(args, d.container, "sh", "-c", dockerShell, "mom", c.Script)
	cmd := exec.Command(d.docker, args...)
	cmd.Env = merge(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return loaderVariable(name)
	}), env)
	code, err := runProcess(ctx, cmd, c.Timeout, d.grace, c.Output)
	if err != nil {
		if kerr := d.kill(ctx, id); kerr != nil && c.Output != nil {
			fmt.Fprintf(c.Output, "\n[mom: could not stop the command inside container %s: %v]\n", d.container, kerr)
		}
	}
	return code, err
}

// kill ends every process of command id in the container. It gets a deadline of its own,
// since the run's ctx has usually ended already.
func (d *Docker) kill(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dockerKillTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, d.docker, "exec", d.container, "sh", "-c", dockerKill, "mom", id).CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("%s (%w)", msg, err)
		}
		return err
	}
	return nil
}

// Open opens a file under /workspace for reading.
func (d *Docker) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	return d.ws.open(ctx, path, nil)
}

// OpenHost opens a file under /workspace and returns it.
func (d *Docker) OpenHost(ctx context.Context, path string) (*os.File, error) {
	return d.ws.openHost(ctx, path, nil)
}

// Stat reports on a file under /workspace.
func (d *Docker) Stat(ctx context.Context, path string) (FileInfo, error) {
	return d.ws.stat(ctx, path, nil)
}

// WriteFile replaces a file under /workspace atomically.
func (d *Docker) WriteFile(ctx context.Context, path string, r io.Reader) error {
	return d.ws.writeFile(ctx, path, r, nil, nil)
}
