package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/mom-agent/mom/internal/compact"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/visible"
)

// cmdCompact is `mom compact <data-dir> <adapter>/<channel>`: summarize a channel's context
// now, as a running mom does by itself when the context fills up, and print what it did.
//
// It needs the data directory to itself. A running mom owns the channel's context.jsonl and
// may be appending to it; two writers would interleave their entries. So with a mom running
// it refuses and explains that the running one compacts by itself.
func cmdCompact(ctx context.Context, args []string, std stdio) error {
	cc, err := parseChannelCommand("compact", args, "terminal/local or team/C0123456789")
	if err != nil {
		return err
	}
	dir, target, cfg, fl := cc.dir, cc.target, cc.cfg, cc.fl
	log, err := newLogger(std.err, fl.logLevel, slog.LevelWarn)
	if err != nil {
		return err
	}
	a, err := open(dir, cfg, log, std)
	if errors.Is(err, store.ErrInUse) {
		return fmt.Errorf("%w\n(mom compact needs the data directory to itself. The running mom compacts each channel by itself when its context fills up; to compact by hand, stop it, run mom compact, and start it again.)", err)
	}
	if err != nil {
		return err
	}
	defer a.Shutdown()

	ch, err := storedChannelDir(a.Store, dir, target)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(std.err, "Compacting %s…\n", target)
	info, err := a.Agent.Compact(ctx, ch, "", "", nil)
	switch {
	case errors.Is(err, compact.ErrNothingToCompact):
		fmt.Fprintf(std.out, "%s: nothing to compact; the context is already only its newest messages.\n", target)
		return nil
	case err != nil:
		return fmt.Errorf("could not compact %s: %w", target, err)
	}
	fmt.Fprintf(std.out, "Compacted %s: about %s → %s tokens; kept the newest %d entries of context.jsonl, summarized the rest:\n\n%s\n",
		target, render.Tokens(info.TokensBefore), render.Tokens(info.TokensAfter), info.Kept, visible.Text(info.Summary))
	return nil
}
