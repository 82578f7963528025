//go:build !unix

package customtools

import (
	"os"
	"os/exec"
)

// detach does nothing where there are no sessions.
func detach(cmd *exec.Cmd) {}

// ownGroup leaves cmd's default cancellation: its process is killed.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process; without process groups, what it started lives on.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil || cmd.ProcessState != nil {
		return nil
	}
	return cmd.Process.Kill()
}

// termGroup asks cmd's process to stop.
func termGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Signal(os.Interrupt)
}
