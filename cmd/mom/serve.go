package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"os/user"
	"sync"
	"syscall"
	"time"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/app"
	"github.com/mom-agent/mom/internal/chat"
)

// cmdServe is `mom <data-dir>`: start every configured adapter and run until told to stop.
func cmdServe(ctx context.Context, args []string, std stdio) error {
	collectForServing()
	dir, fl, err := parseCommand("mom", args, nil)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(dir, fl, std)
	if err != nil {
		return err
	}
	if err := cfg.CheckServe(); err != nil {
		return err
	}
	_, hasTerminal := cfg.Terminal()
	interactive := hasTerminal && std.inTTY
	defLevel := slog.LevelInfo
	if interactive {
		defLevel = slog.LevelWarn // the terminal is for the conversation
	}
	log, err := newLogger(std.err, fl.logLevel, defLevel)
	if err != nil {
		return err
	}
	// Signals are caught from here on, so a SIGTERM that arrives while adapters connect (or
	// just after "mom is running") shuts down cleanly instead of killing the process.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)

	a, err := open(dir, cfg, log, std)
	if err != nil {
		return err
	}
	defer a.Shutdown()
	app.LogSandbox(log, cfg.Sandbox)
	for _, w := range cfg.AccessWarnings() {
		log.Warn(w)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	connecting := abortOnSignal(cancel)
	adapters, err := a.Serve(ctx, adapterEnv(std, interactive))
	connecting()
	if err != nil {
		if ctx.Err() != nil {
			return nil // a signal ended the start-up
		}
		return err
	}
	go releaseWhenIdle(ctx, log, a.Hub.RestContexts)
	var terminal keyboard
	for _, ad := range adapters {
		if t, ok := ad.(keyboard); ok {
			terminal = t // config.CheckServe made sure there is one at most
		}
	}
	if interactive {
		fmt.Fprintf(std.err, "mom %s · %s/%s · type a message, Ctrl-C stops a run, Ctrl-D quits\n",
			versionString(), cfg.Model.Provider, cfg.Model.ID)
	}
	return wait(ctx, a, sig, terminal, len(adapters) == 1, std)
}

// abortOnSignal calls cancel when SIGINT or SIGTERM arrives before the returned function is
// called: an adapter that cannot connect (a network that never answers) must not make mom deaf
// to being stopped. The signal also reaches wait's channel, which is buffered.
func abortOnSignal(cancel context.CancelFunc) (done func()) {
	early := make(chan os.Signal, 1)
	signal.Notify(early, syscall.SIGINT, syscall.SIGTERM)
	finished := make(chan struct{})
	go func() {
		select {
		case <-early:
			cancel()
		case <-finished:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(early)
			close(finished)
		})
	}
}

// wait runs until SIGTERM, SIGINT (Ctrl-C stops a terminal run first; a second one quits),
// or the end of the terminal's input when the terminal is the only adapter.
func wait(ctx context.Context, a *app.App, sig <-chan os.Signal, terminal keyboard, terminalOnly bool, std stdio) error {
	var inputDone <-chan struct{}
	var termKey string
	if terminal != nil {
		inputDone = terminal.Done()
		termKey = terminal.Name() + "/" + terminal.Conversation()
	}
	var lastInterrupt time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case s := <-sig:
			if s == syscall.SIGINT && terminal != nil && a.Agent.IsRunning(termKey) && time.Since(lastInterrupt) > 3*time.Second {
				lastInterrupt = time.Now()
				a.Agent.Abort(termKey)
				fmt.Fprintln(std.err, "\n(stopping the run; press Ctrl-C again to quit)")
				continue
			}
			a.Log.Info("shutting down", "signal", s.String())
			return nil
		case <-inputDone:
			inputDone = nil
			// The end of messages typed or piped in means quit; an input that was empty
			// from the start (a service's /dev/null, Ctrl-D before any message) leaves the
			// other adapters running.
			if !terminalOnly && !terminal.Heard() {
				a.Log.Info("terminal input ended; the other adapters keep running")
				if std.inTTY {
					fmt.Fprintln(std.err, "(the terminal's input ended; the other adapters keep running, Ctrl-C quits)")
				}
				continue
			}
			// Answer everything that was sent before leaving.
			_ = waitIdleOrSignal(a, sig)
			return nil
		}
	}
}

// waitIdleOrSignal waits for the runs in progress to finish, or for a signal to give up.
func waitIdleOrSignal(a *app.App, sig <-chan os.Signal) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-sig:
			cancel()
		case <-ctx.Done():
		}
	}()
	return a.Hub.WaitIdle(ctx)
}

// adapterEnv is what every adapter is built with: mom's standard streams, and the person at
// the keyboard. interactive says mom talks with someone at a terminal; the terminal chat draws
// for them when its output is a terminal too. `mom check` builds adapters with no more than
// this, as it only checks their settings.
func adapterEnv(std stdio, interactive bool) adapter.Env {
	return adapter.Env{
		Stdin: std.in, Stdout: std.out, Stderr: std.err,
		Interactive: interactive && std.outTTY, LocalUser: localUser(),
	}
}

// localUser is the person at the terminal, named after their login.
func localUser() chat.User {
	name := os.Getenv("USER")
	if u, err := user.Current(); err == nil && name == "" {
		name = u.Username
	}
	if name == "" {
		name = "user"
	}
	return chat.User{ID: name, Username: name}
}
