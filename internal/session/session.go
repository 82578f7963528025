package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/llm"
)

// Session is one open context.jsonl. It is safe for concurrent use: one run appends while
// other goroutines may read.
type Session struct {
	dir       confined.Dir
	name      string // of the file in dir
	path      string // on the host, for messages
	header    Header
	recovered string
	stats     jsonl.Stats
	now       func() time.Time
	flusher   *jsonl.Flusher

	mu      sync.Mutex
	file    *jsonl.File
	entries []Entry        // every entry in file order
	byID    map[string]int // id → index in entries; a later duplicate wins, as in pi
	branch  []int          // indexes of the active branch, root first, leaf last
	custom  map[string]int // customType → index of its last custom entry on the branch
	ctx     []llm.Message  // Context(), kept up to date on append
}

// Option configures Open.
type Option func(*Session)

// WithFlusher registers the session's file with fl, which syncs it in the background, until
// Close.
func WithFlusher(fl *jsonl.Flusher) Option { return func(s *Session) { s.flusher = fl } }

// WithClock makes the session stamp entries with now() instead of the wall clock.
func WithClock(now func() time.Time) Option { return func(s *Session) { s.now = now } }

// Open loads the session file name in dir, or creates it (and dir) with a new header
// recording cwd. An existing file is never rewritten: its torn last line is ignored until the
// next append heals it, malformed lines are skipped (see Stats), and if its first line is not a
// version-3 header the file is moved to a backup (see Recovered) and a fresh session begins.
// dir is in the workspace, so a link or a special file in the file's place is refused (see
// package confined).
func Open(dir confined.Dir, name, cwd string, opts ...Option) (*Session, error) {
	s := &Session{dir: dir, name: name, path: filepath.Join(dir.Path(), filepath.FromSlash(name)),
		now: time.Now, byID: make(map[string]int), custom: make(map[string]int)}
	for _, o := range opts {
		o(s)
	}
	if err := dir.MkdirAll(path.Dir(name), 0o755); err != nil {
		return nil, fmt.Errorf("create the directory of %s: %w", s.path, err)
	}
	if err := s.load(cwd); err != nil {
		return nil, err
	}
	f, err := jsonl.Open(dir, name)
	if err != nil {
		return nil, err
	}
	s.file = f
	if s.flusher != nil {
		s.flusher.Add(f)
	}
	return s, nil
}

// errNoHeader stops the scan at a first line that is not a usable header.
var errNoHeader = errors.New("no session header")

// load reads the file, or creates it when it is missing, empty, or had to be moved aside.
func (s *Session) load(cwd string) error {
	st, err := s.dir.Stat(s.name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && st.Mode().IsRegular() && st.Size() == 0:
		// Nothing to lose: an empty file is replaced by the rename.
		s.header, err = createFile(s.dir, s.name, cwd, s.now())
		return err
	case err != nil:
		return fmt.Errorf("open session %s: %w", s.path, err)
	case !st.Mode().IsRegular():
		// A command put a link (or a pipe, a directory) in the file's place; mom never reads
		// through it. It is kept, renamed, for whoever wants to look.
		if s.recovered, err = moveAside(s.dir, s.name, "refused", s.now()); err != nil {
			return err
		}
		s.header, err = createFile(s.dir, s.name, cwd, s.now())
		return err
	}

	// A line of a conversation is a kilobyte or more on average (tool output makes it so):
	// sizing for that spares a long file's load most of the copying as the slice grows.
	if n := st.Size() / 1024; n > 16 {
		s.entries = make([]Entry, 0, min(n, 1<<20))
		s.byID = make(map[string]int, min(n, 1<<20))
	}
	why := "broken" // also the verdict for a file with no complete line
	first := true
	stats, err := jsonl.Scan(s.dir, s.name, 0, func(line []byte, _, _ int64) error {
		if first {
			first = false
			var h Header
			if h, why = headerProblem(line); why != "" {
				return errNoHeader
			}
			s.header = h
			return nil
		}
		e, ok := parseEntry(line)
		if !ok {
			return jsonl.ErrSkip
		}
		s.addLoaded(e)
		return nil
	})
	s.stats = stats
	if err != nil && !errors.Is(err, errNoHeader) {
		return fmt.Errorf("open session: %w", err)
	}
	if s.header.ID == "" {
		if s.recovered, err = moveAside(s.dir, s.name, why, s.now()); err != nil {
			return err
		}
		s.entries, s.byID, s.stats = nil, make(map[string]int), jsonl.Stats{}
		s.header, err = createFile(s.dir, s.name, cwd, s.now())
		return err
	}
	s.rebuild()
	return nil
}

func (s *Session) addLoaded(e Entry) {
	s.byID[e.ID] = len(s.entries)
	s.entries = append(s.entries, e)
}

