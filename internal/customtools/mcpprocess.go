package customtools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverProcess is a running MCP server and the pipes mom talks to it through. The pipes are
// plain files rather than exec's own, so that the process can be waited for without closing
// what is still to be read, and its exit is seen even while a call is in flight.
type serverProcess struct {
	cmd    *exec.Cmd
	stdin  *os.File // mom's end of the server's stdin
	stdout *os.File // mom's end of the server's stdout
	stderr *tail
	exited chan struct{} // closed once cmd.ProcessState is set
}

// startProcess starts cmd in a process group of its own, wired for stdio MCP.
func startProcess(cmd *exec.Cmd) (*serverProcess, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("cannot make a pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("cannot make a pipe: %w", err)
	}
	p := &serverProcess{cmd: cmd, stdin: inW, stdout: outR, stderr: &tail{keep: stderrKeep}, exited: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = waitDelay
	detach(cmd)
	err = cmd.Start()
	// The server holds its own copies of these ends now.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("cannot start %s: %w", cmd.Path, err)
	}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// transport speaks MCP over the process's stdin and stdout.
func (p *serverProcess) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: p.stdout, Writer: p.stdin}
}

// gone is closed when the process exits.
func (p *serverProcess) gone(context.Context, *mcp.ClientSession) <-chan struct{} { return p.exited }

// explain adds the server's last words on stderr.
func (p *serverProcess) explain(err error) error { return withStderr(err, p.stderr) }

// ended says how the process ended, or that it closed its connection without exiting.
func (p *serverProcess) ended(error) error {
	if p.waitExit(terminateWait) {
		return p.explain(fmt.Errorf("it exited (%s)", p.status()))
	}
	return p.explain(errors.New("it closed its connection"))
}

// close stops the process.
func (p *serverProcess) close() { p.terminate() }

// terminate stops the server as the MCP specification asks: close its stdin, give it time to
// exit, then SIGTERM, then SIGKILL, each to its whole process group.
func (p *serverProcess) terminate() {
	p.stdin.Close()
	if p.waitExit(terminateWait) {
		_ = killGroup(p.cmd) // what it started and left behind
		return
	}
	_ = termGroup(p.cmd)
	if !p.waitExit(terminateWait) {
		_ = killGroup(p.cmd)
		<-p.exited
	}
	_ = killGroup(p.cmd)
}

func (p *serverProcess) waitExit(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.exited:
		return true
	case <-timer.C:
		return false
	}
}

// status says how the process ended; call it only after exited is closed.
func (p *serverProcess) status() string {
	return p.cmd.ProcessState.String()
}
