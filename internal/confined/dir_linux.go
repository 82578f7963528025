package confined

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"time"

	"golang.org/x/sys/unix"
)

// openDir opens the directory made of comps below the base, one component at a time with
// O_NOFOLLOW, each relative to the one before. The caller closes the descriptor.
func (d Dir) openDir(comps []string) (int, error) {
	fd, err := unix.Open(d.base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: d.base, Err: err}
	}
	for i, c := range comps {
		next, err := unix.Openat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			err = d.explain(fd, comps[:i+1], "open", err)
			unix.Close(fd)
			return -1, err
		}
		unix.Close(fd)
		fd = next
	}
	return fd, nil
}

// parent opens the directory that holds name and returns it with name's last component.
func (d Dir) parent(name string) (fd int, leaf string, comps []string, err error) {
	comps, err = d.components(name)
	if err != nil {
		return -1, "", nil, err
	}
	if len(comps) == 0 {
		return -1, "", nil, &RefusedError{Path: d.host(""), Reason: "is the directory itself, not a name in it"}
	}
	fd, err = d.openDir(comps[:len(comps)-1])
	if err != nil {
		return -1, "", nil, err
	}
	return fd, comps[len(comps)-1], comps, nil
}

// explain turns the error of an operation on the last of comps (looked up in the directory
// dirfd) into one that says what is wrong, naming the file: a link or a special file is
// refused, anything else keeps its errno so errors.Is(err, fs.ErrNotExist) and the like work.
func (d Dir) explain(dirfd int, comps []string, op string, err error) error {
	p := d.hostComps(comps)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ENXIO) || errors.Is(err, unix.EISDIR) {
		var st unix.Stat_t
		if unix.Fstatat(dirfd, comps[len(comps)-1], &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			if m := fileMode(st.Mode); !m.IsRegular() && !(m.IsDir() && errors.Is(err, unix.ENOTDIR)) {
				return &RefusedError{Path: p, Reason: Kind(m)}
			}
		}
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

func (d Dir) hostComps(comps []string) string {
	return Dir{base: d.base}.host(path.Join(comps...))
}

// OpenFile opens the regular file name with flag (os.O_RDONLY, os.O_RDWR|os.O_APPEND|
// os.O_CREATE, ...) and, when it creates it, perm. A link, or anything but a regular file,
// is refused; the file is opened without blocking first, so a named pipe cannot hang mom.
func (d Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	dirfd, leaf, comps, err := d.parent(name)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dirfd)
	fd, err := unix.Openat(dirfd, leaf, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY, uint32(perm.Perm()))
	if err != nil {
		return nil, d.explain(dirfd, comps, "open", err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: d.hostComps(comps), Err: err}
	}
	if m := fileMode(st.Mode); !m.IsRegular() {
		unix.Close(fd)
		return nil, &RefusedError{Path: d.hostComps(comps), Reason: Kind(m)}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: d.hostComps(comps), Err: err}
	}
	return os.NewFile(uintptr(fd), d.hostComps(comps)), nil
}

// Stat describes name itself; a link is described, not followed.
func (d Dir) Stat(name string) (fs.FileInfo, error) {
	comps, err := d.components(name)
	if err != nil {
		return nil, err
	}
	if len(comps) == 0 {
		return os.Stat(d.base)
	}
	dirfd, err := d.openDir(comps[:len(comps)-1])
	if err != nil {
		return nil, err
	}
	defer unix.Close(dirfd)
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, comps[len(comps)-1], &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: d.hostComps(comps), Err: err}
	}
	return fileInfo{name: comps[len(comps)-1], st: st}, nil
}

// ReadDir lists the directory name ("" for d), sorted by name. Entries that are links show
// as links (their Type has fs.ModeSymlink); nothing is followed.
func (d Dir) ReadDir(name string) ([]fs.DirEntry, error) {
	comps, err := d.components(name)
	if err != nil {
		return nil, err
	}
	fd, err := d.openDir(comps)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), d.hostComps(comps))
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	sortEntries(entries)
	return entries, nil
}

// MkdirAll creates the directory name ("" for d) and the missing ones above it, below the
// base, with perm. An existing link on the way is refused, not followed.
func (d Dir) MkdirAll(name string, perm fs.FileMode) error {
	comps, err := d.components(name)
	if err != nil {
		return err
	}
	fd, err := unix.Open(d.base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: d.base, Err: err}
	}
	defer func() { unix.Close(fd) }()
	for i, c := range comps {
		next, err := unix.Openat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) {
			if err = unix.Mkdirat(fd, c, uint32(perm.Perm())); err == nil || errors.Is(err, unix.EEXIST) {
				next, err = unix.Openat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			}
		}
		if err != nil {
			return d.explain(fd, comps[:i+1], "mkdir", err)
		}
		unix.Close(fd)
		fd = next
	}
	return nil
}

