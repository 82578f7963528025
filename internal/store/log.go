package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/jsonl"
)

// LogPos is where a message is in log.jsonl: its line occupies bytes [Start, End), and End is
// where reading newer messages starts.
type LogPos struct {
	Start, End int64
}

// logName is the channel's log in its directory.
const logName = "log.jsonl"

// AppendLog adds m to the channel's permanent history. When it returns nil the line is in the
// kernel, so no crash of mom can lose it (and it is on disk within about a second): an adapter
// may acknowledge the platform's event then.
func (c *ChannelDir) AppendLog(m chat.Message) (LogPos, error) {
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

func (c *ChannelDir) logFile() (*jsonl.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.readyLocked(); err != nil {
		return nil, err
	}
	if c.log == nil {
		c.setAsideForeignLog()
		f, err := jsonl.Open(c.fs, logName)
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
func (c *ChannelDir) ReadLog(from int64, fn func(m chat.Message, pos LogPos) error) error {
	_, err := jsonl.Scan(c.fs, logName, from, func(line []byte, start, end int64) error {
		m, err := c.parseLine(line)
		if err != nil {
			return err
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
func (c *ChannelDir) LogSize() (int64, error) {
	c.mu.Lock()
	f := c.log
	c.mu.Unlock()
	if f != nil {
		return f.Size(), nil
	}
	st, err := c.fs.Stat(logName)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("size of the log of channel %s: %w", c.Key(), err)
	}
	return st.Size(), nil
}

// parseMessage reads one log line; a line that is not a message is jsonl.ErrSkip, so readers
// in both directions skip the same lines.
func parseMessage(line []byte) (chat.Message, error) {
	var m chat.Message
	if err := json.Unmarshal(line, &m); err != nil {
		return m, jsonl.ErrSkip
	}
	return m, nil
}

// LastMessage returns the newest message in the log; ok is false when there is none.
// Adapters use it to fetch what was said while mom was away.
func (c *ChannelDir) LastMessage() (m chat.Message, ok bool, err error) {
	msgs, err := c.TailMessages(1)
	if err != nil || len(msgs) == 0 {
		return m, false, err
	}
	return msgs[0], true, nil
}

// TailMessages returns the last n messages of the log, oldest first: fewer when the log holds
// fewer. The log is read backwards from its end, so a page of recent history costs the same
// in a log of a hundred lines as in one of a million. Lines are skipped as ReadLog skips them.
func (c *ChannelDir) TailMessages(n int) ([]chat.Message, error) {
	msgs, _, err := c.TailLog(n)
	return msgs, err
}

// TailLog is TailMessages with where each message is in the log, for readers that place
// other records (kept by log offset) among the messages.
func (c *ChannelDir) TailLog(n int) ([]chat.Message, []LogPos, error) {
	size, err := c.LogSize()
	if err != nil || size == 0 || n < 1 {
		return nil, nil, err
	}
	msgs := make([]chat.Message, 0, min(n, 1024))
	pos := make([]LogPos, 0, min(n, 1024))
	_, err = jsonl.ScanBack(c.fs, logName, size, func(line []byte, start, end int64) error {
		m, err := c.parseLine(line)
		if err != nil {
			return err
		}
		msgs = append(msgs, m)
		pos = append(pos, LogPos{start, end})
		if len(msgs) == n {
			return jsonl.ErrStop
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil // no message yet
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read the last messages of channel %s: %w", c.Key(), err)
	}
	slices.Reverse(msgs)
	slices.Reverse(pos)
	return msgs, pos, nil
}

// setAsideForeignLog renames log.jsonl out of the way when something other than a file is in
// its place: a link, a pipe or a directory that a command made (under docker or host, where
// commands can write the history). mom never follows it; it keeps it, renamed to
// log.jsonl.refused-<time>, says so in the log, and starts a new history beside it, so the
// channel goes on working and nothing is lost.
func (c *ChannelDir) setAsideForeignLog() {
	fi, err := c.fs.Stat(logName)
	if err != nil || fi.Mode().IsRegular() {
		return
	}
	aside := fmt.Sprintf("%s.refused-%s", logName, time.Now().UTC().Format("20060102T150405.000Z"))
	if err := c.fs.Rename(logName, aside); err != nil {
		c.store.log.Warn("log.jsonl is not a file mom wrote, and could not be set aside", "channel", c.Key(), "kind", fi.Mode().Type().String(), "err", err)
		return
	}
	c.store.log.Warn("log.jsonl was not a file mom wrote; it is kept aside and a new history begins",
		"channel", c.Key(), "kind", fi.Mode().Type().String(), "keptAs", aside)
}
