package compact

import (
	"encoding/json"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
)

// CutPoint is where a compaction cuts a branch: entries before FirstKept are summarized,
// FirstKept and everything after it stay word for word.
type CutPoint struct {
	// FirstKept is the index of the first entry kept.
	FirstKept int
	// TurnStart is the index of the message that began the turn FirstKept lies in, when the
	// cut falls inside that turn (a split turn); -1 when the cut is at a turn's start.
	TurnStart int
}

// SplitTurn reports whether the cut falls inside a turn, whose beginning then gets a summary
// of its own.
func (c CutPoint) SplitTurn() bool { return c.TurnStart >= 0 }

// FindCutPoint chooses where to cut entries[start:end], pi's findCutPoint: walking back from
// the newest entry it adds up the estimated tokens of messages until they reach keep, then
// cuts at the nearest place at or after that message where a cut is allowed (a user or
// assistant message, never a tool result, so a call is never separated from its result).
// When the newest turn alone is bigger than keep and has no such place (an answer followed by
// many tool results), it cuts at the last allowed place before it instead: keeping more than
// asked is better than compacting nothing (pi compacts nothing there). Entries that are not
// messages just before the cut (mom's log cursor, pi's model changes) are kept with it.
//
// When everything fits in keep, FirstKept is the first allowed place: nothing to summarize.
func FindCutPoint(entries []session.Entry, start, end, keep int) CutPoint {
	first := -1
	for i := start; i < end; i++ {
		if cuttable(&entries[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		return CutPoint{FirstKept: start, TurnStart: -1}
	}
	cut := first
	total := 0
	for i := end - 1; i >= start; i-- {
		m, ok := entries[i].AsMessage()
		if entries[i].Type != session.TypeMessage || !ok {
			continue
		}
		total += EstimateTokens(m)
		if total < keep {
			continue
		}
		cut = -1
		for c := i; c < end; c++ {
			if cuttable(&entries[c]) {
				cut = c
				break
			}
		}
		for c := i - 1; cut < 0 && c >= start; c-- {
			if cuttable(&entries[c]) {
				cut = c
			}
		}
		if cut < 0 {
			cut = first
		}
		break
	}
	for cut > start {
		t := entries[cut-1].Type
		if t == session.TypeMessage || t == session.TypeCompaction {
			break
		}
		cut--
	}
	if isUser(&entries[cut]) {
		return CutPoint{FirstKept: cut, TurnStart: -1}
	}
	turn := -1
	for i := cut; i >= start; i-- {
		if turnStart(&entries[i]) {
			turn = i
			break
		}
	}
	if turn == cut {
		turn = -1
	}
	return CutPoint{FirstKept: cut, TurnStart: turn}
}

// cuttable reports whether the context may start at e: a user or assistant message, or one
// of pi's entries that become user messages. Never a tool result.
func cuttable(e *session.Entry) bool {
	switch e.Type {
	case session.TypeBranchSummary, session.TypeCustomMessage:
		return true
	case session.TypeMessage:
		return role(e) != llm.RoleToolResult
	}
	return false
}

// turnStart reports whether e begins a turn: something a person said (pi also counts its
// "!" shell runs, extension messages and branch summaries).
func turnStart(e *session.Entry) bool {
	switch e.Type {
	case session.TypeBranchSummary, session.TypeCustomMessage:
		return true
	case session.TypeMessage:
		r := role(e)
		return r == llm.RoleUser || r == "bashExecution"
	}
	return false
}

func isUser(e *session.Entry) bool {
	return e.Type == session.TypeMessage && role(e) == llm.RoleUser
}

// role returns the role of a message entry, also of the roles only pi writes.
func role(e *session.Entry) llm.Role {
	if e.Message != nil {
		return e.Message.Role
	}
	var l struct {
		Message struct {
			Role llm.Role `json:"role"`
		} `json:"message"`
	}
	_ = json.Unmarshal(e.Raw, &l)
	return l.Message.Role
}
