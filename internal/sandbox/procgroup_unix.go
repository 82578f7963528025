//go:build unix

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own. The new session makes the command the leader of a
// new process group, so one signal reaches everything it starts (killGroup), and leaves it
// without a controlling terminal, so a program that opens /dev/tty to ask for a password (ssh,
// sudo) fails at once instead of stopping the whole group on SIGTTIN until the timeout.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroup sends SIGKILL to every process of the group led by pid. A group that is already
// gone is not an error.
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// exitCode turns a finished process's state into a shell-style exit code: a process ended by a
// signal reports 128+signal, as a shell would, instead of Go's -1.
func exitCode(state *os.ProcessState) int {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return state.ExitCode()
}

// openNonblock opens without waiting for a writer of a named pipe.
const openNonblock = syscall.O_NONBLOCK
