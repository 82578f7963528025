package spend

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/llm"
)

// Dir is the ledger's directory in the data directory.
const Dir = "spend"

// Record is one line of the ledger: one model call.
type Record struct {
	At time.Time `json:"at"`
	// Adapter and Channel name the channel the call was made for; empty for a call made for
	// none.
	Adapter string `json:"adapter,omitempty"`
	Channel string `json:"channel,omitempty"`
	// User is the platform id of the person whose message started the run; WakeUp names the
	// wake-up file that started it instead.
	User   string `json:"user,omitempty"`
	WakeUp string `json:"wakeUp,omitempty"`
	// Provider and Model are the model's, as in context.jsonl.
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Usage is the call's tokens and cost in US dollars, in context.jsonl's shape.
	Usage llm.Usage `json:"usage"`
}

// tokens is every token of the call, cached or not.
func (r Record) tokens() int {
	return r.Usage.Input + r.Usage.Output + r.Usage.CacheRead + r.Usage.CacheWrite
}

// fileName is the ledger file of the month t falls in, in UTC.
func fileName(t time.Time) string {
	return t.UTC().Format("2006-01") + ".jsonl"
}

// Ledger is the record of every model call's cost, with running totals of the current days
// and months. It is safe for concurrent use.
type Ledger struct {
	dir     confined.Dir
	flusher *jsonl.Flusher
	// loaded is closed once the totals are summed from the files, and loadErr set if that
	// failed. Everything that reads or adds to the totals waits for it first.
	loaded  chan struct{}
	loadErr error

	mu     sync.Mutex
	file   *jsonl.File // the current month's, opened at the first Add
	name   string
	totals *totals
}

// Open opens the ledger in the data directory dataDir and sums the current day and month of
// each of zones (UTC when there are none) from its files, as of now. The files are read in
// the background, so that start-up does not wait for a long month's ledger; the first check,
// call recorded or report waits for them instead (Wait).
func Open(dataDir string, zones []*time.Location, now time.Time) *Ledger {
	l := &Ledger{dir: confined.Root(dataDir).Join(Dir), totals: newTotals(zones), loaded: make(chan struct{}),
		flusher: jsonl.NewFlusher(0)}
	earliest := now
	for _, z := range l.totals.zones {
		local := now.In(z)
		if start := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, z); start.Before(earliest) {
			earliest = start
		}
	}
	go func() {
		defer close(l.loaded)
		l.loadErr = l.load(earliest, now)
		l.totals.prune(now)
	}()
	return l
}

// Wait waits until the totals are summed from the files, and returns what went wrong reading
// them: the totals then count only the lines read before the problem.
func (l *Ledger) Wait() error {
	<-l.loaded
	return l.loadErr
}

// load sums the calls made from since to now. The files are read backwards, newest first,
// and only as far back as since: lines are appended in time order, so the rest of a file is
// older. Of the previous UTC month's file only the end is read, where a zone ahead of UTC
// has begun its month.
func (l *Ledger) load(since, now time.Time) error {
	for m := time.Date(now.UTC().Year(), now.UTC().Month(), 1, 0, 0, 0, 0, time.UTC); !m.Before(monthStartUTC(since)); m = m.AddDate(0, -1, 0) {
		name := fileName(m)
		st, err := l.dir.Stat(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read the ledger: %w", err)
		}
		_, err = jsonl.ScanBack(l.dir, name, st.Size(), func(line []byte, _, _ int64) error {
			var r Record
			if json.Unmarshal(line, &r) != nil || r.At.IsZero() {
				return jsonl.ErrSkip
			}
			if r.At.Before(since) {
				return jsonl.ErrStop
			}
			if !r.At.After(now) {
				l.totals.add(r)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read the ledger: %w", err)
		}
	}
	return nil
}

// monthStartUTC is the start of the UTC month t falls in.
func monthStartUTC(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Add writes r to the ledger, stamped with the time if it has none, and counts it. A line
// that could not be written is still counted: the money was spent.
func (l *Ledger) Add(r Record) error {
	return l.add(r, nil)
}

// add is Add, calling look, when not nil, with the totals just after r is counted: looking
// within the same lock tells each of two calls that end at once what it added.
func (l *Ledger) add(r Record, look func(get func(scope, period) Total)) error {
	<-l.loaded // lines appended while the files are read would be counted twice
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.At.IsZero() {
		r.At = time.Now()
	}
	r.At = r.At.UTC()
	if l.totals.add(r) {
		l.totals.prune(r.At)
	}
	if look != nil {
		look(l.totals.get)
	}
	f, err := l.fileFor(r.At)
	if err != nil {
		return err
	}
	if _, _, err := f.Append(r); err != nil {
		return fmt.Errorf("note a model call's cost in the ledger: %w", err)
	}
	return nil
}

// fileFor returns the file of t's month, opening it (and closing last month's) when the
// month changed.
func (l *Ledger) fileFor(t time.Time) (*jsonl.File, error) {
	name := fileName(t)
	if l.file != nil && l.name == name {
		return l.file, nil
	}
	if err := l.dir.MkdirAll("", 0o755); err != nil {
		return nil, fmt.Errorf("create the ledger's directory: %w", err)
	}
	f, err := jsonl.Open(l.dir, name)
	if err != nil {
		return nil, fmt.Errorf("open the ledger: %w", err)
	}
	if l.file != nil {
		l.flusher.Remove(l.file)
		_ = l.file.Close() // last month's lines are in the kernel; Close syncs them
	}
	l.flusher.Add(f)
	l.file, l.name = f, name
	return f, nil
}

// spent returns what the calls of s cost in p so far.
func (l *Ledger) spent(s scope, p period) Total {
	<-l.loaded
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.totals.get(s, p)
}

// Close flushes the ledger to disk and closes it.
func (l *Ledger) Close() error {
	<-l.loaded
	l.flusher.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}

// Read calls fn for every call in the ledger of the data directory dataDir made at or after
// since, month by month. Lines that do not parse are passed over. A data directory without a
// ledger has no calls.
func Read(dataDir string, since time.Time, fn func(Record) error) error {
	dir := confined.Root(dataDir).Join(Dir)
	entries, err := dir.ReadDir("")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the ledger: %w", err)
	}
	first := fileName(since)
	for _, e := range entries { // ReadDir sorts by name, which is by month
		name := e.Name()
		if !e.Type().IsRegular() || len(name) != len(first) || name < first || !monthFile(name) {
			continue
		}
		_, err := jsonl.Scan(dir, name, 0, func(line []byte, _, _ int64) error {
			var r Record
			if json.Unmarshal(line, &r) != nil || r.At.IsZero() {
				return jsonl.ErrSkip
			}
			if r.At.Before(since) {
				return nil
			}
			return fn(r)
		})
		if err != nil {
			return fmt.Errorf("read the ledger: %w", err)
		}
	}
	return nil
}

// monthFile reports whether name is a ledger file's: "2026-11.jsonl".
func monthFile(name string) bool {
	_, err := time.Parse("2006-01.jsonl", name)
	return err == nil
}
