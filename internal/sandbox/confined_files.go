package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	_, err := m.openedAt(f, path, v)
	return err
}

// openedAt is checkOpened that also returns where f really is, relative to the workspace; ""
// without /proc.
func (m workspaceMap) openedAt(f *os.File, path string, v visibility) (string, error) {
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return "", nil
	}
	r, ok := within(m.real, real)
	if !ok {
		return "", &outsideError{path: path, link: true}
	}
	if !v.allows(r) {
		return "", &hiddenError{path: path}
	}
	return r, nil
}

func (m workspaceMap) stat(ctx context.Context, path string, v visibility) (FileInfo, error) {
	p, err := m.confine(path, v)
	if err != nil {
		return FileInfo{}, err
	}
	return statHost(ctx, p)
}

// writeFile replaces the file at the sandbox path with r's contents, unless it is hidden (v),
// not writable (w; nil: all is) or a file only mom writes.
func (m workspaceMap) writeFile(ctx context.Context, path string, r io.Reader, v visibility, w writable) error {
	p, err := m.confine(path, v)
	if err != nil {
		return err
	}
	rel, _ := within(m.host, p) // confine returns a path in the workspace
	if err := checkWrite(path, rel, w); err != nil {
		return err
	}
	check := func(tmp *os.File) error {
		r, err := m.openedAt(tmp, path, v)
		if err != nil || r == "" {
			return err
		}
		// The temporary file replaces its neighbour of rel's name; where a command swapped a
		// directory on the way for a link since confine, that is somewhere else.
		return checkWrite(path, filepath.Join(filepath.Dir(r), filepath.Base(rel)), w)
	}
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

// checkWrite refuses to write rel (relative to the workspace) where w does not allow it, and
// a file only mom writes anywhere.
func checkWrite(path, rel string, w writable) error {
	if w != nil && !w(rel) {
		return &readOnlyError{path: path}
	}
	return checkMomOnly(path, rel)
}
