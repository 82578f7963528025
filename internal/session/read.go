package session

import (
	"encoding/json"

	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/llm"
)

// Context returns the messages the model sees, as pi's buildSessionContext and convertToLlm
// make them: the last compaction's summary, the entries it kept, everything after it, with
// branch summaries and custom messages turned into user messages. It is kept up to date as
// entries are appended, so calling it once per run costs nothing. The slice and the messages
// are shared and must not be modified.
func (s *Session) Context() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx[:len(s.ctx):len(s.ctx)]
}

// Entries returns the active branch, root first: what pi shows as the conversation. Entries
// of abandoned branches are left out.
func (s *Session) Entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Entry, len(s.branch))
	for k, i := range s.branch {
		out[k] = s.entries[i]
	}
	return out
}

// Len returns the number of entries on the active branch.
func (s *Session) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.branch)
}

// Leaf returns the id of the last entry of the active branch, which the next entry will name
// as its parent; "" for a session without entries.
func (s *Session) Leaf() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.branch) == 0 {
		return ""
	}
	return s.entries[s.branch[len(s.branch)-1]].ID
}

// LastCustom returns the data of the last custom entry of customType on the active branch.
// mom keeps its own state this way (such as its log.jsonl sync cursor). data is nil when the
// entry had none.
func (s *Session) LastCustom(customType string) (data json.RawMessage, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.custom[customType]
	if !ok {
		return nil, false
	}
	return s.entries[i].Data, true
}

// Header returns the file's header.
func (s *Session) Header() Header { return s.header }

// ID returns the session's UUID, from its header.
func (s *Session) ID() string { return s.header.ID }

// Path returns the file's path.
func (s *Session) Path() string { return s.path }

// Recovered returns the path an unreadable file was moved to when Open started a fresh
// session in its place, or "". Open logs nothing; its caller should say this out loud.
func (s *Session) Recovered() string { return s.recovered }

// Stats says what loading the file skipped: malformed lines, a torn last line.
func (s *Session) Stats() jsonl.Stats { return s.stats }

// Sync flushes appended entries to disk. Call it at the end of a run.
func (s *Session) Sync() error { return s.file.Sync() }

// Close syncs and closes the file. Reading still works afterwards; appending fails.
func (s *Session) Close() error {
	if s.flusher != nil {
		s.flusher.Remove(s.file)
	}
	return s.file.Close()
}
