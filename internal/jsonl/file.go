package jsonl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	pathpkg "path"
	"sync"

	"github.com/mom-agent/mom/internal/confined"
)

// File is an append-only JSON-lines file. It is safe for concurrent use.
type File struct {
	path string

	mu     sync.Mutex // guards everything below and orders writes
	f      *os.File
	size   int64 // bytes in the file, which is where the next write lands
	needNL bool  // the file does not end with '\n' (a torn last line)
	dirty  bool  // written since the last successful fsync
	closed bool

	// syncMu makes an explicit Sync wait for an fsync the flusher already started, so Sync
	// never returns before the lines written before it are on disk.
	syncMu sync.Mutex
}

// Open opens the file name in dir for appending, creating it if it does not exist. It never
// truncates: an existing file keeps every byte, and if it does not end with a newline the next
// append heals it with one. Like every file mom opens in the workspace, it is refused when it
// is a link or not a regular file (see package confined).
func Open(dir confined.Dir, name string) (*File, error) {
	_, statErr := dir.Stat(name)
	f, err := dir.OpenFile(name, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s for appending: %w", name, err)
	}
	path := f.Name()
	if errors.Is(statErr, fs.ErrNotExist) {
		// A new file's name must survive a power failure as surely as its lines.
		dir.SyncDir(pathpkg.Dir(name))
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s for appending: %w", path, err)
	}
	jf := &File{path: path, f: f, size: st.Size()}
	if jf.size > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], jf.size-1); err != nil && !errors.Is(err, io.EOF) {
			f.Close()
			return nil, fmt.Errorf("read the end of %s: %w", path, err)
		}
		jf.needNL = last[0] != '\n'
	}
	return jf, nil
}

// Path returns the path the file was opened with.
func (f *File) Path() string { return f.path }

// Size returns the number of bytes in the file, including lines appended by this File.
func (f *File) Size() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.size
}

// Append writes v as one JSON line. start and end are the byte offsets of the line in the file:
// the line, with its newline, occupies [start, end). v is encoded without HTML escaping, as
// JavaScript's JSON.stringify does, so the files stay greppable for "<" and "&".
func (f *File) Append(v any) (start, end int64, err error) {
	b, err := Marshal(v)
	if err != nil {
		return 0, 0, fmt.Errorf("encode a line for %s: %w", f.path, err)
	}
	return f.appendLine(b)
}

// Marshal encodes v as Append writes it, without the newline: JSON without HTML escapes. It
// is for writers of whole files that must hold the same bytes Append would have written.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return unescapeHTML(b), nil
}

// appendLine frames line with its newline, and the healing newline when the file ends torn,
// and hands it to the kernel in one write.
func (f *File) appendLine(line []byte) (start, end int64, err error) {
	buf := make([]byte, len(line)+2)
	buf[0] = '\n'
	copy(buf[1:], line)
	buf[len(buf)-1] = '\n'

	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, 0, fmt.Errorf("append to %s: %w", f.path, os.ErrClosed)
	}
	p := buf[1:]
	if f.needNL {
		p = buf
	}
	n, err := f.f.Write(p)
	if n > 0 {
		f.size += int64(n)
		f.dirty = true
		f.needNL = p[n-1] != '\n'
	}
	if err != nil {
		return 0, 0, fmt.Errorf("append to %s: %w", f.path, err)
	}
	end = f.size
	return end - int64(len(line)+1), end, nil
}

// Sync flushes the file to disk if anything was written since the last sync. A failed sync is
// retried by the next one.
func (f *File) Sync() error {
	f.syncMu.Lock()
	defer f.syncMu.Unlock()
	f.mu.Lock()
	if f.closed || !f.dirty {
		f.mu.Unlock()
		return nil
	}
	f.dirty = false
	osf := f.f
	f.mu.Unlock()

	// fsync runs without f.mu so appends are not held up by the disk.
	if err := osf.Sync(); err != nil {
		f.mu.Lock()
		closed := f.closed
		f.dirty = true
		f.mu.Unlock()
		if closed && errors.Is(err, os.ErrClosed) {
			return nil // Close synced it.
		}
		return fmt.Errorf("flush %s to disk: %w", f.path, err)
	}
	return nil
}

// Close syncs and closes the file. Later appends fail; later syncs do nothing.
func (f *File) Close() error {
	f.syncMu.Lock()
	defer f.syncMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	var syncErr error
	if f.dirty {
		if err := f.f.Sync(); err != nil {
			syncErr = fmt.Errorf("flush %s to disk: %w", f.path, err)
		}
	}
	if err := f.f.Close(); err != nil && syncErr == nil {
		return fmt.Errorf("close %s: %w", f.path, err)
	}
	return syncErr
}
