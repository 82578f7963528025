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
	p, err := h.HostPath(path)
	if err != nil {
		return nil, err
	}
	f, err := openHost(ctx, p)
	if err != nil {
		return nil, err
	}
	return ctxReadCloser{ctxReader{ctx, f}, f}, nil
}

// openHost opens the host file p for reading, unless the run has ended.
func openHost(ctx context.Context, p string) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.Open(p)
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
