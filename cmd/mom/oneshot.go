package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/app"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
)

// cmdRun is `mom run <data-dir> -m "prompt"`: answer one prompt in a conversation and print
// the answer, for scripts and benchmarks. The exit status is 0 when the model answered, 1 when
// the run failed and 130 when it was interrupted.
func cmdRun(ctx context.Context, args []string, std stdio) error {
	var text, target string
	var yes bool
	dir, fl, err := parseCommand("mom run", args, func(fs *flag.FlagSet) {
		fs.StringVar(&text, "m", "", "the prompt")
		fs.StringVar(&target, "c", "run/local", "adapter/channel")
		fs.BoolVar(&yes, "yes", false, "run every command unasked, whatever \"approvals\" says")
	})
	if err != nil {
		return err
	}
	in := io.Reader(strings.NewReader(text))
	switch {
	case text == "-":
		in = std.in
	case strings.TrimSpace(text) == "":
		return fmt.Errorf("%w: mom run needs a prompt: -m \"...\" (or -m - to read stdin)", errUsage)
	}
	adapterName, channel, ok := strings.Cut(target, "/")
	if !ok || adapterName == "" || channel == "" {
		return fmt.Errorf("%w: -c must be adapter/channel, like run/local or team/C123", errUsage)
	}
	cfg, err := loadConfig(dir, fl, std)
	if err != nil {
		return err
	}
	if yes {
		cfg.Approvals.Mode = config.ApprovalsOff
		if ch, ok := cfg.Channels[target]; ok {
			ch.Approvals.Mode = config.ApprovalsOff
			cfg.Channels[target] = ch
		}
		if e, ok := cfg.AdapterEntry(adapterName); ok {
			e.Approvals.Mode = config.ApprovalsOff
		}
	}
	if hint := cfg.MissingKeyHint(); hint != "" {
		return errors.New(hint) // said once, before anything starts: the run could only fail
	}
	log, err := newLogger(std.err, fl.logLevel, slog.LevelWarn)
	if err != nil {
		return err
	}
	a, err := open(dir, cfg, log, std)
	if err != nil {
		return err
	}
	defer a.Shutdown()
	app.LogSandbox(log, cfg.Sandbox)

	env := adapterEnv(std, false)
	env.Stdin = in
	if text != "-" && std.inTTY {
		env.AskIn = std.in // the prompt came from -m: the terminal answers requests
	}
	term, p, err := adapter.Builtin().OneShot(adapterName, channel, env)
	if err != nil {
		return err
	}
	answer, ok := term.(oneShot)
	if !ok {
		return fmt.Errorf("the %s adapter cannot answer one prompt", p.Type)
	}
	ac := config.AdapterEntry{Name: adapterName, Type: p.Type, Platform: p, DM: config.DMPolicy{Everyone: true}, Busy: config.BusyQueue}
	if err := a.Hub.Register(term, ac); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := term.Start(ctx, a.Hub); err != nil {
		return err
	}
	select {
	case <-answer.Done():
	case <-sig:
		return exitCode(130)
	}
	go func() {
		<-sig
		a.Agent.Abort(adapterName + "/" + channel)
	}()
	_ = a.Hub.WaitIdle(ctx)
	switch answer.Outcome() {
	case llm.StopEnd, llm.StopLength, llm.StopToolUse:
		return nil
	case llm.StopAborted:
		return exitCode(130)
	case "":
		return errors.New("there was no prompt to answer: stdin was empty")
	}
	return exitCode(1)
}