// Remove removes the file, link or empty directory name. A link is removed itself; what it
// points to is untouched.
func (d Dir) Remove(name string) error {
	dirfd, leaf, comps, err := d.parent(name)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	err = unix.Unlinkat(dirfd, leaf, 0)
	if errors.Is(err, unix.EISDIR) {
		err = unix.Unlinkat(dirfd, leaf, unix.AT_REMOVEDIR)
	}
	if err != nil {
		return &fs.PathError{Op: "remove", Path: d.hostComps(comps), Err: err}
	}
	return nil
}

// Rename moves oldname to newname, both below d, replacing what newname was (a link there
// is replaced, not followed).
func (d Dir) Rename(oldname, newname string) error {
	return d.pair("rename", oldname, newname, func(ofd int, oleaf string, nfd int, nleaf string) error {
		return unix.Renameat(ofd, oleaf, nfd, nleaf)
	})
}

// Link makes newname a hard link to the file oldname (a link at oldname is linked itself,
// never its target); it fails with fs.ErrExist when newname exists, which makes claiming a
// name atomic.
func (d Dir) Link(oldname, newname string) error {
	return d.pair("link", oldname, newname, func(ofd int, oleaf string, nfd int, nleaf string) error {
		return unix.Linkat(ofd, oleaf, nfd, nleaf, 0)
	})
}

// pair runs a two-name operation with both parents opened without following links.
func (d Dir) pair(op, oldname, newname string, fn func(ofd int, oleaf string, nfd int, nleaf string) error) error {
	ofd, oleaf, ocomps, err := d.parent(oldname)
	if err != nil {
		return err
	}
	defer unix.Close(ofd)
	nfd, nleaf, ncomps, err := d.parent(newname)
	if err != nil {
		return err
	}
	defer unix.Close(nfd)
	if err := fn(ofd, oleaf, nfd, nleaf); err != nil {
		return &os.LinkError{Op: op, Old: d.hostComps(ocomps), New: d.hostComps(ncomps), Err: err}
	}
	return nil
}

// SyncDir makes the creation, rename or removal of a name in the directory dir ("" for d)
// durable. Errors are ignored: some file systems cannot sync a directory, and the change
// itself has happened.
func (d Dir) SyncDir(dir string) {
	comps, err := d.components(dir)
	if err != nil {
		return
	}
	if fd, err := d.openDir(comps); err == nil {
		unix.Fsync(fd)
		unix.Close(fd)
	}
}

// fileMode converts the st_mode of stat(2) to an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// fileInfo is an fs.FileInfo made from fstatat(2).
type fileInfo struct {
	name string
	st   unix.Stat_t
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Size() int64        { return fi.st.Size }
func (fi fileInfo) Mode() fs.FileMode  { return fileMode(fi.st.Mode) }
func (fi fileInfo) ModTime() time.Time { return time.Unix(fi.st.Mtim.Unix()) }
func (fi fileInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi fileInfo) Sys() any           { return &fi.st }

// OpenPath opens name only to name it to another program (an O_PATH descriptor: nothing can
// be read or written through it), without following a link anywhere, as bubblewrap's
// --bind-fd wants. dir says whether a directory or a regular file is wanted; a link or
// anything else is refused. Linux only.
func (d Dir) OpenPath(name string, dir bool) (*os.File, error) {
	comps, err := d.components(name)
	if err != nil {
		return nil, err
	}
	var fd int
	if len(comps) == 0 {
		fd, err = unix.Open(d.base, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: d.base, Err: err}
		}
	} else {
		dirfd, err := d.openDir(comps[:len(comps)-1])
		if err != nil {
			return nil, err
		}
		fd, err = unix.Openat(dirfd, comps[len(comps)-1], unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			err = d.explain(dirfd, comps, "open", err)
		}
		unix.Close(dirfd)
		if err != nil {
			return nil, err
		}
	}
	p := d.hostComps(comps)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	if m := fileMode(st.Mode); m.IsDir() != dir || !m.IsDir() && !m.IsRegular() {
		unix.Close(fd)
		return nil, &RefusedError{Path: p, Reason: Kind(m)}
	}
	return os.NewFile(uintptr(fd), p), nil
}
