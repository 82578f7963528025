package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/store"
)

// activityName is the file, beside log.jsonl in each web channel's directory, that keeps
// what the page was shown of mom's work besides its answers: each run's start, tool steps
// (label, arguments, result, ✓/✗, time), retries, usage and outcome, and mom's short notes.
// log.jsonl has the words; this file has how they came about. A reload, a second device
// and `mom download` read both, so they show what the live page showed. It is append-only
// and written through package jsonl (so through package confined): a link or a FIFO in its
// place is refused, and a torn or forged line is skipped on reading.
const activityName = "activity.jsonl"

// Limits of reading activity.jsonl back, which commands in the sandbox can write to.
const (
	// maxActivityLines and maxActivityBytes bound what one history request reads of it.
	maxActivityLines = 20000
	maxActivityBytes = 32 << 20
)

// activityLine is one line of activity.jsonl: a frame as the browsers got it (without its
// channel, which the file's place says), where log.jsonl ended when it was sent, and when.
type activityLine struct {
	At int64     `json:"at"`
	TS time.Time `json:"ts"`
	frame
}

// recorded reports whether a frame of type typ goes into activity.jsonl. Text is in
// log.jsonl already, and messages are log lines themselves.
func recorded(typ string) bool {
	switch typ {
	case "run_start", "tool_start", "tool_end", "status", "run_end", "notice", "notice_edit", "notice_gone":
		return true
	}
	return false
}

// activity appends to the channels' activity.jsonl files, keeping each open once written.
type activity struct {
	mu     sync.Mutex // orders a line's offset and its writing, so lines are in log order
	files  map[string]*jsonl.File
	closed bool
}

func newActivity() *activity { return &activity{files: make(map[string]*jsonl.File)} }

// emit records f, when it is of a recorded kind, and sends it to the browsers.
func (a *Adapter) emit(f frame) {
	if recorded(f.Type) && f.Channel != "" && a.opts.Store != nil {
		if err := a.record(f); err != nil {
			a.log.Warn("the history after a reload will lack a step of the chat", "channel", f.Channel, "err", err)
		}
	}
	a.live.broadcast(f)
}

// record appends f to its channel's activity.jsonl. A run's start is placed where its frame
// says the run began in the log; anything else where the log ends now.
func (a *Adapter) record(f frame) error {
	ch, err := a.opts.Store.ChannelDir(a.opts.Name, f.Channel)
	if err != nil {
		return err
	}
	act := a.activity
	act.mu.Lock()
	defer act.mu.Unlock()
	if act.closed {
		return errors.New("the web chat is stopping")
	}
	file := act.files[f.Channel]
	if file == nil {
		if err := ch.Create(); err != nil {
			return err
		}
		if file, err = jsonl.Open(ch.Files(), activityName); err != nil {
			return fmt.Errorf("open %s of %s: %w", activityName, ch.Key(), err)
		}
		act.files[f.Channel] = file
	}
	at, err := ch.LogSize()
	if err != nil {
		return err
	}
	if f.Type == "run_start" && f.From != nil {
		at = *f.From
	}
	line := activityLine{At: at, TS: time.Now().UTC(), frame: f}
	if f.TS != nil {
		line.TS = *f.TS
	}
	line.Channel, line.frame.TS = "", nil
	_, _, err = file.Append(line)
	return err
}

// close closes the files; later records fail.
func (act *activity) close() error {
	act.mu.Lock()
	defer act.mu.Unlock()
	act.closed = true
	var errs []error
	for _, f := range act.files {
		errs = append(errs, f.Close())
	}
	act.files = nil
	return errors.Join(errs...)
}

// readActivity returns the lines of ch's activity.jsonl placed at log offset since or later,
// oldest first. It reads the file from its end, so a long-lived channel's history costs what
// its last page costs.
func readActivity(ch *store.ChannelDir, since int64) ([]activityLine, error) {
	st, err := ch.Files().Stat(activityName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s of %s: %w", activityName, ch.Key(), err)
	}
	var lines []activityLine
	bytes := 0
	_, err = jsonl.ScanBack(ch.Files(), activityName, st.Size(), func(b []byte, _, _ int64) error {
		var l activityLine
		if json.Unmarshal(b, &l) != nil || !recorded(l.Type) {
			return jsonl.ErrSkip
		}
		if l.At < since {
			return jsonl.ErrStop
		}
		bytes += len(b)
		if len(lines) == maxActivityLines || bytes > maxActivityBytes {
			return jsonl.ErrStop
		}
		lines = append(lines, l)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s of %s: %w", activityName, ch.Key(), err)
	}
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return lines, nil
}
