// Package sandbox decides where the agent's commands and file operations happen. An Executor
// runs shell commands and reads and writes files on the agent's behalf: Host directly on this
// machine, Bwrap in a bubblewrap sandbox per command (with channel isolation, see Scope), and
// Docker with `docker exec` in a running container. Every command's environment is built from
// an allowlist, so mom's secrets stay with mom. Tools never touch the disk or start processes
// except through an Executor.
package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"time"
)

// Executor runs commands and file operations for the agent. Paths are as the sandbox sees them
// (for docker, /workspace/...); SandboxPath translates host paths into them.
type Executor interface {
	// Kind is "host", "docker" or "bwrap", for the system prompt and logs.
	Kind() string
	// Workspace is the workspace directory as commands see it.
	Workspace() string

	// Run runs c.Script with the shell and returns its exit code. It returns an error only when
	// the command could not be run to its end: it could not start, ctx ended (the error wraps
	// ctx.Err()), or c.Timeout passed (the error wraps ErrTimeout). In those cases the whole
	// process tree has been killed before Run returns.
	Run(ctx context.Context, c Command) (exitCode int, err error)

	// Open opens a file for reading; reads fail once ctx ends, so an aborted run stops
	// reading a huge file. For a missing file the error matches fs.ErrNotExist, whatever the
	// executor, because the tools tell people so in those words.
	Open(ctx context.Context, path string) (io.ReadCloser, error)
	// Stat reports on a file; a missing file is an error matching fs.ErrNotExist.
	Stat(ctx context.Context, path string) (FileInfo, error)
	// WriteFile replaces the file at path with the contents of r atomically (a reader never sees
	// a half-written file), creating missing parent directories.
	WriteFile(ctx context.Context, path string, r io.Reader) error

	// OpenHost opens a regular file for reading on the host, with Open's checks, and
	// returns the very descriptor that passed them: what is read from it is the file that
	// was checked, whatever a command renames or links afterwards (attach uploads from it).
	// The caller closes it.
	OpenHost(ctx context.Context, path string) (*os.File, error)
	// SandboxPath returns how the sandbox sees a host path inside the data directory.
	SandboxPath(hostPath string) string
}

// Command is one shell command.
type Command struct {
	// Script is passed to the shell as one argument (bash -c, or sh -c where bash is missing).
	Script string
	// Dir is the working directory, as the sandbox sees it.
	Dir string
	// Env holds extra KEY=VALUE pairs on top of the executor's clean base environment. The base
	// never includes mom's own secrets.
	Env []string
	// Timeout ends the command when it runs longer; zero means no limit besides ctx.
	Timeout time.Duration
	// Output receives stdout and stderr combined, as they are written. It may be nil.
	Output io.Writer
}

// FileInfo is what Stat reports.
type FileInfo struct {
	Size  int64
	IsDir bool
}

// ErrTimeout is wrapped by Run's error when a command ran past its Timeout.
var ErrTimeout = errors.New("command timed out")
