//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Lock makes sure only one mom works on a data directory at a time: two processes appending
// to the same context.jsonl would interleave their conversations, two daemons would answer
// every message twice, and a command that links a device while mom runs would fight it over
// the device's store. The lock is released by release, or when the process exits, however it
// exits. A directory that is locked already gives an error that errors.Is finds as ErrInUse.
func Lock(dir string) (release func(), err error) {
	path := filepath.Join(dir, ".mom.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("could not lock the data directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid, _ := os.ReadFile(path)
		f.Close()
		holder := ""
		if p := strings.TrimSpace(string(pid)); p != "" {
			holder = " (process " + p + ")"
		}
		return nil, inUse{fmt.Sprintf("another mom is already using %s%s; stop it first, or use another data directory", dir, holder)}
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { f.Close() }, nil
}
