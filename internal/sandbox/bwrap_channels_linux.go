//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// channelMounts returns the bwrap options that lay out /workspace/channels for one command,
// with the descriptors they name:
//
//   - own, the run's channel ("channels/<adapter>/<channel>"; "" for none), is writable, but
//     its log.jsonl and context.jsonl are read-only. A missing one is created empty first, so
//     a command cannot make one of its own for mom to append to and read back later.
//   - The other channels the command may see are read-only as a whole: under isolation none
//     all of channels/ (v nil), under user isolation each of the person's other channels.
//     A command writes to its own channel's directory only; what it shares with other
//     channels goes in the workspace outside channels/.
//   - Every other channel is hidden under an empty directory.
//
// Each directory and file is opened on the host without following a link in any component
// (a command may have planted one in place of any of them) and handed to bwrap by
// descriptor, so what is mounted is what was checked; bubblewrap compares the two again
// after mounting. What is not as it should be is left out and named in the mounts' problems.
func (c *bwrapConfig) channelMounts(own string, v visibility) (*mounts, error) {
	ws, err := unix.Open(c.ws.host, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot open the workspace %s: %w", c.ws.host, err)
	}
	defer unix.Close(ws)
	m := &mounts{}
	channels := filepath.Join(Inside, "channels")
	if v == nil {
		if f := m.openDir(ws, "channels"); f != nil {
			m.bind("--ro-bind-fd", f, channels)
		} else {
			m.args = append(m.args, "--tmpfs", channels)
		}
	} else {
		m.args = append(m.args, "--tmpfs", channels)
		for _, key := range sortedKeys(v) {
			if key == own {
				continue
			}
			if f := m.openDir(ws, key); f != nil {
				m.bind("--ro-bind-fd", f, filepath.Join(Inside, key))
			}
		}
	}
	if own == "" {
		return m, nil
	}
	dir := m.openDir(ws, own)
	if dir == nil {
		return m, nil
	}
	m.bind("--bind-fd", dir, filepath.Join(Inside, own))
	for _, name := range momOnlyFiles {
		if f := m.openMomOnly(dir, own, name); f != nil {
			m.bind("--ro-bind-fd", f, filepath.Join(Inside, own, name))
		}
	}
	return m, nil
}

// pathOnly opens a file only to name it to bwrap (O_PATH: it can be neither read nor
// written through the descriptor), and not when it is a symbolic link.
const pathOnly = unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC

// openDir opens the directory rel of the workspace ws one component at a time, none of them
// a link. It returns nil when there is no such directory, noting a problem when something
// else is in its place.
func (m *mounts) openDir(ws int, rel string) *os.File {
	fd, err := unix.Dup(ws)
	if err != nil {
		m.problem("cannot open %s: %v", rel, err)
		return nil
	}
	for _, name := range strings.Split(rel, "/") {
		next, err := unix.Openat(fd, name, pathOnly|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		switch {
		case errors.Is(err, unix.ENOENT):
			return nil
		case errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.ELOOP):
			m.problem("%s is not a directory (a symbolic link or a file is in the way); commands do not see it", rel)
			return nil
		case err != nil:
			m.problem("cannot open %s: %v; commands do not see it", rel, err)
			return nil
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), rel)
}

// openMomOnly opens the mom-only file name of the channel directory dir (own, relative to
// the workspace), creating it empty when it is missing. It returns nil, noting a problem,
// when the file is a link or not a regular file.
func (m *mounts) openMomOnly(dir *os.File, own, name string) *os.File {
	rel := own + "/" + name
	d := int(dir.Fd())
	fd, err := unix.Openat(d, name, pathOnly, 0)
	if errors.Is(err, unix.ENOENT) {
		// mom's own writers create the file with the same mode (jsonl.Open), and an empty
		// context.jsonl is a new session to them.
		if w, err := unix.Openat(d, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644); err == nil {
			unix.Close(w)
		}
		fd, err = unix.Openat(d, name, pathOnly, 0)
	}
	if err != nil {
		m.problem("cannot open %s: %v; commands may be able to write it", rel, err)
		return nil
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		m.problem("cannot look at %s: %v; commands may be able to write it", rel, err)
		return nil
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFLNK:
		unix.Close(fd)
		m.problem("%s is a symbolic link, not the file mom writes; it is not mounted read-only, and mom must not follow it", rel)
		return nil
	default:
		unix.Close(fd)
		m.problem("%s is not a regular file; it is not mounted read-only", rel)
		return nil
	}
	if st.Nlink > 1 {
		// Mounting one name read-only does not protect the file under its other names.
		m.problem("%s has %d names (hard links): a command may write it through another one; remove the others", rel, st.Nlink)
	}
	return os.NewFile(uintptr(fd), rel)
}
