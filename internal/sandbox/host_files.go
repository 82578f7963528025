package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Open opens the file at path for reading.
func (h *Host) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	f, err := h.OpenHost(ctx, path)
	if err != nil {
		return nil, err
	}
	return ctxReadCloser{ctxReader{ctx, f}, f}, nil
}

// OpenHost opens the file at path for reading and returns it.
func (h *Host) OpenHost(ctx context.Context, path string) (*os.File, error) {
	p, err := h.HostPath(path)
	if err != nil {
		return nil, err
	}
	return openHost(ctx, p)
}

// openHost opens the host file p for reading, unless the run has ended. It does not block
// on a named pipe (a command can leave one where the model will read): anything but a
// regular file or a directory is refused once opened.
func openHost(ctx context.Context, p string) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// O_NONBLOCK changes nothing for regular files and directories.
	f, err := os.OpenFile(p, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		err = fmt.Errorf("%s is not a regular file (%v); the file tools read only files", p, fi.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ctxReadCloser is an open file whose reads stop when the run that opened it ends.
type ctxReadCloser struct {
	ctxReader
	io.Closer
}

// Stat reports the size of the file at path and whether it is a directory, following symlinks.
func (h *Host) Stat(ctx context.Context, path string) (FileInfo, error) {
	p, err := h.HostPath(path)
	if err != nil {
		return FileInfo{}, err
	}
	return statHost(ctx, p)
}

// statHost stats the host file p, following symlinks, unless the run has ended.
func statHost(ctx context.Context, p string) (FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return FileInfo{}, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return FileInfo{}, err
	}
	return FileInfo{Size: fi.Size(), IsDir: fi.IsDir()}, nil
}

// WriteFile replaces the file at path with r's contents atomically; see writeFileAtomic.
func (h *Host) WriteFile(ctx context.Context, path string, r io.Reader) error {
	p, err := h.HostPath(path)
	if err != nil {
		return err
	}
	if err := h.checkMomOnly(path, p); err != nil {
		return err
	}
	if err := writeFileAtomic(ctx, p, r); err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}

// checkMomOnly refuses to write the host file p when it, or the file a link there leads to,
// is one of the files of a channel directory that only mom writes. On the host this is no
// boundary (a command can write anything mom can); it keeps the file tools from doing it.
func (h *Host) checkMomOnly(path, p string) error {
	target, _, err := resolveTarget(p)
	if err != nil {
		return nil // writeFileAtomic says what is wrong
	}
	dir := filepath.Dir(target)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	ws := h.workspace
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	if rel, ok := within(ws, filepath.Join(dir, filepath.Base(target))); ok {
		return checkMomOnly(path, rel)
	}
	if rel, ok := within(h.workspace, filepath.Clean(target)); ok {
		return checkMomOnly(path, rel)
	}
	return nil
}
