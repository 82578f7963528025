package pimport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/mom-agent/mom/internal/confined"
)

// Limits on what the import reads from the old directory, where commands could plant huge
// files. Each is far above what the original mom made in normal use.
const (
	// maxFile is the largest file copied: an attachment, a skill's file, a file in scratch/.
	maxFile = 1 << 30
	// maxLog is the largest log.jsonl converted; it is read a line at a time.
	maxLog = 16 << 30
	// maxContext is the largest context.jsonl migrated; mom holds a context in memory.
	maxContext = 1 << 30
	// maxSettings is the largest settings.json read.
	maxSettings = 1 << 20
	// maxDepth is how deep a copied tree may go.
	maxDepth = 32
)

// Note is something of the old directory the import left out, or did differently from
// what was asked, and why.
type Note struct {
	Path   string // relative to the old directory, or to the workspace for a kept file
	Reason string
}

// placed says what placeFile did.
type placed int

const (
	placedNew  placed = iota // the file was copied
	placedSame               // the target was there with the same content
	placedKept               // the target was there with other content, and kept
	placedLeft               // the source was not copied (see the reason)
)

// placeFile copies the regular file sname of src to dname in dst, which must not exist yet or
// hold the same bytes: an existing file is never replaced. The copy goes to a temporary file
// beside dname, synced, then linked into place, so it appears whole or not at all. The source
// is opened as confined opens workspace files: a link, a pipe or a file over limit is left,
// with the reason. An error is returned only for a failure to write.
func placeFile(src confined.Dir, sname string, dst confined.Dir, dname string, limit int64) (placed, string, error) {
	f, err := src.Open(sname)
	if err != nil {
		return placedLeft, reason(err), nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return placedLeft, reason(err), nil
	}
	if st.Size() > limit {
		return placedLeft, tooBig(st.Size(), limit), nil
	}
	if _, err := dst.Stat(dname); err == nil {
		// Compared where it is, so an import run again makes no temporary file.
		return compareExisting(dst, dname, f), "", nil
	}
	dir, _ := path.Split(dname)
	if err := dst.MkdirAll(dir, 0o755); err != nil {
		return placedLeft, "", err
	}
	tmp, tmpName, err := dst.CreateTemp(dir, ".import-*")
	if err != nil {
		return placedLeft, "", err
	}
	defer dst.Remove(tmpName)
	n, err := io.Copy(tmp, io.LimitReader(f, limit+1))
	if err == nil && n > limit {
		tmp.Close()
		return placedLeft, tooBig(n, limit), nil // it grew while being read
	}
	if err == nil {
		err = tmp.Chmod(filePerm(st.Mode()))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return placedLeft, "", fmt.Errorf("copy %s: %w", dst.Join(dname).Path(), err)
	}
	err = claim(dst, tmpName, dname)
	if errors.Is(err, fs.ErrExist) {
		if same, _ := sameContent(dst, tmpName, dname); same {
			return placedSame, "", nil
		}
		return placedKept, "", nil
	}
	if err != nil {
		return placedLeft, "", err
	}
	return placedNew, "", nil
}

// claim gives the file tmp the name name in d, failing with fs.ErrExist rather than replace
// what is there: a hard link where the file system has them, else a name reserved with
// O_EXCL and renamed over.
func claim(d confined.Dir, tmp, name string) error {
	err := d.Link(tmp, name)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, xerr := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if xerr != nil {
		return xerr
	}
	f.Close()
	if err := d.Rename(tmp, name); err != nil {
		d.Remove(name)
		return err
	}
	return nil
}

// compareExisting says whether the file name of d, which exists, holds what r gives:
// placedSame, or placedKept for other bytes or anything but a regular file.
func compareExisting(d confined.Dir, name string, r io.Reader) placed {
	f, err := d.Open(name)
	if err != nil {
		return placedKept
	}
	defer f.Close()
	if same, err := sameReaders(f, r); err == nil && same {
		return placedSame
	}
	return placedKept
}

// writeNew writes data to name in d, which must not exist yet or hold the same bytes, as
// placeFile does.
func writeNew(d confined.Dir, name string, data []byte) (placed, error) {
	if _, err := d.Stat(name); err == nil {
		return compareExisting(d, name, bytes.NewReader(data)), nil
	}
	dir, _ := path.Split(name)
	if err := d.MkdirAll(dir, 0o755); err != nil {
		return placedLeft, err
	}
	tmp, tmpName, err := d.CreateTemp(dir, ".import-*")
	if err != nil {
		return placedLeft, err
	}
	defer d.Remove(tmpName)
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return placedLeft, fmt.Errorf("write %s: %w", d.Join(name).Path(), err)
	}
	err = claim(d, tmpName, name)
	if errors.Is(err, fs.ErrExist) {
		if same, _ := sameContent(d, tmpName, name); same {
			return placedSame, nil
		}
		return placedKept, nil
	}
	if err != nil {
		return placedLeft, err
	}
	return placedNew, nil
}

