//go:build !unix

package sandbox

import (
	"os"
	"os/exec"
)

// detach does nothing where process groups do not exist; killGroup then kills only the shell.
func detach(cmd *exec.Cmd) {}

// killGroup kills the process pid; without process groups its children may survive.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	return p.Kill()
}

// exitCode returns the process's exit code.
func exitCode(state *os.ProcessState) int { return state.ExitCode() }

// openNonblock is 0 where named pipes do not block an open.
const openNonblock = 0
