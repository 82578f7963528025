//go:build unix

package customtools

import (
	"errors"
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own: one signal then reaches everything it starts, and
// nothing it runs can read mom's terminal.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// ownGroup detaches cmd (made with exec.CommandContext) and makes cancelling its context kill
// its whole group rather than only its first process.
func ownGroup(cmd *exec.Cmd) {
	detach(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills the process group cmd leads. A group that is already gone is not an error.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// termGroup asks the process group cmd leads to terminate (SIGTERM).
func termGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}