// sameContent reports whether the regular files a and b of d hold the same bytes.
func sameContent(d confined.Dir, a, b string) (bool, error) {
	fa, err := d.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := d.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	return sameReaders(fa, fb)
}

// sameReaders reports whether a and b give the same bytes.
func sameReaders(a, b io.Reader) (bool, error) {
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(a, ba)
		nb, errB := io.ReadFull(b, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		endA := errors.Is(errA, io.EOF) || errors.Is(errA, io.ErrUnexpectedEOF)
		endB := errors.Is(errB, io.EOF) || errors.Is(errB, io.ErrUnexpectedEOF)
		switch {
		case endA && endB:
			return true, nil
		case endA != endB:
			return false, nil
		case errA != nil:
			return false, errA
		case errB != nil:
			return false, errB
		}
	}
}

// treeCopy copies directory trees from the old directory, counting what it copied and
// noting what it left.
type treeCopy struct {
	src, dst confined.Dir
	// notePath turns a name below src into the path a Note names.
	notePath func(string) string
	copied   int // files copied or found already there
	notes    []Note
}

// tree copies the directory sname of src to dname of dst, recursively. Links and special
// files are left and noted, as are files over maxFile and levels below maxDepth; a file
// already at the target with other content is kept and noted. depth is how deep sname is in
// the old directory. skip, when not nil, leaves out names directly in sname (which the caller
// handles itself).
func (c *treeCopy) tree(sname, dname string, depth int, skip func(string) bool) error {
	entries, err := c.src.ReadDir(sname)
	if err != nil {
		c.note(sname, reason(err))
		return nil
	}
	if err := c.dst.MkdirAll(dname, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if skip != nil && skip(name) {
			continue
		}
		s, d := path.Join(sname, name), path.Join(dname, name)
		switch t := e.Type(); {
		case t.IsDir():
			if depth+1 >= maxDepth {
				c.note(s, fmt.Sprintf("is more than %d directories deep", maxDepth))
				continue
			}
			if err := c.tree(s, d, depth+1, nil); err != nil {
				return err
			}
		case t.IsRegular():
			if err := c.file(s, d); err != nil {
				return err
			}
		default:
			c.note(s, leftOut(t))
		}
	}
	return nil
}

// file copies one regular file, noting what was left or kept.
func (c *treeCopy) file(s, d string) error {
	what, why, err := placeFile(c.src, s, c.dst, d, maxFile)
	switch what {
	case placedNew, placedSame:
		c.copied++
	case placedKept:
		c.notes = append(c.notes, Note{Path: c.dst.Join(d).Path(), Reason: "was already there with other content; kept, and the old one not copied"})
	case placedLeft:
		if why != "" {
			c.note(s, why)
		}
	}
	return err
}

func (c *treeCopy) note(name, why string) {
	c.notes = append(c.notes, Note{Path: c.notePath(name), Reason: why})
}

// removeTree removes the directory name of d and everything in it, never following a link:
// a link is removed itself.
func removeTree(d confined.Dir, name string) error {
	entries, err := d.ReadDir(name)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(name, e.Name())
		if e.Type().IsDir() {
			if err := removeTree(d, p); err != nil {
				return err
			}
			continue
		}
		if err := d.Remove(p); err != nil {
			return err
		}
	}
	return d.Remove(name)
}

// filePerm is the mode a copy gets: executable for everyone when the original was
// executable for anyone (skills ship scripts), readable otherwise; never set-id or writable
// by others.
func filePerm(m fs.FileMode) fs.FileMode {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

// reason turns the error of opening a file of the old directory into words for a Note.
func reason(err error) string {
	var r *confined.RefusedError
	if errors.As(err, &r) {
		if r.Reason == confined.Kind(fs.ModeSymlink) {
			return r.Reason + "; not followed or copied"
		}
		return r.Reason + "; not copied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// leftOut says why a directory entry that is neither a file nor a directory was not copied.
func leftOut(t fs.FileMode) string {
	if t&fs.ModeSymlink != 0 {
		return confined.Kind(t) + "; not followed or copied"
	}
	return confined.Kind(t) + "; not copied"
}

// tooBig says a file is over a limit, in the words of a Note.
func tooBig(size, limit int64) string {
	return fmt.Sprintf("is %s, more than the %s the import copies", bytesize(size), bytesize(limit))
}

// bytesize writes n bytes for people: 512 B, 3.1 MiB, 100 GiB.
func bytesize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		f /= unit
		suffix = s
		if f < unit {
			break
		}
	}
	if f < 10 {
		return fmt.Sprintf("%.1f %s", f, suffix)
	}
	return fmt.Sprintf("%.0f %s", f, suffix)
}
