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
		return &RefusedError{Path: d.host(rel), Reason: kind(fi.Mode())}
	}
	return nil
}

// OpenFile opens the regular file name with flag and, when it creates it, perm.
func (d Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	rel, err := d.relName(name)
	if err != nil {
		return nil, err
	}
	r, err := d.root()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := d.check(r, rel, true); err != nil && !(errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0) {
		return nil, err
	}
	f, err := r.OpenFile(rel, flag, perm)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, &RefusedError{Path: d.host(rel), Reason: "is not a regular file"}
	}
	return f, nil
}

// Stat describes name itself; a link is described, not followed.
func (d Dir) Stat(name string) (fs.FileInfo, error) {
	rel, err := d.relName(name)
	if err != nil {
		return nil, err
	}
	r, err := d.root()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Lstat(rel)
}

// ReadDir lists the directory name ("" for d), sorted by name.
func (d Dir) ReadDir(name string) ([]fs.DirEntry, error) {
	rel, err := d.relName(name)
	if err != nil {
		return nil, err
	}
	r, err := d.root()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if rel != "." {
		if err := d.check(r, rel, false); err != nil {
			return nil, err
		}
	}
	entries, err := fs.ReadDir(r.FS(), rel)
	sortEntries(entries)
	return entries, err
}

// MkdirAll creates the directory name and the missing ones above it, below the base.
func (d Dir) MkdirAll(name string, perm fs.FileMode) error {
	rel, err := d.relName(name)
	if err != nil {
		return err
	}
	r, err := d.root()
	if err != nil {
		return err
	}
	defer r.Close()
	return r.MkdirAll(rel, perm)
}

// Remove removes the file, link or empty directory name.
func (d Dir) Remove(name string) error {
	rel, err := d.relName(name)
	if err != nil {
		return err
	}
	r, err := d.root()
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Remove(rel)
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
	o, err := d.relName(oldname)
	if err != nil {
		return err
	}
	n, err := d.relName(newname)
	if err != nil {
		return err
	}
	r, err := d.root()
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r, o, n)
}

// SyncDir makes changes of names in the directory dir durable, where the system can.
func (d Dir) SyncDir(dir string) {
	rel, err := d.relName(dir)
	if err != nil {
		return
	}
	if r, err := d.root(); err == nil {
		if f, err := r.Open(rel); err == nil {
			f.Sync()
			f.Close()
		}
		r.Close()
	}
}
