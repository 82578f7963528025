package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
)

// The file operations of the docker and bwrap executors run on the host, on the workspace
// directory the sandbox mounts, which is faster than a round trip through the sandbox and
// keeps writes atomic. They see what a command would: paths are sandbox paths, symbolic links
// are followed as the sandbox sees them, and nothing outside the workspace or in a hidden
// channel is reached.

func (m workspaceMap) open(ctx context.Context, path string, v visibility) (io.ReadCloser, error) {
	f, err := m.openHost(ctx, path, v)
	if err != nil {
		return nil, err
	}
	return ctxReadCloser{ctxReader{ctx, f}, f}, nil
}

// openHost opens the file the sandbox path names and returns the descriptor that passed
// the checks.
func (m workspaceMap) openHost(ctx context.Context, path string, v visibility) (*os.File, error) {
	p, err := m.confine(path, v)
	if err != nil {
		return nil, err
	}
	f, err := openHost(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := m.checkOpened(f, path, v); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkOpened looks at which file was really opened, through /proc/self/fd, so that a link
// a running command swapped in between confine and open cannot hand out a file outside what
// the run may see. Without /proc (not Linux) the check before opening has to do.
func (m workspaceMap) checkOpened(f *os.File, path string, v visibility) error {
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return nil
	}
	r, ok := within(m.real, real)
	if !ok {
		return &outsideError{path: path, link: true}
	}
	if !v.allows(r) {
		return &hiddenError{path: path}
	}
	return nil
}

func (m workspaceMap) stat(ctx context.Context, path string, v visibility) (FileInfo, error) {
	p, err := m.confine(path, v)
	if err != nil {
		return FileInfo{}, err
	}
	return statHost(ctx, p)
}

func (m workspaceMap) writeFile(ctx context.Context, path string, r io.Reader, v visibility) error {
	p, err := m.confine(path, v)
	if err != nil {
		return err
	}
	rel, _ := within(m.host, p) // confine returns a path in the workspace
	check := func(f *os.File) error { return m.checkOpened(f, path, v) }
	if err := m.writeConfined(ctx, rel, r, check); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// confinedHostPath is HostPath for a sandbox: the host file the sandbox path names, after
// the same checks as the file operations, since what it returns is read on the host (attach).
func (m workspaceMap) confinedHostPath(path string, v visibility) (string, error) {
	return m.confine(path, v)
}
