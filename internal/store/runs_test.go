package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

func TestRunJournal(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	note := func(ch *ChannelDir, e RunEntry) {
		t.Helper()
		if err := ch.JournalRun(e); err != nil {
			t.Fatal(err)
		}
	}
	msg := func(id string) *chat.Message { return &chat.Message{ID: id, Text: "hi " + id} }

	// C1: a run that ended, then one that started, posted its status and was cut off.
	c1, _ := s.ChannelDir("team", "C1")
	note(c1, RunEntry{Type: RunStart, Run: "1", Trigger: msg("1"), Attempt: 1})
	note(c1, RunEntry{Type: RunStatus, Run: "1", Status: "S1"})
	note(c1, RunEntry{Type: RunEnd, Run: "1", Reason: "stop"})
	note(c1, RunEntry{Type: RunStart, Run: "2", Trigger: msg("2"), Attempt: 1, LogEnd: 42})
	note(c1, RunEntry{Type: RunStatus, Run: "2", Status: "S2", StatusAt: &chat.Place{ChannelID: "C1", ThreadOf: "T"}})
	// C2: every run ended.
	c2, _ := s.ChannelDir("team", "C2")
	note(c2, RunEntry{Type: RunStart, Run: "3", Trigger: msg("3"), Attempt: 1})
	note(c2, RunEntry{Type: RunEnd, Run: "3", Reason: "stop"})
	// C3 on another adapter: a run started again, cut off before it noted its status, so
	// the status carried over on its start line counts.
	c3, _ := s.ChannelDir("tg", "-100")
	note(c3, RunEntry{Type: RunStart, Run: "4", Trigger: msg("4"), Attempt: 1})
	note(c3, RunEntry{Type: RunStatus, Run: "4", Status: "S4"})
	note(c3, RunEntry{Type: RunStart, Run: "4", Trigger: msg("4"), Attempt: 2, Status: "S4", StatusAt: &chat.Place{ChannelID: "-100"}})

	got, err := s.UnfinishedRuns(time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Started || !got[1].Started {
		t.Fatalf("unfinished runs %+v, want C1's and -100's", got)
	}
	if u := got[0]; u.Adapter != "team" || u.ChannelID != "C1" || u.Start.Trigger.ID != "2" || u.Start.LogEnd != 42 ||
		u.Status != "S2" || u.StatusAt.ThreadOf != "T" || u.Start.Attempt != 1 {
		t.Errorf("C1: %+v", u)
	}
	if u := got[1]; u.Adapter != "tg" || u.ChannelID != "-100" || u.Start.Attempt != 2 || u.Status != "S4" || u.StatusAt.ChannelID != "-100" {
		t.Errorf("-100: %+v", u)
	}

	// The journal is outside the workspace, where commands cannot reach it.
	path := filepath.Join(s.DataDir(), "runs", "team", "C1.jsonl")
	data, err := os.ReadFile(path)
	if err != nil || strings.Count(string(data), "\n") != 5 {
		t.Errorf("%s: %v\n%s", path, err, data)
	}
	if strings.HasPrefix(path, s.Workspace()) {
		t.Errorf("the journal %s is in the workspace", path)
	}

	// Ending the run finishes it; a torn last line (a crash mid-write) is no line.
	note(c1, RunEntry{Type: RunEnd, Run: "2", Reason: "interrupted"})
	f, err := os.OpenFile(filepath.Join(s.DataDir(), "runs", "tg", "-100.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"end","run":"4"`)
	f.Close()
	got, err = s.UnfinishedRuns(time.Time{}, time.Time{})
	if err != nil || len(got) != 1 || got[0].ChannelID != "-100" {
		t.Errorf("after ending C1's run: %+v, %v", got, err)
	}
}

func TestUnfinishedRunsWithoutJournals(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	if got, err := s.UnfinishedRuns(time.Time{}, time.Time{}); err != nil || got != nil {
		t.Errorf("a new data directory: %+v, %v", got, err)
	}
}

// TestQueuedRuns: runs queued and never started are listed after the channel's last started
// run, in the order they were queued; ended or started ones, and ones queued before since,
// are not.
func TestQueuedRuns(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	ch, _ := s.ChannelDir("team", "C1")
	long := time.Now().Add(-time.Hour)
	for _, e := range []RunEntry{
		{Type: RunQueued, Run: "old", Trigger: &chat.Message{ID: "old"}, At: long},
		{Type: RunQueued, Run: "1", Trigger: &chat.Message{ID: "1"}},
		{Type: RunStart, Run: "1", Trigger: &chat.Message{ID: "1"}, Attempt: 1},
		{Type: RunQueued, Run: "2", Trigger: &chat.Message{ID: "2"}},
		{Type: RunQueued, Run: "3", Trigger: &chat.Message{ID: "3"}},
		{Type: RunQueued, Run: "4", Trigger: &chat.Message{ID: "4"}},
		{Type: RunEnd, Run: "1", Reason: "stop"},
		{Type: RunEnd, Run: "3", Reason: "stopped"},
		{Type: RunStart, Run: "2", Trigger: &chat.Message{ID: "2"}, Attempt: 1},
		{Type: RunQueued, Run: "5", Trigger: &chat.Message{ID: "5"}},
		// Written by the mom that reads the journal, after it started: not for it to resume.
		{Type: RunStart, Run: "5", Trigger: &chat.Message{ID: "5"}, Attempt: 1, At: time.Now().Add(time.Hour)},
	} {
		if err := ch.JournalRun(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.UnfinishedRuns(time.Now().Add(-time.Minute), time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range got {
		ids = append(ids, fmt.Sprintf("%s:%v", u.Start.Run, u.Started))
	}
	if strings.Join(ids, " ") != "2:true 4:false 5:false" {
		t.Errorf("unfinished %v, want the started 2, then 4 and 5 waiting", ids)
	}
}

// TestRunsOvertakenAreUnfinished: a run cut off by a kill and overtaken by a newer run of its
// channel (the next mom started one it caught up on first, and was killed too) is still
// unfinished, before the newer one, in the order of their triggers.
func TestRunsOvertakenAreUnfinished(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	ch, _ := s.ChannelDir("team", "C1")
	at := time.Now().Add(-time.Minute)
	msg := func(id string, ago time.Duration) *chat.Message { return &chat.Message{ID: id, TS: at.Add(-ago)} }
	for _, e := range []RunEntry{
		{Type: RunStart, Run: "cut", Trigger: msg("cut", 2*time.Second), Attempt: 1},
		{Type: RunStatus, Run: "cut", Status: "S1"},
		{Type: RunStart, Run: "done", Trigger: msg("done", time.Second), Attempt: 1},
		{Type: RunEnd, Run: "done", Reason: "stop"},
		{Type: RunStart, Run: "later", Trigger: msg("later", 0), Attempt: 1},
	} {
		if err := ch.JournalRun(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.UnfinishedRuns(time.Now().Add(-time.Hour), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range got {
		ids = append(ids, fmt.Sprintf("%s:%v:%s", u.Start.Run, u.Started, u.Status))
	}
	if strings.Join(ids, " ") != "cut:true:S1 later:true:" {
		t.Errorf("unfinished %v, want the run cut off and the later one", ids)
	}
}
