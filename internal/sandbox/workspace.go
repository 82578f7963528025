package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Inside is where the docker and bwrap executors show the workspace to commands.
const Inside = "/workspace"

// maxLinks bounds how many symbolic links one path may pass through, as the kernel does
// (ELOOP), so a loop of links is an error rather than a hang.
const maxLinks = 40

// workspaceMap translates paths between the host's workspace directory and Inside, and keeps
// the file tools of a sandbox inside the workspace. The workspace is all a sandboxed command
// can reach of the data directory, so the file tools, which run on the host with mom's
// rights, must reach no more: not config.json beside the workspace, not a file a symbolic
// link made inside the sandbox points at.
type workspaceMap struct {
	host string // absolute host path of the workspace
	real string // host with symbolic links resolved, to recognize host paths that use it
}

func newWorkspaceMap(host string) (workspaceMap, error) {
	abs, err := filepath.Abs(host)
	if err != nil {
		return workspaceMap{}, fmt.Errorf("workspace %s: %w", host, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return workspaceMap{}, fmt.Errorf("workspace %s: %w", abs, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return workspaceMap{}, fmt.Errorf("workspace %s: %w", abs, err)
	}
	return workspaceMap{host: abs, real: real}, nil
}

// within returns p relative to base ("." for base itself) when p is base or below it. Both
// must be clean.
func within(base, p string) (string, bool) {
	if p == base {
		return ".", true
	}
	if base == "/" {
		return p[1:], strings.HasPrefix(p, "/")
	}
	rest, ok := strings.CutPrefix(p, base+"/")
	return rest, ok
}

// rel returns the workspace-relative form of a sandbox path, or an error saying why the
// file tools cannot reach it.
func (m workspaceMap) rel(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is relative; an absolute path is needed", path)
	}
	r, ok := within(Inside, filepath.Clean(path))
	if !ok {
		return "", &outsideError{path: path}
	}
	return r, nil
}

// hostPath translates a sandbox path lexically, without looking at the disk.
func (m workspaceMap) hostPath(path string) (string, error) {
	r, err := m.rel(path)
	if err != nil {
		return "", err
	}
	return filepath.Join(m.host, r), nil
}

// sandboxPath translates a host path inside the workspace; any other path is returned as it
// is, since the sandbox has no name for it.
func (m workspaceMap) sandboxPath(hostPath string) string {
	p := filepath.Clean(hostPath)
	for _, base := range []string{m.host, m.real} {
		if r, ok := within(base, p); ok {
			return filepath.Join(Inside, r)
		}
	}
	return p
}

// follow resolves the symbolic links in the sandbox path p the way a command inside the
// sandbox would see them, one component at a time: a relative link target is taken from the
// link's directory, an absolute one is a sandbox path. It returns the result relative to the
// workspace, and an error when a link or ".." leads out of it. Components that do not exist
// yet are kept as they are, so the result also names a file about to be created.
func (m workspaceMap) follow(p string) (string, error) {
	r, err := m.rel(p)
	if err != nil {
		return "", err
	}
	var done []string
	todo := splitPath(r)
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", &outsideError{path: p, link: true}
			}
			done = done[:len(done)-1]
			continue
		}
		cur := filepath.Join(m.host, filepath.Join(done...), c)
		// Only a link can lead elsewhere. A component that cannot be looked at (missing, or
		// below a file) is kept as it is; the operation itself then fails with its own error.
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%s: too many levels of symbolic links", p)
		}
		target, err := os.Readlink(cur)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			tr, ok := within(Inside, filepath.Clean(target))
			if !ok {
				return "", &outsideError{path: p, link: true}
			}
			done = nil
			todo = append(splitPath(tr), todo...)
			continue
		}
		todo = append(splitPath(target), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return filepath.Join(done...), nil
}

func splitPath(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// outsideError says that a path of a sandbox's file tools lies outside the workspace.
type outsideError struct {
	path string
	link bool // a symbolic link or ".." led there
}

func (e *outsideError) Error() string {
	if e.link {
		return fmt.Sprintf("%s leads outside the workspace (%s) through a symbolic link or \"..\"; the file tools reach only files in the workspace", e.path, Inside)
	}
	return fmt.Sprintf("%s is outside the workspace (%s): the read, write, edit and attach tools reach only files in the workspace; use bash for other files", e.path, Inside)
}

// visibility says which channel directories are visible: nil means all of them, otherwise
// the set of "channels/<adapter>/<channel>" paths (relative to the workspace) that are.
type visibility map[string]bool

// channelKey returns the "channels/<adapter>/<channel>" prefix of a workspace-relative path,
// or "" when the path is not inside a channel's directory.
func channelKey(rel string) string {
	parts := strings.SplitN(rel, "/", 4)
	if len(parts) < 3 || parts[0] != "channels" {
		return ""
	}
	return strings.Join(parts[:3], "/")
}

// allows reports whether the workspace-relative path rel is visible.
func (v visibility) allows(rel string) bool {
	if v == nil {
		return true
	}
	k := channelKey(rel)
	return k == "" || v[k]
}

// writable reports whether the file tools may write the workspace-relative path rel (its
// links followed); nil means everywhere.
type writable func(rel string) bool

// writableFor allows writes outside channels/ and in the channel directory own
// ("channels/<adapter>/<channel>"; "" for none), as the bwrap sandbox mounts them for a
// command.
func writableFor(own string) writable {
	return func(rel string) bool {
		if rel != "channels" && !strings.HasPrefix(rel, "channels/") {
			return true
		}
		return own != "" && channelKey(rel) == own
	}
}

// readOnlyError says that a path lies where the run may read but not write.
type readOnlyError struct{ path string }

func (e *readOnlyError) Error() string {
	return fmt.Sprintf("%s is under %s/channels but not in this channel's directory; commands run for this channel can read it at most, not change it", e.path, Inside)
}

// hiddenError says that a path lies in a channel the run may not see. It matches
// fs.ErrNotExist: to the run, the channel does not exist, as it does not inside the sandbox.
type hiddenError struct{ path string }

func (e *hiddenError) Error() string {
	return fmt.Sprintf("%s is in another channel's directory, which commands run for this channel cannot see", e.path)
}

func (e *hiddenError) Is(target error) bool { return target == fs.ErrNotExist }

// confine resolves the sandbox path p to the host file the file tools should use: symbolic
// links followed inside the workspace, refused when they lead out of it or into a channel v
// hides.
func (m workspaceMap) confine(p string, v visibility) (string, error) {
	r, err := m.follow(p)
	if err != nil {
		return "", err
	}
	if !v.allows(r) {
		return "", &hiddenError{path: p}
	}
	return filepath.Join(m.host, r), nil
}
