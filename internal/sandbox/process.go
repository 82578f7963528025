package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// defaultOrphanGrace is how long Run keeps reading output after the shell has exited (or been killed)
// while something else still holds the output pipe open: a background job started with `&`
// whose output was not redirected, or a process that escaped the group with setsid. It bounds
// the wait so such a process cannot hang a run; its remaining output is lost and its next write
// fails with SIGPIPE.
const defaultOrphanGrace = 2 * time.Second

// copyBufferSize is the read size of the output pipe. Larger reads mean fewer, bigger writes to
// Command.Output when a command is chatty.
const copyBufferSize = 64 << 10

// runProcess runs an unstarted cmd in its own process group with stdin on /dev/null and stdout
// and stderr going into one pipe, copied to out (may be nil) by a single goroutine so that out
// sees the bytes in the order they were written and never concurrently. When ctx ends or
// timeout (if non-zero) passes first, the whole process group is killed and the error wraps
// ctx.Err() or ErrTimeout. grace bounds the wait for output once the shell is gone (see
// defaultOrphanGrace). Host, docker and bwrap executors all run their commands through it;
// they differ only in how cmd is made. It closes cmd.ExtraFiles once cmd has started.
func runProcess(ctx context.Context, cmd *exec.Cmd, timeout, grace time.Duration, out io.Writer) (int, error) {
	if out == nil {
		out = io.Discard
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return -1, fmt.Errorf("cannot make the output pipe: %w", err)
	}
	cmd.Stdin = nil // exec connects /dev/null
	cmd.Stdout, cmd.Stderr = pw, pw
	detach(cmd)
	err = cmd.Start()
	// The child holds its own copies of the extra files (the bwrap executor's descriptors);
	// ours would only add up while commands run.
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		pr.Close()
		pw.Close()
		return -1, fmt.Errorf("cannot start %s: %w", cmd.Path, err)
	}
	// The child holds its own copy; ours must go so the reader sees EOF when the child is done.
	pw.Close()

	copied := make(chan struct{})
	go func() {
		defer close(copied)
		copyOutput(out, pr)
	}()
	exited := make(chan struct{}) // closed once cmd.ProcessState is set
	go func() {
		defer close(exited)
		// Stdout and stderr are *os.File, so Wait starts no copying goroutines of its own and
		// returns as soon as the shell has exited.
		cmd.Wait()
	}()

	runCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeoutCause(ctx, timeout, ErrTimeout)
		defer cancel()
	}

	stop := func() (int, error) {
		if err := killGroup(cmd.Process.Pid); err != nil {
			cmd.Process.Kill() // at least the shell, so Wait returns
		}
		<-exited
		drain(pr, copied, grace)
		return -1, stopError(ctx, runCtx, timeout)
	}
	select {
	case <-exited:
	case <-runCtx.Done():
		return stop()
	}
	// The shell is done. Usually so is its output; but a background job may still hold the
	// pipe, and then it gets grace to finish before we stop listening.
	select {
	case <-copied:
	default:
		timer := time.NewTimer(grace)
		defer timer.Stop()
		select {
		case <-copied:
		case <-timer.C:
		case <-runCtx.Done():
			return stop()
		}
	}
	pr.Close()
	<-copied
	return exitCode(cmd.ProcessState), nil
}

// drain waits for the copier to reach EOF, which after killGroup comes as soon as the killed
// processes are gone, but gives up after grace so a process outside the group that holds the
// pipe cannot keep the run alive. Closing our end unblocks the copier's read.
func drain(pr *os.File, copied <-chan struct{}, grace time.Duration) {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-copied:
	case <-timer.C:
	}
	pr.Close()
	<-copied
}

// copyOutput copies the pipe to out until EOF or until the pipe is closed. If out fails, the
// pipe is still read to the end so the command never blocks on a full pipe.
func copyOutput(out io.Writer, pr io.Reader) {
	buf := make([]byte, copyBufferSize)
	for {
		n, err := pr.Read(buf)
		if n > 0 && out != nil {
			if _, werr := out.Write(buf[:n]); werr != nil {
				out = nil
			}
		}
		if err != nil {
			return
		}
	}
}

// stopError says why a command was stopped early: the caller's ctx ended, or its timeout passed.
func stopError(ctx, runCtx context.Context, timeout time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("command stopped: %w", err)
	}
	if errors.Is(context.Cause(runCtx), ErrTimeout) {
		return fmt.Errorf("%w after %s", ErrTimeout, timeout)
	}
	return fmt.Errorf("command stopped: %w", runCtx.Err())
}
