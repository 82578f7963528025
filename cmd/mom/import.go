package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/pimport"
)

// cmdImport is `mom import <old-dir> <data-dir> --adapter <name> [--merge]`: bring a data
// directory of pi's original mom over (package pimport), print what was done and what to do
// next. It exits 1 when a channel was refused or failed, after the summary.
func cmdImport(ctx context.Context, args []string, std stdio) error {
	var o pimport.Options
	flags := flag.NewFlagSet("mom import", flag.ContinueOnError)
	flags.StringVar(&o.Adapter, "adapter", "", "the adapter the channels go to, as named in config.json")
	flags.BoolVar(&o.Merge, "merge", false, "append to existing channels the old lines newer than their newest")
	pos, err := parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: mom import needs <old-data-dir> <data-dir> --adapter <name>", errUsage)
	}
	if o.Adapter == "" {
		return fmt.Errorf("%w: mom import needs --adapter: the adapter of config.json the channels go to, e.g. --adapter slack-acme", errUsage)
	}
	o.Old, o.Data = pos[0], pos[1]
	if o.AdapterType, err = adapterType(o.Data, o.Adapter); err != nil {
		return err
	}
	o.Home, _ = os.UserHomeDir()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := pimport.Run(ctx, o)
	if sum != nil {
		sum.Write(std.out)
	}
	if err != nil {
		return err
	}
	if n := sum.Problems(); n > 0 {
		fmt.Fprintf(std.err, "mom: %d of %d channels were not imported; the summary above says why\n", n, len(sum.Channels))
		return exitCode(1)
	}
	return nil
}

// adapterType is the type config.json gives the adapter, or "" when it has no such adapter.
// Without a config.json it is the one mom will write on its first start, whose web chat is
// called web: `mom import old ./data --adapter web` into a new directory makes web channels.
func adapterType(dataDir, name string) (string, error) {
	types, err := config.AdapterTypes(filepath.Join(dataDir, config.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		first := config.Template(adapter.Builtin().Template()...)
		types, err = config.ParseAdapterTypes([]byte(first), "the first-run config.json")
	}
	if err != nil {
		return "", err
	}
	return types[name], nil
}
