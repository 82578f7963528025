package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/jsonl"
)

// LogPos is where a message is in log.jsonl: its line occupies bytes [Start, End), and End is
// where reading newer messages starts.
type LogPos struct {
	Start, End int64
}

func (c *Channel) logPath() string { return filepath.Join(c.dir, "log.jsonl") }

// AppendLog adds m to the channel's permanent history. When it returns nil the line is in the
// kernel, so no crash of mom can lose it (and it is on disk within about a second): an adapter
// may acknowledge the platform's event then.
func (c *Channel) AppendLog(m chat.Message) (LogPos, error) {
	f, err := c.logFile()
	if err != nil {
		return LogPos{}, err
	}
	start, end, err := f.Append(m)
	if err != nil {
		return LogPos{}, fmt.Errorf("log a message of channel %s: %w", c.Key(), err)
	}
	return LogPos{start, end}, nil
}

func (c *Channel) logFile() (*jsonl.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.readyLocked(); err != nil {
		return nil, err
	}
	if c.log == nil {
		f, err := jsonl.Open(c.logPath())
		if err != nil {
			return nil, err
		}
		c.store.flusher.Add(f)
		c.log = f
	}
	return c.log, nil
}

// ReadLog calls fn for every message of the log that starts at or after offset from (0, or a
// LogPos.End seen earlier), in order. Lines that are not messages, and a torn last line, are
// skipped. An error from fn stops the reading and is returned.
func (c *Channel) ReadLog(from int64, fn func(m chat.Message, pos LogPos) error) error {
	_, err := jsonl.Scan(c.logPath(), from, func(line []byte, start, end int64) error {
		var m chat.Message
		if err := json.Unmarshal(line, &m); err != nil {
			return jsonl.ErrSkip
		}
		return fn(m, LogPos{start, end})
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no message yet
	}
	return err
}

// LogSize returns the size of log.jsonl in bytes: the offset the next message will start at
// (0 if there is no log yet).
func (c *Channel) LogSize() (int64, error) {
	c.mu.Lock()
	f := c.log
	c.mu.Unlock()
	if f != nil {
		return f.Size(), nil
	}
	st, err := os.Stat(c.logPath())
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("size of the log of channel %s: %w", c.Key(), err)
	}
	return st.Size(), nil
}

// tailWindow is how much of the end of log.jsonl LastMessage reads first; messages are small,
// so a long log is not read whole to find its newest line.
const tailWindow = 64 << 10

// LastMessage returns the newest message in the log; ok is false when there is none.
// Adapters use it to fetch what was said while mom was away.
func (c *Channel) LastMessage() (m chat.Message, ok bool, err error) {
	size, err := c.LogSize()
	if err != nil || size == 0 {
		return m, false, err
	}
	from := int64(0)
	if size > tailWindow {
		from, err = c.lineStartAfter(size - tailWindow)
		if err != nil {
			return m, false, err
		}
	}
	for {
		err = c.ReadLog(from, func(msg chat.Message, _ LogPos) error {
			m, ok = msg, true
			return nil
		})
		if err != nil || ok || from == 0 {
			return m, ok, err
		}
		from = 0 // the tail held only lines that are not messages: read it all
	}
}

// lineStartAfter returns the offset of the first line that starts after offset at.
func (c *Channel) lineStartAfter(at int64) (int64, error) {
	f, err := os.Open(c.logPath())
	if err != nil {
		return 0, fmt.Errorf("read the log of channel %s: %w", c.Key(), err)
	}
	defer f.Close()
	buf := make([]byte, tailWindow)
	n, err := f.ReadAt(buf, at)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("read the log of channel %s: %w", c.Key(), err)
	}
	if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
		return at + int64(i) + 1, nil
	}
	return 0, nil
}
