package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
)

// runsDir is where the run journals are, in the data directory: beside the workspace, not in
// it, so that no command a run starts can read or forge what mom will do after a restart.
const runsDir = "runs"

// The kinds of line in a run journal.
const (
	// RunStart is written when a run starts, before its status message is posted.
	RunStart = "start"
	// RunStatus is written once the run's status message is on the platform.
	RunStatus = "status"
	// RunEnd is written when the run is over, however it ended.
	RunEnd = "end"
)

// RunEntry is one line of a channel's run journal: <data>/runs/<adapter>/<channel>.jsonl, an
// append-only file that says which runs started and which ended, so that a run mom was killed
// in the middle of can be finished at the next start-up (the README's "Restarts").
type RunEntry struct {
	// Type is RunStart, RunStatus or RunEnd.
	Type string `json:"type"`
	// Run names the run the line is about: its trigger's id.
	Run string    `json:"run"`
	At  time.Time `json:"at"`
	// Trigger is the message the run answers, as logged (RunStart).
	Trigger *chat.Message `json:"trigger,omitempty"`
	// Attempt counts the runs of this trigger: 1 for the first, 2 for a run started again
	// after a restart (RunStart).
	Attempt int `json:"attempt,omitempty"`
	// LogEnd is the log offset just past the trigger (RunStart; agent.Request.LogEnd).
	LogEnd int64 `json:"logEnd,omitempty"`
	// Status is the platform's id of the run's status message, and StatusAt where it was
	// posted (RunStatus; on a RunStart, the message a run started again reuses).
	Status   string      `json:"status,omitempty"`
	StatusAt *chat.Place `json:"statusAt,omitempty"`
	// Reason is how the run ended: a stop reason, or what was done with an interrupted run
	// (RunEnd).
	Reason string `json:"reason,omitempty"`
}

// UnfinishedRun is a run whose journal has a start and no end: mom stopped, or was killed,
// while it went.
type UnfinishedRun struct {
	Adapter, ChannelID string
	// Start is the run's last start line: its trigger, attempt and log offset.
	Start RunEntry
	// Status is the id of its status message on the platform, and StatusAt where it is; ""
	// when none was posted (or mom died before noting it).
	Status   string
	StatusAt chat.Place
}

// JournalRun appends e to the channel's run journal, stamping it with the time if it has
// none. When it returns nil the line is in the kernel: a crash of mom cannot lose it.
func (c *ChannelDir) JournalRun(e RunEntry) error {
	f, err := c.journalFile()
	if err != nil {
		return err
	}
	if e.At.IsZero() {
		e.At = time.Now()
	}
	e.At = e.At.UTC()
	if _, _, err := f.Append(e); err != nil {
		return fmt.Errorf("note a run of channel %s: %w", c.Key(), err)
	}
	return nil
}

func (c *ChannelDir) journalFile() (*jsonl.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.released {
		return nil, c.releasedErr()
	}
	if c.journal == nil {
		dir, name, err := c.store.journalPath(c.adapter, c.id)
		if err != nil {
			return nil, err
		}
		if err := dir.MkdirAll("", 0o755); err != nil {
			return nil, fmt.Errorf("create the run journals' directory: %w", err)
		}
		f, err := jsonl.Open(dir, name)
		if err != nil {
			return nil, err
		}
		c.store.flusher.Add(f)
		c.journal = f
	}
	return c.journal, nil
}

// journalPath is the directory of an adapter's run journals and the file name of a channel's.
func (s *Store) journalPath(adapter, channelID string) (confined.Dir, string, error) {
	a, err := PathComponent(adapter)
	if err != nil {
		return confined.Dir{}, "", fmt.Errorf("adapter name %q: %w", adapter, err)
	}
	id, err := PathComponent(channelID)
	if err != nil {
		return confined.Dir{}, "", fmt.Errorf("channel id %q: %w", channelID, err)
	}
	return confined.Root(s.dataDir).Join(runsDir, a), id + ".jsonl", nil
}

// UnfinishedRuns lists the runs every channel's journal started and did not end, one per
// channel at most (a channel has one run at a time), sorted by channel.
func (s *Store) UnfinishedRuns() ([]UnfinishedRun, error) {
	root := confined.Root(s.dataDir)
	adapters, err := root.ReadDir(runsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the run journals: %w", err)
	}
	var out []UnfinishedRun
	var errs []error
	for _, ad := range adapters {
		adapter, err := ParsePathComponent(ad.Name())
		if !ad.IsDir() || err != nil {
			continue
		}
		files, err := root.ReadDir(runsDir + "/" + ad.Name())
		if err != nil {
			errs = append(errs, fmt.Errorf("list the run journals of %s: %w", adapter, err))
			continue
		}
		for _, f := range files {
			base, ok := strings.CutSuffix(f.Name(), ".jsonl")
			id, err := ParsePathComponent(base)
			if !ok || err != nil || !f.Type().IsRegular() {
				continue
			}
			u, found, err := lastRun(root.Join(runsDir, ad.Name()), f.Name())
			if err != nil {
				errs = append(errs, fmt.Errorf("read the run journal of %s/%s: %w", adapter, id, err))
				continue
			}
			if found {
				u.Adapter, u.ChannelID = adapter, id
				out = append(out, u)
			}
		}
	}
	return out, errors.Join(errs...)
}

// lastRun reads a journal backwards to its last start and reports that run unless an end
// follows it. A channel's runs go one at a time, so its lines come run after run: start,
// status, end.
func lastRun(dir confined.Dir, name string) (u UnfinishedRun, found bool, err error) {
	st, err := dir.Stat(name)
	if err != nil {
		return u, false, err
	}
	var status *RunEntry
	_, err = jsonl.ScanBack(dir, name, st.Size(), func(line []byte, _, _ int64) error {
		var e RunEntry
		if err := json.Unmarshal(line, &e); err != nil {
			return jsonl.ErrSkip
		}
		switch e.Type {
		case RunEnd:
			return jsonl.ErrStop // the last run ended
		case RunStatus:
			if status == nil {
				status = &e
			}
		case RunStart:
			if e.Trigger == nil {
				return jsonl.ErrStop
			}
			u.Start, found = e, true
			// A run started again carries its status message over from the attempt before.
			u.Status, u.StatusAt = e.Status, deref(e.StatusAt)
			if status != nil && status.Run == e.Run {
				u.Status, u.StatusAt = status.Status, deref(status.StatusAt)
			}
			return jsonl.ErrStop
		}
		return nil
	})
	return u, found, err
}

func deref(p *chat.Place) chat.Place {
	if p == nil {
		return chat.Place{}
	}
	return *p
}
