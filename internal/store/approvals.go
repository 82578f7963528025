package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
)

// approvalsDir is where the approval journals are, in the data directory: beside the
// workspace, not in it, so that no command can grant itself an "allow always" or read who
// decided what.
const approvalsDir = "approvals"

// The kinds of line in an approval journal.
const (
	// ApprovalAsked is written when mom asks people whether a call may run.
	ApprovalAsked = "asked"
	// ApprovalPosted is written once the request is on the platform: where, and its id.
	ApprovalPosted = "posted"
	// ApprovalDecided is written when the request is answered, times out, is stopped or
	// is given up at a restart (Decision).
	ApprovalDecided = "decided"
	// ApprovalRevoked is written when someone removes an "allow always" (Key).
	ApprovalRevoked = "revoked"
)

// ApprovalEntry is one line of a channel's approval journal:
// <data>/approvals/<adapter>/<channel>.jsonl, append-only.
type ApprovalEntry struct {
	// Type is ApprovalAsked, ApprovalPosted, ApprovalDecided or ApprovalRevoked.
	Type string `json:"type"`
	// ID names the request the line is about.
	ID string    `json:"id,omitempty"`
	At time.Time `json:"at"`
	// Key is what an "allow always" remembers: the exact command, or the tool
	// (ApprovalAsked, ApprovalDecided, ApprovalRevoked).
	Key string `json:"key,omitempty"`
	// Subject is what was asked about, as people read it (ApprovalAsked).
	Subject string `json:"subject,omitempty"`
	// Run is the id of the trigger of the run that asked (ApprovalAsked).
	Run string `json:"run,omitempty"`
	// Message and MessageAt are the request's message on the platform (ApprovalPosted).
	Message   string      `json:"message,omitempty"`
	MessageAt *chat.Place `json:"messageAt,omitempty"`
	// Decision is how the request ended (ApprovalDecided): "allow", "always", "deny",
	// "timeout", "stopped" or "restart"; By is who decided, when a person did.
	Decision string     `json:"decision,omitempty"`
	By       *chat.User `json:"by,omitempty"`
}

// PendingApproval is a request that was asked and never decided: mom stopped or was killed
// while it waited.
type PendingApproval struct {
	Adapter, ChannelID string
	Asked              ApprovalEntry
	// Message is the request's id on the platform and MessageAt where it is; "" when it was
	// never posted.
	Message   string
	MessageAt chat.Place
}

// JournalApproval appends e to the channel's approval journal, stamping it with the time if
// it has none.
func (c *ChannelDir) JournalApproval(e ApprovalEntry) error {
	dir, name, err := c.store.approvalsPath(c.adapter, c.id)
	if err != nil {
		return err
	}
	if err := dir.MkdirAll("", 0o700); err != nil {
		return fmt.Errorf("create the approval journals' directory: %w", err)
	}
	if e.At.IsZero() {
		e.At = time.Now()
	}
	e.At = e.At.UTC()
	c.mu.Lock() // one writer per channel, so two decisions' lines never interleave
	defer c.mu.Unlock()
	f, err := jsonl.Open(dir, name)
	if err != nil {
		return err
	}
	_, _, err = f.Append(e)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("note an approval in channel %s: %w", c.Key(), err)
	}
	return nil
}

// Approvals returns every line of the channel's approval journal, oldest first; none when
// the channel has no journal yet.
func (c *ChannelDir) Approvals() ([]ApprovalEntry, error) {
	dir, name, err := c.store.approvalsPath(c.adapter, c.id)
	if err != nil {
		return nil, err
	}
	out, err := readApprovals(dir, name)
	if err != nil {
		return nil, fmt.Errorf("read the approval journal of %s: %w", c.Key(), err)
	}
	return out, nil
}

// readApprovals reads an approval journal; a missing one holds nothing, and a line that does
// not decode (torn by a crash) is passed over.
func readApprovals(dir confined.Dir, name string) ([]ApprovalEntry, error) {
	var out []ApprovalEntry
	_, err := jsonl.Scan(dir, name, 0, func(line []byte, _, _ int64) error {
		var e ApprovalEntry
		if json.Unmarshal(line, &e) == nil {
			out = append(out, e)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return out, err
}

// AllowedAlways returns the keys of the channel's standing "allow always" decisions that
// were not revoked, each with the line that granted it, oldest first.
func AllowedAlways(entries []ApprovalEntry) []ApprovalEntry {
	var out []ApprovalEntry
	for _, e := range entries {
		switch {
		case e.Type == ApprovalDecided && e.Decision == "always" && e.Key != "":
			out = removeKey(out, e.Key)
			out = append(out, e)
		case e.Type == ApprovalRevoked:
			out = removeKey(out, e.Key)
		}
	}
	return out
}

func removeKey(es []ApprovalEntry, key string) []ApprovalEntry {
	kept := es[:0]
	for _, e := range es {
		if e.Key != key {
			kept = append(kept, e)
		}
	}
	return kept
}

// approvalsPath is the directory of an adapter's approval journals and the file name of a
// channel's.
func (s *Store) approvalsPath(adapter, channelID string) (confined.Dir, string, error) {
	return s.hostFile(approvalsDir, adapter, channelID, ".jsonl")
}

// PendingApprovals lists the requests that the approval journals show asked and never
// decided, in every channel.
func (s *Store) PendingApprovals() ([]PendingApproval, error) {
	var out []PendingApproval
	err := s.eachJournal(approvalsDir, "approval", func(adapter, id string, dir confined.Dir, file string) error {
		entries, err := readApprovals(dir, file)
		out = append(out, pending(adapter, id, entries)...)
		return err
	})
	return out, err
}

// pending returns the requests of one journal that were never decided.
func pending(adapter, id string, entries []ApprovalEntry) []PendingApproval {
	open := map[string]*PendingApproval{}
	var order []string
	for _, e := range entries {
		switch e.Type {
		case ApprovalAsked:
			open[e.ID] = &PendingApproval{Adapter: adapter, ChannelID: id, Asked: e}
			order = append(order, e.ID)
		case ApprovalPosted:
			if p := open[e.ID]; p != nil {
				p.Message, p.MessageAt = e.Message, deref(e.MessageAt)
			}
		case ApprovalDecided:
			delete(open, e.ID)
		}
	}
	var out []PendingApproval
	for _, id := range order {
		if p := open[id]; p != nil {
			out = append(out, *p)
		}
	}
	return out
}
