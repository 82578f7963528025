package store

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/session"
)

// ChannelDir is one conversation's directory on disk, with its log, context and files; the
// platform's side of a channel is chat.Channel. It is safe for concurrent use.
type ChannelDir struct {
	store   *Store
	adapter string
	id      string
	fs      confined.Dir // the channel's directory, for every file mom touches in it
	dir     string       // the same, as a host path

	mu        sync.Mutex
	released  bool
	dirsReady bool
	log       *jsonl.File
	journal   *jsonl.File // the run journal (runs.go), outside the workspace

	// sessMu serializes opening the session, which reads the whole file, without holding mu
	// so log appends are not held up meanwhile.
	sessMu sync.Mutex
	sess   *session.Session
}

// Key returns "adapter/id", the qualified channel name events and logs use.
func (c *ChannelDir) Key() string { return c.adapter + "/" + c.id }

// Adapter returns the name of the adapter the channel belongs to.
func (c *ChannelDir) Adapter() string { return c.adapter }

// ID returns the platform's id of the channel.
func (c *ChannelDir) ID() string { return c.id }

// Dir returns the channel directory's absolute path on the host, to name it (in messages,
// in the sandbox's view); files in it are reached through Files.
func (c *ChannelDir) Dir() string { return c.dir }

// Files returns the channel's directory as a confined.Dir, through which mom's own code
// reaches files there without following a link a command planted.
func (c *ChannelDir) Files() confined.Dir { return c.fs }

// Memory returns the channel's MEMORY.md, cut at MaxMemory bytes with a note saying so; ""
// if there is none.
func (c *ChannelDir) Memory() (string, error) {
	return readMemory(c.fs, "MEMORY.md")
}

// Session returns the channel's context.jsonl, opened on first use and kept open until the
// channel is released. Check its Recovered method: a file that could not be read was moved
// aside, and someone should hear about it.
func (c *ChannelDir) Session() (*session.Session, error) {
	c.sessMu.Lock()
	defer c.sessMu.Unlock()
	if err := c.ready(); err != nil {
		return nil, err
	}
	if c.sess != nil {
		return c.sess, nil
	}
	s, err := session.Open(c.fs, "context.jsonl", c.dir, session.WithFlusher(c.store.flusher))
	if err != nil {
		return nil, err
	}
	if backup := s.Recovered(); backup != "" {
		c.noteRecovered(backup)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.released { // released while the file was loading
		s.Close()
		return nil, c.releasedErr()
	}
	c.sess = s
	return s, nil
}

// CloseSession closes the channel's context.jsonl and lets go of the context it holds in
// memory, which the next Session reads again: a mom in many channels keeps only the contexts
// of the ones in use. The caller makes sure no run uses the session meanwhile.
func (c *ChannelDir) CloseSession() error {
	c.sessMu.Lock()
	defer c.sessMu.Unlock()
	c.mu.Lock()
	s := c.sess
	c.sess = nil
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	if err := s.Close(); err != nil {
		return fmt.Errorf("close the context of channel %s: %w", c.Key(), err)
	}
	return nil
}

// Create makes the channel's directory (and attachments/, scratch/, skills/ in it), so the
// channel exists before anything is said in it.
func (c *ChannelDir) Create() error { return c.ready() }

// ready makes sure the channel is usable and its directories exist.
func (c *ChannelDir) ready() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readyLocked()
}

func (c *ChannelDir) readyLocked() error {
	if c.released {
		return c.releasedErr()
	}
	if c.dirsReady {
		return nil
	}
	if err := c.fs.MkdirAll("", 0o755); err != nil {
		return fmt.Errorf("create the directory of channel %s: %w", c.Key(), err)
	}
	// A sub-directory a command replaced with a link stays refused, and only what uses it
	// fails (saying so); the channel's history goes on being written.
	for _, d := range []string{attachmentsDir, "scratch", "skills"} {
		c.fs.MkdirAll(d, 0o755)
	}
	c.dirsReady = true
	return nil
}

func (c *ChannelDir) releasedErr() error {
	return fmt.Errorf("channel %s was released or the store closed; get it from the store again", c.Key())
}

// close syncs and closes the channel's files and makes it unusable.
func (c *ChannelDir) close() error {
	c.sessMu.Lock()
	defer c.sessMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.released = true
	var errs []error
	if c.log != nil {
		c.store.flusher.Remove(c.log)
		errs = append(errs, c.log.Close())
		c.log = nil
	}
	if c.journal != nil {
		c.store.flusher.Remove(c.journal)
		errs = append(errs, c.journal.Close())
		c.journal = nil
	}
	if c.sess != nil {
		errs = append(errs, c.sess.Close())
		c.sess = nil
	}
	return errors.Join(errs...)
}

// NewSession sets the channel's context.jsonl aside as context.jsonl.<time> and starts an
// empty one (`/new`): the model starts afresh, while log.jsonl, the channel's history, stays
// as it is. It returns the new session and the old file's name. The caller makes sure no run
// uses the session meanwhile.
func (c *ChannelDir) NewSession() (*session.Session, string, error) {
	c.sessMu.Lock()
	defer c.sessMu.Unlock()
	if err := c.ready(); err != nil {
		return nil, "", err
	}
	c.mu.Lock()
	old := c.sess
	c.sess = nil
	c.mu.Unlock()
	if old != nil {
		if err := old.Close(); err != nil {
			return nil, "", fmt.Errorf("close the context of channel %s: %w", c.Key(), err)
		}
	}
	aside := "context.jsonl." + time.Now().UTC().Format("20060102T150405.000Z")
	if err := c.fs.Rename("context.jsonl", aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("set the context of channel %s aside: %w", c.Key(), err)
	}
	s, err := session.Open(c.fs, "context.jsonl", c.dir, session.WithFlusher(c.store.flusher))
	if err != nil {
		return nil, "", err
	}
	c.mu.Lock()
	c.sess = s
	c.mu.Unlock()
	return s, aside, nil
}
