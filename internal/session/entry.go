package session

import (
	"encoding/json"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

// EntryType names the kind of an entry, as the "type" key of its line.
type EntryType string

// The entry types of pi's session format v3. mom writes message, compaction and custom; it
// reads and keeps the others (and types it has never heard of) so the tree stays whole.
const (
	TypeMessage             EntryType = "message"
	TypeCompaction          EntryType = "compaction"
	TypeCustom              EntryType = "custom"
	TypeBranchSummary       EntryType = "branch_summary"
	TypeCustomMessage       EntryType = "custom_message"
	TypeModelChange         EntryType = "model_change"
	TypeThinkingLevelChange EntryType = "thinking_level_change"
	TypeLabel               EntryType = "label"
	TypeSessionInfo         EntryType = "session_info"
)

// Entry is one line of the file after the header. Which fields are set depends on Type; the
// values are shared with the session and must be treated as read-only.
type Entry struct {
	Type     EntryType
	ID       string
	ParentID string // "" for the first entry (null in the file)
	Time     time.Time

	// Message is the message of a message entry whose role is user, assistant or toolResult.
	// Messages of pi's other roles (bashExecution, custom) leave it nil and keep Raw.
	Message *llm.Message

	Summary      string          // compaction, branch_summary
	FirstKeptID  string          // compaction: the first entry kept after the summary
	TokensBefore int             // compaction: context size before compacting
	FromID       string          // branch_summary: where the abandoned branch ended
	Details      json.RawMessage // compaction, branch_summary: optional extra data

	CustomType string          // custom, custom_message
	Data       json.RawMessage // custom: the extension's state (nil when absent)

	// Raw is the whole line for entries this package does not model field by field: every
	// type but message, compaction, branch_summary and custom, messages of other roles, and
	// known types whose fields did not parse. Keeping it keeps the entry in the tree.
	Raw json.RawMessage
}

// head is the part every entry line starts with.
type head struct {
	Type      EntryType `json:"type"`
	ID        string    `json:"id"`
	ParentID  *string   `json:"parentId"` // null for the first entry, so no omitempty
	Timestamp string    `json:"timestamp"`
}

type messageLine struct {
	head
	Message llm.Message `json:"message"`
}

type compactionLine struct {
	head
	Summary          string          `json:"summary"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	TokensBefore     int             `json:"tokensBefore"`
	Details          json.RawMessage `json:"details,omitempty"`
}

type customLine struct {
	head
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// lineJSON reads every modelled type in one pass; a line whose fields don't fit it (a newer
// pi, a hand edit) is read again as headOnly and kept raw.
type lineJSON struct {
	Type             EntryType       `json:"type"`
	ID               string          `json:"id"`
	ParentID         *string         `json:"parentId"`
	Timestamp        string          `json:"timestamp"`
	Message          *llm.Message    `json:"message"`
	Summary          string          `json:"summary"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	TokensBefore     int             `json:"tokensBefore"`
	FromID           string          `json:"fromId"`
	Details          json.RawMessage `json:"details"`
	CustomType       string          `json:"customType"`
	Data             json.RawMessage `json:"data"`
}

type headOnly struct {
	Type      EntryType `json:"type"`
	ID        string    `json:"id"`
	ParentID  *string   `json:"parentId"`
	Timestamp string    `json:"timestamp"`
}

// parseEntry reads one entry line. ok is false for a line that is not an entry at all (no
// type or id), which the loader skips as malformed.
func parseEntry(line []byte) (e Entry, ok bool) {
	var l lineJSON
	var err error
	if !decodeLine(line, &l) {
		// A separate variable, so that l stays on the stack on the fast path.
		var slow lineJSON
		err = json.Unmarshal(line, &slow)
		if llm.IsStringContent(err) {
			err = decodeStringContent(line, &slow)
		}
		l = slow
	}
	if err != nil {
		var h headOnly
		if json.Unmarshal(line, &h) != nil || h.Type == "" || h.ID == "" {
			return Entry{}, false
		}
		return Entry{Type: h.Type, ID: h.ID, ParentID: deref(h.ParentID), Time: parseTime(h.Timestamp),
			Raw: append(json.RawMessage(nil), line...)}, true
	}
	if l.Type == "" || l.ID == "" {
		return Entry{}, false
	}
	e = Entry{Type: l.Type, ID: l.ID, ParentID: deref(l.ParentID), Time: parseTime(l.Timestamp)}
	switch l.Type {
	case TypeMessage:
		if l.Message != nil && isLLMRole(l.Message.Role) {
			e.Message = l.Message
		} else {
			e.Raw = append(json.RawMessage(nil), line...)
		}
	case TypeCompaction:
		e.Summary, e.FirstKeptID, e.TokensBefore, e.Details = l.Summary, l.FirstKeptEntryID, l.TokensBefore, nilIfNull(l.Details)
	case TypeBranchSummary:
		e.Summary, e.FromID, e.Details = l.Summary, l.FromID, nilIfNull(l.Details)
	case TypeCustom:
		e.CustomType, e.Data = l.CustomType, nilIfNull(l.Data)
	default:
		e.CustomType = l.CustomType
		e.Raw = append(json.RawMessage(nil), line...)
	}
	return e, true
}

// decodeStringContent reads a line whose message content is a plain string, as pi writes
// some user messages.
func decodeStringContent(line []byte, l *lineJSON) error {
	var w struct {
		lineJSON
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(line, &w); err != nil {
		return err
	}
	m, err := llm.ParseMessage(w.Message)
	if err != nil {
		return err
	}
	*l = w.lineJSON
	l.Message = &m
	return nil
}

func isLLMRole(r llm.Role) bool {
	return r == llm.RoleUser || r == llm.RoleAssistant || r == llm.RoleToolResult
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func nilIfNull(r json.RawMessage) json.RawMessage {
	if len(r) == 0 || string(r) == "null" {
		return nil
	}
	return r
}
