package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// longTool scripts a model answer that runs a command which records its pid and sleeps, and
// returns where the pid is written.
func longTool(t *testing.T, w *world) string {
	pidFile := filepath.Join(t.TempDir(), "pid")
	w.llm.Enqueue(fakellm.Calls(fakellm.ToolCall{ID: "toolu_sleep", Name: "bash", Args: map[string]any{
		"label": "sleep", "command": "sleep 300 & echo $! > " + pidFile + "; wait"}}))
	return pidFile
}

// processGone waits until pid no longer exists (a hang guard bounds the wait).
func processGone(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	apptest.Eventually(t, fmt.Sprintf("the tool's process %d to end", pid), func() bool { return syscall.Kill(pid, 0) != nil })
}

// TestSIGTERMShutsDownCleanly: a run in progress is aborted, its command killed, the
// transcript stays valid, and mom exits 0.
func TestSIGTERMShutsDownCleanly(t *testing.T) {
	w := newWorld(t)
	pidFile := longTool(t, w)
	p := w.start()
	p.send("sleep for a while")
	apptest.WaitForFile(t, pidFile)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(); code != 0 {
		t.Fatalf("exit status %d after SIGTERM\n%s", code, p.err)
	}
	processGone(t, pidFile)
	lines := apptest.JSONLines(t, filepath.Join(w.channelDir("terminal", "local"), "context.jsonl"))
	last := lines[len(lines)-1]
	msg, _ := last["message"].(map[string]any)
	if msg["role"] != "toolResult" || msg["toolCallId"] != "toolu_sleep" || msg["isError"] != true {
		t.Errorf("the aborted call has no result as the last entry: %v", last)
	}
}

// TestCtrlCStopsTheRunThenQuits: the first SIGINT during a run stops the run and mom keeps
// going; the next one quits.
func TestCtrlCStopsTheRunThenQuits(t *testing.T) {
	w := newWorld(t)
	pidFile := longTool(t, w)
	p := w.start()
	p.send("sleep for a while")
	apptest.WaitForFile(t, pidFile)
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	p.waitFor("Stopped.")
	processGone(t, pidFile)
	w.llm.Enqueue(fakellm.Text("still here"))
	p.send("hello?")
	p.waitFor("still here")
	p.waitFor("↳ ", 2) // both runs are over: the next Ctrl-C finds nothing to stop
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(); code != 0 {
		t.Fatalf("exit status %d after the second Ctrl-C\n%s", code, p.err)
	}
}
