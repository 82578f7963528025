package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
)

// Run runs c.Script with the host's shell in c.Dir (the workspace when empty). See
// Executor.Run; the process group is killed on timeout and when ctx ends. After a normal exit,
// background jobs the script started are left running (a server started with `&` is usually
// meant to outlive the command), but Run stops waiting for their output after a short grace.
func (h *Host) Run(ctx context.Context, c Command) (int, error) {
	dir := h.workspace
	if c.Dir != "" {
		var err error
		if dir, err = h.HostPath(c.Dir); err != nil {
			return -1, fmt.Errorf("cannot run command: working directory: %w", err)
		}
	}
	if err := checkDir(dir); err != nil {
		return -1, fmt.Errorf("cannot run command: %w", err)
	}
	env, err := h.env.build(c.Env)
	if err != nil {
		return -1, fmt.Errorf("cannot run command: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return -1, fmt.Errorf("command not started: %w", err)
	}
	cmd := exec.Command(h.shell, "-c", c.Script)
	cmd.Dir = dir
	cmd.Env = env
	return runProcess(ctx, cmd, c.Timeout, h.grace, c.Output)
}

// checkDir explains a missing working directory better than the chdir error exec would give.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &notExistError{msg: fmt.Sprintf("working directory %s does not exist", dir)}
	case err != nil:
		return fmt.Errorf("working directory %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("working directory %s is not a directory", dir)
	}
	return nil
}
