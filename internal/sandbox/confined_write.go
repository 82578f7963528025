package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// writeConfined replaces the workspace file rel (relative to the workspace, its symbolic
// links already followed by confine) with r's contents, atomically as writeFileAtomic does,
// but through an os.Root of the workspace. A command running meanwhile may swap a directory
// on the way for a symbolic link between confine and the write; os.Root refuses to follow a
// link out of the workspace at every step (mkdir, create, rename). The new file is checked
// where it really is (check, as checkOpened does for reads) before it replaces the old one,
// so a link into a hidden channel is refused too; and it is renamed within its directory, so
// a directory swapped after the check makes the rename fail rather than land elsewhere.
func (m workspaceMap) writeConfined(ctx context.Context, rel string, r io.Reader, check func(*os.File) error) (err error) {
	root, err := os.OpenRoot(m.host)
	if err != nil {
		return err
	}
	defer root.Close()
	mode := newFileMode
	fi, err := root.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s is a directory", rel)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", rel)
	default:
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(rel)
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmpRel, tmp, err := createTemp(root, dir, filepath.Base(rel))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			root.Remove(tmpRel)
		}
	}()
	if err := check(tmp); err != nil {
		return err
	}
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
	if err := root.Rename(tmpRel, rel); err != nil {
		return err
	}
	syncDir(filepath.Join(m.host, dir))
	return nil
}

// createTemp creates a new file beside base in dir of root, named like os.CreateTemp's.
func createTemp(root *os.Root, dir, base string) (string, *os.File, error) {
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, fmt.Errorf("could not create a temporary file in %s", dir)
}
