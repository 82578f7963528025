package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Dir is a directory in the workspace, named by a trusted base directory and a path below
// it. Making a Dir touches nothing; every operation walks from the base again, so a Dir
// stays valid however the tree below the base changes, and never follows what changed into
// a link. Names given to its methods are slash-separated paths relative to the Dir; ".." and
// absolute names are refused.
type Dir struct {
	base string // absolute; links in it are the owner's and followed
	rel  string // clean, slash-separated, below base; "" for base itself
	bad  string // a name given to Join that cannot be below base; every operation fails
}

// Root returns the Dir of base itself, the trusted directory that later paths are below.
func Root(base string) Dir {
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	return Dir{base: filepath.Clean(base)}
}

// Join returns the Dir of elem below d.
func (d Dir) Join(elem ...string) Dir {
	if d.bad != "" {
		return d
	}
	rel, err := clean(path.Join(elem...))
	if err != nil {
		d.bad = path.Join(elem...)
		return d
	}
	d.rel = joinRel(d.rel, rel)
	return d
}

// IsZero reports whether d is the zero Dir, which names no directory.
func (d Dir) IsZero() bool { return d.base == "" }

// Path returns the directory's path on the host, for messages, for translating into the
// sandbox's view, and for handing to programs that run with no more rights than a command.
func (d Dir) Path() string { return d.host("") }

// String returns Path.
func (d Dir) String() string { return d.Path() }

// host returns the host path of name below d.
func (d Dir) host(name string) string {
	return filepath.Join(d.base, filepath.FromSlash(joinRel(d.rel, name)))
}

// components returns the path of name below the base, split into components, after
// checking it; name "" means d itself.
func (d Dir) components(name string) ([]string, error) {
	if d.bad != "" {
		return nil, &RefusedError{Path: d.host(""), Reason: fmt.Sprintf("names %q, which is not below %s", d.bad, d.base)}
	}
	rel, err := clean(name)
	if err != nil {
		return nil, &RefusedError{Path: d.host(""), Reason: fmt.Sprintf("was asked for %q, which is not a name below it", name)}
	}
	full := joinRel(d.rel, rel)
	if full == "" {
		return nil, nil
	}
	return strings.Split(full, "/"), nil
}

// clean checks that name is a relative path that stays where it is (no "..", not absolute)
// and returns it cleaned; "" and "." become "".
func clean(name string) (string, error) {
	if name == "" || name == "." {
		return "", nil
	}
	if path.IsAbs(name) || strings.ContainsRune(name, 0) {
		return "", errors.New("not a relative name")
	}
	c := path.Clean(name)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", errors.New("leads out")
	}
	if c == "." {
		return "", nil
	}
	return c, nil
}

func joinRel(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "/" + b
}

// ErrRefused is matched by every RefusedError.
var ErrRefused = errors.New("refused by the workspace's confinement")

// RefusedError says that mom would not use a name in the workspace: it is a symbolic link,
// not a regular file, or too large.
type RefusedError struct {
	Path   string // the name on the host
	Reason string // what it is, e.g. "is a symbolic link"
}

func (e *RefusedError) Error() string {
	return e.Path + " " + e.Reason + "; mom does not follow links, open special files or read oversized files in the workspace, where commands can plant them"
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// ErrTooLarge is matched by the error of ReadFile for a file over its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile returns the contents of the regular file name, refusing it without reading when
// it is larger than limit bytes (the error matches ErrTooLarge and ErrRefused).
func (d Dir) ReadFile(name string, limit int64) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLarge(f.Name(), st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew while being read
		return nil, tooLarge(f.Name(), int64(len(data)), limit)
	}
	return data, nil
}

func tooLarge(name string, size, limit int64) error {
	return fmt.Errorf("%w: %w", &RefusedError{Path: name, Reason: fmt.Sprintf("is %d bytes, more than the %d mom reads of it", size, limit)}, ErrTooLarge)
}

// Open opens the regular file name for reading.
func (d Dir) Open(name string) (*os.File, error) {
	return d.OpenFile(name, os.O_RDONLY, 0)
}

// WriteFile replaces name with data atomically: the data goes to a temporary file beside it,
// is synced and renamed over it, so readers see the old file or the new one, and a link
// planted at name is replaced, never followed.
func (d Dir) WriteFile(name string, data []byte, perm fs.FileMode) (err error) {
	dir, leaf := path.Split(name)
	f, tmp, err := d.CreateTemp(dir, "."+leaf+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			d.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", d.host(name), err)
	}
	if err := d.Rename(tmp, name); err != nil {
		return err
	}
	d.SyncDir(dir)
	return nil
}

// Kind names what a file is for a message, when it is not a regular file: "is a symbolic
// link", "is a named pipe", … (RefusedError.Reason).
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "is a symbolic link"
	case m.IsDir():
		return "is a directory"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe"
	case m&fs.ModeSocket != 0:
		return "is a socket"
	case m&fs.ModeDevice != 0:
		return "is a device"
	}
	return "is not a regular file"
}

// CreateTemp creates a new file in the directory dir below d ("" for d) named by pattern,
// whose last "*" is replaced by a random string, as os.CreateTemp does. It returns the open
// file (mode 0600) and its name relative to d.
func (d Dir) CreateTemp(dir, pattern string) (*os.File, string, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 1000 {
		name := path.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+suffix)
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("could not create a temporary file in %s", d.host(dir))
}