// rebuild recomputes the active branch and everything derived from it, walking parentId back
// from the leaf (the last entry in file order) as pi does.
func (s *Session) rebuild() {
	s.branch = s.branch[:0]
	for i, steps := len(s.entries)-1, 0; i >= 0 && steps <= len(s.entries); steps++ {
		s.branch = append(s.branch, i)
		p := s.entries[i].ParentID
		if p == "" {
			break
		}
		next, ok := s.byID[p]
		if !ok {
			break // a parent that is not in the file ends the branch, as in pi
		}
		i = next
	}
	for l, r := 0, len(s.branch)-1; l < r; l, r = l+1, r-1 {
		s.branch[l], s.branch[r] = s.branch[r], s.branch[l]
	}
	clear(s.custom)
	for _, i := range s.branch {
		if e := &s.entries[i]; e.Type == TypeCustom {
			s.custom[e.CustomType] = i
		}
	}
	s.ctx = buildContext(s.entries, s.branch)
}

// AppendMessage appends a message entry. A zero m.Timestamp is set to the entry's time. m's
// content is kept, not copied, and must not be modified afterwards.
func (s *Session) AppendMessage(m llm.Message) (Entry, error) {
	if !isLLMRole(m.Role) {
		return Entry{}, fmt.Errorf("append to %s: a message needs the role user, assistant or toolResult, not %q", s.path, m.Role)
	}
	return s.append(Entry{Type: TypeMessage, Message: &m}, func(h head, e *Entry) any {
		if m.Timestamp == 0 {
			m.Timestamp = e.Time.UnixMilli()
		}
		return messageLine{h, m}
	})
}

// AppendCompaction appends a compaction entry: from now on the context starts with summary,
// followed by the entries from firstKeptID on. firstKeptID must name an entry of the active
// branch that is not a tool result, so a tool call is never separated from its result.
// details, if not nil, is stored as JSON (pi stores {readFiles, modifiedFiles}).
func (s *Session) AppendCompaction(summary, firstKeptID string, tokensBefore int, details any) (Entry, error) {
	d, err := marshalOptional(details)
	if err != nil {
		return Entry{}, fmt.Errorf("append a compaction to %s: details: %w", s.path, err)
	}
	e := Entry{Type: TypeCompaction, Summary: summary, FirstKeptID: firstKeptID, TokensBefore: tokensBefore, Details: d}
	return s.append(e, func(h head, e *Entry) any {
		return compactionLine{h, summary, firstKeptID, tokensBefore, d}
	})
}

// AppendCustom appends a custom entry: state of mom's own (such as how far log.jsonl has
// been synced) that pi keeps in the file but never shows the model. data, if not nil, is
// stored as JSON.
func (s *Session) AppendCustom(customType string, data any) (Entry, error) {
	if customType == "" {
		return Entry{}, fmt.Errorf("append to %s: a custom entry needs a customType", s.path)
	}
	d, err := marshalOptional(data)
	if err != nil {
		return Entry{}, fmt.Errorf("append a %q entry to %s: %w", customType, s.path, err)
	}
	return s.append(Entry{Type: TypeCustom, CustomType: customType, Data: d}, func(h head, e *Entry) any {
		return customLine{h, customType, d}
	})
}

// append gives e its id, parent and time, writes the line that line builds, and only then
// adds e to the session, so memory never holds an entry the file lacks.
func (s *Session) append(e Entry, line func(head, *Entry) any) (Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Type == TypeCompaction {
		if err := s.checkFirstKept(e.FirstKeptID); err != nil {
			return Entry{}, err
		}
	}
	e.ID = newEntryID(func(id string) bool { _, taken := s.byID[id]; return taken })
	if n := len(s.branch); n > 0 {
		e.ParentID = s.entries[s.branch[n-1]].ID
	}
	e.Time = s.now()
	h := head{Type: e.Type, ID: e.ID, Timestamp: formatTime(e.Time)}
	if e.ParentID != "" {
		h.ParentID = &e.ParentID
	}
	if _, _, err := s.file.Append(line(h, &e)); err != nil {
		return Entry{}, err
	}

	i := len(s.entries)
	s.entries = append(s.entries, e)
	s.byID[e.ID] = i
	s.branch = append(s.branch, i)
	switch e.Type {
	case TypeCustom:
		s.custom[e.CustomType] = i
	case TypeCompaction:
		s.ctx = buildContext(s.entries, s.branch)
	default:
		if m, ok := toLLM(&s.entries[i]); ok {
			s.ctx = append(s.ctx, m)
		}
	}
	return e, nil
}

func (s *Session) checkFirstKept(id string) error {
	i, ok := s.byID[id]
	if ok {
		for _, b := range s.branch {
			if b == i {
				if m := s.entries[i].Message; m != nil && m.Role == llm.RoleToolResult {
					return fmt.Errorf("append a compaction to %s: it would keep tool result %s without the call it answers", s.path, id)
				}
				return nil
			}
		}
	}
	return fmt.Errorf("append a compaction to %s: first kept entry %q is not in the conversation", s.path, id)
}

func marshalOptional(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return nilIfNull(b), nil
}
