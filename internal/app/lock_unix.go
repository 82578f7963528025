//go:build unix

package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockDataDir makes sure only one mom works on a data directory at a time: two processes
// appending to the same context.jsonl would interleave their conversations, and two daemons
// would answer every message twice. The lock is released when the process exits, however it
// exits.
func lockDataDir(dir string) (release func(), err error) {
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

// inUse is the lock's refusal, worded for people; errors.Is(err, ErrInUse) finds it.
type inUse struct{ msg string }

func (e inUse) Error() string        { return e.msg }
func (e inUse) Is(target error) bool { return target == ErrInUse }
