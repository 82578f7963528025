package store

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
)

// Store is an open data directory. It is safe for concurrent use.
type Store struct {
	dataDir   string
	workspace string
	log       *slog.Logger
	ws        confined.Dir // the workspace, for every file mom touches in it
	flusher   *jsonl.Flusher

	mu       sync.Mutex
	channels map[string]*ChannelDir // by adapter + "\x00" + id
	closed   bool

	// legacyLog makes the store say only once that it met a line of the original mom's
	// log format (see parseLine).
	legacyLog sync.Once
}

// Option configures Open.
type Option func(*options)

type options struct {
	flushInterval time.Duration
	log           *slog.Logger
}

// WithLog makes the store say, at level warn, when it sets aside a file a command put where
// one of mom's own files belongs (see ChannelDir.AppendLog). By default it says nothing.
func WithLog(l *slog.Logger) Option {
	return func(o *options) { o.log = l }
}

// WithFlushInterval sets how often appended lines are synced to disk in the background
// (default jsonl.DefaultFlushInterval): the most a power failure can lose.
func WithFlushInterval(d time.Duration) Option {
	return func(o *options) { o.flushInterval = d }
}

// Open opens the data directory at dataDir, creating the workspace's directories that are
// missing, and starts syncing files in the background. Close stops it.
func Open(dataDir string, opts ...Option) (*Store, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dataDir, err)
	}
	ws := filepath.Join(abs, "workspace")
	// The data directory is the owner's; the workspace below it is what commands write.
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create the data directory %s: %w", abs, err)
	}
	if err := confined.Root(abs).MkdirAll("workspace", 0o755); err != nil {
		return nil, fmt.Errorf("create the workspace in %s: %w", abs, err)
	}
	wsDir := confined.Root(ws)
	for _, d := range []string{"channels", "skills", "events"} {
		if err := wsDir.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("create the workspace in %s: %w", abs, err)
		}
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	return &Store{
		dataDir:   abs,
		workspace: ws,
		log:       o.log,
		ws:        wsDir,
		flusher:   jsonl.NewFlusher(o.flushInterval),
		channels:  make(map[string]*ChannelDir),
	}, nil
}

// DataDir returns the data directory's absolute path on the host.
func (s *Store) DataDir() string { return s.dataDir }

// Workspace returns the workspace's absolute path on the host: what the sandbox sees.
func (s *Store) Workspace() string { return s.workspace }

// WorkspaceDir returns the workspace as a confined.Dir: how code outside the store reaches
// files there (events, skills), never following a link a command planted.
func (s *Store) WorkspaceDir() confined.Dir { return s.ws }

// Memory returns the workspace's MEMORY.md, shared by every channel, cut at MaxMemory bytes
// with a note saying so; "" if there is none.
func (s *Store) Memory() (string, error) {
	return readMemory(s.ws, "MEMORY.md")
}

// ChannelDir returns the directory of the channel with the given platform id on the named
// adapter, the same *ChannelDir for the same pair until it is released. Nothing is created on
// disk until the channel is first written to.
func (s *Store) ChannelDir(adapter, channelID string) (*ChannelDir, error) {
	a, err := PathComponent(adapter)
	if err != nil {
		return nil, fmt.Errorf("adapter name %q: %w", adapter, err)
	}
	id, err := PathComponent(channelID)
	if err != nil {
		return nil, fmt.Errorf("channel id %q of adapter %s: %w", channelID, adapter, err)
	}
	key := adapter + "\x00" + channelID
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the store is closed")
	}
	if c, ok := s.channels[key]; ok {
		return c, nil
	}
	c := &ChannelDir{
		store: s, adapter: adapter, id: channelID,
		fs:  s.ws.Join("channels", a, id),
		dir: filepath.Join(s.workspace, "channels", a, id),
	}
	s.channels[key] = c
	return c, nil
}

// Release closes the files of a channel that has gone idle, so a hub with many channels
// keeps only the busy ones open. The *ChannelDir it had handed out stops working (its
// methods return an error); the next ChannelDir call opens a fresh one. Release a channel only
// when no run is using it.
func (s *Store) Release(adapter, channelID string) error {
	key := adapter + "\x00" + channelID
	s.mu.Lock()
	c, ok := s.channels[key]
	delete(s.channels, key)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return c.close()
}

// ChannelRef names a channel found on disk.
type ChannelRef struct {
	Adapter string
	ID      string
}

// Key returns "adapter/id", the qualified channel name events and logs use.
func (r ChannelRef) Key() string { return r.Adapter + "/" + r.ID }

// Channels lists the channels that have a directory, sorted. Directories whose names
// PathComponent would not have made, or had to shorten, are left out.
func (s *Store) Channels() ([]ChannelRef, error) {
	adapters, err := s.ws.ReadDir("channels")
	if err != nil {
		return nil, fmt.Errorf("list channels: %w", err)
	}
	var refs []ChannelRef
	for _, ad := range adapters {
		adapter, err := ParsePathComponent(ad.Name())
		if !ad.IsDir() || err != nil {
			continue
		}
		chans, err := s.ws.ReadDir("channels/" + ad.Name())
		if err != nil {
			return nil, fmt.Errorf("list channels of %s: %w", adapter, err)
		}
		for _, ch := range chans {
			if id, err := ParsePathComponent(ch.Name()); ch.IsDir() && err == nil {
				refs = append(refs, ChannelRef{Adapter: adapter, ID: id})
			}
		}
	}
	slices.SortFunc(refs, func(a, b ChannelRef) int {
		if c := strings.Compare(a.Adapter, b.Adapter); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return refs, nil
}

// Close syncs and closes every open file and stops the background syncing. The store cannot
// be used afterwards.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	chans := s.channels
	s.channels = nil
	s.mu.Unlock()
	var errs []error
	for _, c := range chans {
		errs = append(errs, c.close())
	}
	s.flusher.Close()
	return errors.Join(errs...)
}
