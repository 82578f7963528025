package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
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
	// RunQueued is written when a person's trigger is taken (before the platform hears it
	// was received), whether its run starts at once or waits its turn.
	RunQueued = "queued"
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
	// Type is RunQueued, RunStart, RunStatus or RunEnd.
	Type string `json:"type"`
	// Run names the run the line is about: its trigger's id.
	Run string    `json:"run"`
	At  time.Time `json:"at"`
	// Trigger is the message the run answers, as logged (RunQueued, RunStart).
	Trigger *chat.Message `json:"trigger,omitempty"`
	// Attempt counts the runs of this trigger: 1 for the first, 2 for a run started again
	// after a restart (RunStart).
	Attempt int `json:"attempt,omitempty"`
	// LogEnd is the log offset just past the trigger (RunQueued, RunStart;
	// agent.Request.LogEnd).
	LogEnd int64 `json:"logEnd,omitempty"`
	// Status is the platform's id of the run's status message, and StatusAt where it was
	// posted (RunStatus; on a RunStart, the message a run started again reuses).
	Status   string      `json:"status,omitempty"`
	StatusAt *chat.Place `json:"statusAt,omitempty"`
	// Reason is how the run ended: a stop reason, or what was done with an interrupted run
	// (RunEnd).
	Reason string `json:"reason,omitempty"`
}

// UnfinishedRun is a run whose journal has no end: mom stopped, or was killed, while it went
// (Started) or while it waited its turn.
type UnfinishedRun struct {
	Adapter, ChannelID string
	// Start is the run's last start line, or its queued line if it never started: its
	// trigger, attempt and log offset.
	Start   RunEntry
	Started bool
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
	return s.hostFile(runsDir, adapter, channelID, ".jsonl")
}

// hostFile is the directory of an adapter's files of one kind (base: runs, approvals,
// state) in the data directory, outside the workspace, and the name of a channel's, which
// ends in ext.
func (s *Store) hostFile(base, adapter, channelID, ext string) (confined.Dir, string, error) {
	a, err := PathComponent(adapter)
	if err != nil {
		return confined.Dir{}, "", fmt.Errorf("adapter name %q: %w", adapter, err)
	}
	id, err := PathComponent(channelID)
	if err != nil {
		return confined.Dir{}, "", fmt.Errorf("channel id %q: %w", channelID, err)
	}
	return confined.Root(s.dataDir).Join(base, a), id + ext, nil
}

// UnfinishedRuns lists, channel after channel, the runs the journals had no end for at the
// moment until (when this mom started: what it wrote since is its own, and not yet
// finished): the runs a channel started and did not end, and then the runs queued since and
// never started, each channel's in the order of their triggers. Lines older than since are
// read only as far as needed to find the channel's last start. A zero until reads every line.
func (s *Store) UnfinishedRuns(since, until time.Time) ([]UnfinishedRun, error) {
	var out []UnfinishedRun
	err := s.eachJournal(runsDir, "run", func(adapter, id string, dir confined.Dir, file string) error {
		runs, err := unfinished(dir, file, since, until)
		for _, u := range runs {
			u.Adapter, u.ChannelID = adapter, id
			out = append(out, u)
		}
		return err
	})
	return out, err
}

// eachJournal calls fn for every channel's journal of one kind (base: runs, approvals; what
// names it in errors), adapter by adapter. A directory or file that names no channel is
// passed over; failures are joined, and the others still read.
func (s *Store) eachJournal(base, what string, fn func(adapter, id string, dir confined.Dir, file string) error) error {
	root := confined.Root(s.dataDir)
	adapters, err := root.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list the %s journals: %w", what, err)
	}
	var errs []error
	for _, ad := range adapters {
		adapter, err := ParsePathComponent(ad.Name())
		if !ad.IsDir() || err != nil {
			continue
		}
		files, err := root.ReadDir(base + "/" + ad.Name())
		if err != nil {
			errs = append(errs, fmt.Errorf("list the %s journals of %s: %w", what, adapter, err))
			continue
		}
		for _, f := range files {
			name, ok := strings.CutSuffix(f.Name(), ".jsonl")
			id, err := ParsePathComponent(name)
			if !ok || err != nil || !f.Type().IsRegular() {
				continue
			}
			if err := fn(adapter, id, root.Join(base, ad.Name()), f.Name()); err != nil {
				errs = append(errs, fmt.Errorf("read the %s journal of %s/%s: %w", what, adapter, id, err))
			}
		}
	}
	return errors.Join(errs...)
}

// unfinished reads one journal backwards. A channel's runs go one at a time, but one that a
// kill cut off is not always the last to start there: the next mom may have started a newer
// one (a mention it caught up on) before it got to the old one, and been killed in turn. So
// every start without an end counts, not only the last; queued runs wait in the order they
// were queued.
func unfinished(dir confined.Dir, name string, since, until time.Time) ([]UnfinishedRun, error) {
	st, err := dir.Stat(name)
	if err != nil {
		return nil, err
	}
	ended := map[string]bool{}
	seen := map[string]bool{}           // runs whose newest start, or newest queued line, was read
	status := map[string]RunEntry{}     // the newest status line of each run
	anyStart := false                   // a start has been read, ended or not
	var started, queued []UnfinishedRun // newest first
	_, err = jsonl.ScanBack(dir, name, st.Size(), func(line []byte, _, _ int64) error {
		var e RunEntry
		if err := json.Unmarshal(line, &e); err != nil {
			return jsonl.ErrSkip
		}
		if !until.IsZero() && !e.At.Before(until) {
			return nil
		}
		old := e.At.Before(since)
		if old && anyStart {
			return jsonl.ErrStop
		}
		switch e.Type {
		case RunEnd:
			ended[e.Run] = true
		case RunStatus:
			if _, ok := status[e.Run]; !ok {
				status[e.Run] = e
			}
		case RunStart:
			if !seen[e.Run] && !ended[e.Run] && e.Trigger != nil {
				u := UnfinishedRun{Start: e, Started: true, Status: e.Status, StatusAt: deref(e.StatusAt)}
				if st, ok := status[e.Run]; ok {
					u.Status, u.StatusAt = st.Status, deref(st.StatusAt)
				}
				started = append(started, u)
			}
			seen[e.Run], anyStart = true, true
		case RunQueued:
			if !old && !ended[e.Run] && !seen[e.Run] && e.Trigger != nil {
				seen[e.Run] = true // a trigger queued twice is still one run
				queued = append(queued, UnfinishedRun{Start: e})
			}
		}
		return nil
	})
	slices.Reverse(started)
	slices.Reverse(queued)
	out := append(started, queued...)
	slices.SortStableFunc(out, func(a, b UnfinishedRun) int { return a.Start.Trigger.TS.Compare(b.Start.Trigger.TS) })
	return out, err
}

func deref(p *chat.Place) chat.Place {
	if p == nil {
		return chat.Place{}
	}
	return *p
}
