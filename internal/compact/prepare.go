package compact

import (
	"errors"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
)

// ErrNothingToCompact says the context is already as small as a compaction would make it:
// everything in it is among the newest messages that are kept anyway.
var ErrNothingToCompact = errors.New("there is nothing to compact: the whole context is recent enough to keep")

// Plan is a compaction worked out but not yet summarized: what to summarize and what to keep.
type Plan struct {
	// Focus, when set, tells the summary what to keep above all (pi's custom instructions
	// to /compact); Prepare leaves it empty.
	Focus string
	// FirstKeptID is the id of the first entry kept, for the compaction entry.
	FirstKeptID string
	// Kept is how many entries of the branch are kept, from FirstKeptID to the end.
	Kept int
	// History are the messages the summary replaces, up to the cut or, when the cut splits a
	// turn, up to that turn's start.
	History []llm.Message
	// TurnPrefix is the beginning of a split turn, summarized on its own; nil otherwise.
	TurnPrefix []llm.Message
	// PreviousSummary is the summary of the last compaction, which the new one updates.
	PreviousSummary string
	// TokensBefore is the context's size now.
	TokensBefore int
	// Window is the model's context window, which the summary request must fit too.
	Window int

	files *fileOps
}

// Prepare plans a compaction of a session branch (root first) for a model with a context
// window of window tokens, pi's prepareCompaction. Only the current context is considered:
// the last compaction's summary and the entries it kept onwards. Those kept entries may be
// summarized this time, and the earlier summary is updated rather than summarized again. It
// returns ErrNothingToCompact when nothing would be summarized.
func Prepare(entries []session.Entry, s Settings, window int) (*Plan, error) {
	n := len(entries)
	if n == 0 || entries[n-1].Type == session.TypeCompaction {
		return nil, ErrNothingToCompact
	}
	prev := -1
	for i := n - 1; i >= 0; i-- {
		if entries[i].Type == session.TypeCompaction {
			prev = i
			break
		}
	}
	start := prev + 1
	p := &Plan{TokensBefore: ContextTokens(entries), Window: window, files: newFileOps()}
	if prev >= 0 {
		c := &entries[prev]
		p.PreviousSummary = c.Summary
		p.files.addDetails(c.Details)
		for i := range prev {
			if entries[i].ID == c.FirstKeptID {
				start = i
				break
			}
		}
	}
	cut := FindCutPoint(entries, start, n, s.keepFor(window))
	historyEnd := cut.FirstKept
	if cut.SplitTurn() {
		historyEnd = cut.TurnStart
		p.TurnPrefix = messages(entries[cut.TurnStart:cut.FirstKept])
	}
	p.History = messages(entries[start:historyEnd])
	if len(p.History) == 0 && len(p.TurnPrefix) == 0 {
		return nil, ErrNothingToCompact
	}
	p.FirstKeptID = entries[cut.FirstKept].ID
	p.Kept = n - cut.FirstKept
	p.files.addMessages(p.History)
	p.files.addMessages(p.TurnPrefix)
	return p, nil
}

// messages returns what the model sees of entries.
func messages(entries []session.Entry) []llm.Message {
	out := make([]llm.Message, 0, len(entries))
	for i := range entries {
		if m, ok := entries[i].AsMessage(); ok {
			out = append(out, m)
		}
	}
	return out
}
