package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// newFileMode is the permission of a file WriteFile creates: what a shell's `>` gives under the
// usual umask 022. (The process umask itself cannot be read without changing it.)
const newFileMode fs.FileMode = 0o644

// writeFileAtomic replaces the host file path with the contents of r so that no reader ever sees
// a half-written file and a crash leaves either the old or the new file: the data goes to a
// temporary file in the same directory, is synced, and is renamed over path. An existing file
// keeps its permission bits; a symlink keeps pointing where it did, its target is replaced.
// Missing parent directories are created with 0755. The bwrap executor writes the same way.
func writeFileAtomic(ctx context.Context, path string, r io.Reader) (err error) {
	target, mode, err := resolveTarget(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, ctxReader{ctx, r}); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// resolveTarget returns the file that writing to path should replace (the final target of a
// symlink) and the permission bits the new file gets.
func resolveTarget(path string) (string, fs.FileMode, error) {
	target := path
	if li, err := os.Lstat(path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		resolved, err := filepath.EvalSymlinks(path)
		switch {
		case err == nil:
			target = resolved
		case errors.Is(err, fs.ErrNotExist):
			// A dangling link: create the file it names, as `>` would.
			link, err := os.Readlink(path)
			if err != nil {
				return "", 0, err
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(path), link)
			}
			target = link
		default:
			return "", 0, err
		}
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, newFileMode, nil
	case err != nil:
		return "", 0, err
	case fi.IsDir():
		return "", 0, fmt.Errorf("%s is a directory", target)
	case !fi.Mode().IsRegular():
		return "", 0, fmt.Errorf("%s is not a regular file", target)
	}
	return target, fi.Mode().Perm(), nil
}

// syncDir makes the rename itself durable. Failure only weakens durability after a power cut,
// not correctness, and some file systems refuse to sync directories, so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// ctxReader stops a long read or copy when ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
