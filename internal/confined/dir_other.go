//go:build !linux

package confined

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// Outside Linux (where mom has no bwrap sandbox, only host and docker), a Dir works through
// an os.Root of the base: nothing outside the base is reached, but a link that stays inside
// it is followed, and a name is checked with Lstat before it is opened.

func (d Dir) root() (*os.Root, error) { return os.OpenRoot(d.base) }

func (d Dir) relName(name string) (string, error) {
	comps, err := d.components(name)
	if err != nil {
		return "", err
	}
	if len(comps) == 0 {
		return ".", nil
	}
	return strings.Join(comps, "/"), nil
}

// check refuses a name that is a link or, when regular is set, anything but a regular file.
func (d Dir) check(r *os.Root, rel string, regular bool) error {
	fi, err := r.Lstat(rel)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 || regular && !fi.Mode().IsRegular() {
		return &RefusedError{Path: d.host(rel), Reason: Kind(fi.Mode())}
	}
	return nil
}

// inRoot runs fn with an os.Root of the base and name relative to it.
func (d Dir) inRoot(name string, fn func(r *os.Root, rel string) error) error {
	rel, err := d.relName(name)
	if err != nil {
		return err
	}
	r, err := d.root()
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r, rel)
}

// OpenFile opens the regular file name with flag and, when it creates it, perm.
func (d Dir) OpenFile(name string, flag int, perm fs.FileMode) (f *os.File, err error) {
	err = d.inRoot(name, func(r *os.Root, rel string) error {
		if err := d.check(r, rel, true); err != nil && !(errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0) {
			return err
		}
		if f, err = r.OpenFile(rel, flag, perm); err != nil {
			return err
		}
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			f.Close()
			return &RefusedError{Path: d.host(rel), Reason: "is not a regular file"}
		}
		return nil
	})
	return f, err
}

// Stat describes name itself; a link is described, not followed.
func (d Dir) Stat(name string) (fi fs.FileInfo, err error) {
	err = d.inRoot(name, func(r *os.Root, rel string) error {
		fi, err = r.Lstat(rel)
		return err
	})
	return fi, err
}

// ReadDir lists the directory name ("" for d), sorted by name.
func (d Dir) ReadDir(name string) (entries []fs.DirEntry, err error) {
	err = d.inRoot(name, func(r *os.Root, rel string) error {
		if rel != "." {
			if err := d.check(r, rel, false); err != nil {
				return err
			}
		}
		entries, err = fs.ReadDir(r.FS(), rel)
		sortEntries(entries)
		return err
	})
	return entries, err
}

// MkdirAll creates the directory name and the missing ones above it, below the base.
func (d Dir) MkdirAll(name string, perm fs.FileMode) error {
	return d.inRoot(name, func(r *os.Root, rel string) error { return r.MkdirAll(rel, perm) })
}

// Remove removes the file, link or empty directory name.
func (d Dir) Remove(name string) error {
	return d.inRoot(name, func(r *os.Root, rel string) error { return r.Remove(rel) })
}

// Rename moves oldname to newname, both below d.
func (d Dir) Rename(oldname, newname string) error {
	return d.pair(oldname, newname, (*os.Root).Rename)
}

// Link makes newname a hard link to the file oldname.
func (d Dir) Link(oldname, newname string) error {
	return d.pair(oldname, newname, (*os.Root).Link)
}

func (d Dir) pair(oldname, newname string, fn func(r *os.Root, o, n string) error) error {
	n, err := d.relName(newname)
	if err != nil {
		return err
	}
	return d.inRoot(oldname, func(r *os.Root, o string) error { return fn(r, o, n) })
}

// SyncDir makes changes of names in the directory dir durable, where the system can.
func (d Dir) SyncDir(dir string) {
	d.inRoot(dir, func(r *os.Root, rel string) error {
		if f, err := r.Open(rel); err == nil {
			f.Sync()
			f.Close()
		}
		return nil
	})
}
