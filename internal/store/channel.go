package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/session"
)

// Channel is one conversation's directory. It is safe for concurrent use.
type Channel struct {
	store   *Store
	adapter string
	id      string
	dir     string

	mu        sync.Mutex
	released  bool
	dirsReady bool
	log       *jsonl.File

	// sessMu serializes opening the session, which reads the whole file, without holding mu
	// so log appends are not held up meanwhile.
	sessMu sync.Mutex
	sess   *session.Session
}

// Key returns "adapter/id", the qualified channel name events and logs use.
func (c *Channel) Key() string { return c.adapter + "/" + c.id }

// Adapter returns the name of the adapter the channel belongs to.
func (c *Channel) Adapter() string { return c.adapter }

// ID returns the platform's id of the channel.
func (c *Channel) ID() string { return c.id }

// Dir returns the channel directory's absolute path on the host.
func (c *Channel) Dir() string { return c.dir }

// Memory returns the channel's MEMORY.md, cut at MaxMemory bytes with a note saying so; ""
// if there is none.
func (c *Channel) Memory() (string, error) {
	return readMemory(filepath.Join(c.dir, "MEMORY.md"))
}

// Session returns the channel's context.jsonl, opened on first use and kept open until the
// channel is released. Check its Recovered method: a file that could not be read was moved
// aside, and someone should hear about it.
func (c *Channel) Session() (*session.Session, error) {
	c.sessMu.Lock()
	defer c.sessMu.Unlock()
	if err := c.ready(); err != nil {
		return nil, err
	}
	if c.sess != nil {
		return c.sess, nil
	}
	s, err := session.Open(filepath.Join(c.dir, "context.jsonl"), c.dir, session.WithFlusher(c.store.flusher))
	if err != nil {
		return nil, err
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

// ready makes sure the channel is usable and its directories exist.
func (c *Channel) ready() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readyLocked()
}

func (c *Channel) readyLocked() error {
	if c.released {
		return c.releasedErr()
	}
	if c.dirsReady {
		return nil
	}
	for _, d := range []string{"attachments", "scratch", "skills"} {
		if err := os.MkdirAll(filepath.Join(c.dir, d), 0o755); err != nil {
			return fmt.Errorf("create the directory of channel %s: %w", c.Key(), err)
		}
	}
	c.dirsReady = true
	return nil
}

func (c *Channel) releasedErr() error {
	return fmt.Errorf("channel %s was released or the store closed; get it from the store again", c.Key())
}

// close syncs and closes the channel's files and makes it unusable.
func (c *Channel) close() error {
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
	if c.sess != nil {
		errs = append(errs, c.sess.Close())
		c.sess = nil
	}
	return errors.Join(errs...)
}
