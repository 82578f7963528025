package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mom-agent/mom/internal/adapter/cli"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
)

// cmdRun is `mom run <data-dir> -m "prompt"`: answer one prompt in a conversation and print
// the answer, for scripts and benchmarks. The exit status is 0 when the model answered, 1 when
// the run failed and 130 when it was interrupted.
func cmdRun(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("mom run", flag.ContinueOnError)
	var fl commonFlags
	fl.register(fs)
	prompt := fs.String("m", "", "the prompt")
	target := fs.String("c", "run/local", "adapter/channel")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	dir, err := dataDirArg(pos)
	if err != nil {
		return err
	}
	text := *prompt
	if text == "-" {
		b, err := io.readAll()
		if err != nil {
			return fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: mom run needs a prompt: -m \"...\" (or -m - to read stdin)", errUsage)
	}
	adapterName, channel, ok := strings.Cut(*target, "/")
	if !ok || adapterName == "" || channel == "" {
		return fmt.Errorf("%w: -c must be adapter/channel, like run/local or slack-acme/C123", errUsage)
	}
	cfg, err := loadConfig(dir, fl, io)
	if err != nil {
		return err
	}
	log, err := newLogger(io.err, fl.logLevel, slog.LevelWarn)
	if err != nil {
		return err
	}
	a, err := start(dir, cfg, log, io)
	if err != nil {
		return err
	}
	defer a.shutdown()

	term := cli.New(cli.Options{
		Name: adapterName, Channel: channel, In: strings.NewReader(text), Out: io.out, Progress: io.err,
		User: localUser(), OneShot: true,
	})
	ac := config.Adapter{Name: adapterName, Type: "cli", DM: config.DMPolicy{Everyone: true}, Busy: config.BusyQueue}
	if err := a.hub.Register(term, ac); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := term.Start(ctx, a.hub); err != nil {
		return err
	}
	select {
	case <-term.Done():
	case <-sig:
		return exitCode(130)
	}
	go func() {
		<-sig
		a.agent.Abort(adapterName + "/" + channel)
	}()
	_ = a.hub.WaitIdle(ctx)
	switch term.Outcome() {
	case llm.StopEnd, llm.StopLength, llm.StopToolUse:
		return nil
	case llm.StopAborted:
		return exitCode(130)
	}
	return exitCode(1)
}

func (io stdio) readAll() ([]byte, error) { return readAllLimit(io.in, 16<<20) }

// readAllLimit reads r to its end, refusing more than max bytes.
func readAllLimit(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, fmt.Errorf("the input is larger than %d MB", max>>20)
	}
	return b, err
}
