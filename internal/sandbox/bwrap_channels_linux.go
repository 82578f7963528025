//go:build linux

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mom-agent/mom/internal/confined"
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
// (a command may have planted one in place of any of them; see package confined) and handed
// to bwrap by descriptor, so what is mounted is what was checked; bubblewrap compares the two
// again after mounting. What is not as it should be is left out and named in the mounts'
// problems.
func (c *bwrapConfig) channelMounts(own string, v visibility) (*mounts, error) {
	ws := confined.Root(c.ws.host)
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
		if f := m.openMomOnly(ws.Join(own), own, name); f != nil {
			m.bind("--ro-bind-fd", f, filepath.Join(Inside, own, name))
		}
	}
	return m, nil
}

// openDir opens the directory rel of the workspace ws without following a link in any
// component (see confined.Dir.OpenPath). It returns nil when there is no such directory,
// noting a problem when something else is in its place.
func (m *mounts) openDir(ws confined.Dir, rel string) *os.File {
	f, err := ws.OpenPath(rel, true)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, confined.ErrRefused), errors.Is(err, syscall.ENOTDIR):
		m.problem("%s is not a directory (a symbolic link or a file is in the way); commands do not see it", rel)
		return nil
	case err != nil:
		m.problem("cannot open %s: %v; commands do not see it", rel, err)
		return nil
	}
	return f
}

// openMomOnly opens the mom-only file name of the channel directory dir (own, relative to
// the workspace), creating it empty when it is missing. It returns nil, noting a problem,
// when the file is a link or not a regular file.
func (m *mounts) openMomOnly(dir confined.Dir, own, name string) *os.File {
	rel := own + "/" + name
	f, err := dir.OpenPath(name, false)
	if errors.Is(err, fs.ErrNotExist) {
		// mom's own writers create the file with the same mode (jsonl.Open), and an empty
		// context.jsonl is a new session to them.
		if w, err := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			w.Close()
		}
		f, err = dir.OpenPath(name, false)
	}
	var refused *confined.RefusedError
	switch {
	case errors.As(err, &refused):
		m.problem("%s %s, not the file mom writes; it is not mounted read-only, and mom does not follow it", rel, refused.Reason)
		return nil
	case err != nil:
		m.problem("cannot open %s: %v; commands may be able to write it", rel, err)
		return nil
	}
	if st, err := f.Stat(); err == nil {
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
			// Mounting one name read-only does not protect the file under its other names.
			m.problem("%s has %d names (hard links): a command may write it through another one; remove the others", rel, sys.Nlink)
		}
	}
	return f
}
