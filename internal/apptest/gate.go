package apptest

import (
	"os"
	"path/filepath"
	"testing"
)

// Gate is a shell command that blocks until the test releases it, so a run is reliably busy
// (running a tool) while the test does its next step.
type Gate struct {
	t                 testing.TB
	started, released string
}

// NewGate makes a gate whose files live in a directory of the test's own.
func NewGate(t testing.TB) Gate {
	dir := t.TempDir()
	return Gate{t: t, started: filepath.Join(dir, "started"), released: filepath.Join(dir, "released")}
}

// Command is the command to give the model's bash call: it notes that it started, then waits.
func (g Gate) Command() string {
	return "touch " + g.started + "; while [ ! -e " + g.released + " ]; do sleep 0.01; done; echo released"
}

// WaitStarted waits until the command runs.
func (g Gate) WaitStarted() { WaitForFile(g.t, g.started) }

// Release lets the command end.
func (g Gate) Release() {
	if err := os.WriteFile(g.released, nil, 0o644); err != nil {
		g.t.Fatal(err)
	}
}
