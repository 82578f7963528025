package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/app"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/customtools"
	"github.com/mom-agent/mom/internal/visible"
)

// cmdCheck is `mom check <data-dir>`: validate config.json and print what would start, without
// connecting anywhere but to remote MCP servers, which are asked whether they answer. It exits
// 1 with the problem when the config is not valid.
func cmdCheck(args []string, std stdio) error {
	dir, fl, err := parseCommand("mom check", args, nil)
	if err != nil {
		return err
	}
	cfg, err := readConfig(filepath.Join(dir, config.FileName), fl)
	if err != nil {
		return err
	}
	if err := cfg.CheckServe(); err != nil {
		return err
	}
	// What the sandbox finds wrong in channel directories is for the running mom to log.
	quiet := slog.New(slog.DiscardHandler)
	if _, err := app.NewExecutor(context.Background(), &cfg.Sandbox, filepath.Join(dir, "workspace"), quiet, os.Getenv); err != nil {
		return err
	}
	platforms := adapter.Builtin()
	for _, ac := range cfg.Adapters {
		if _, err := platforms.Build(ac, adapterEnv(std, false)); err != nil {
			return err
		}
	}
	fmt.Fprintf(std.out, "%s is valid.\n\n%s", cfg.Path, cfg.Summary())
	// The tool folders are in the workspace, where commands in the sandbox write.
	fmt.Fprint(std.out, visible.Text(customtools.Summary(context.Background(), customtools.Options{
		DataDir: dir, Dirs: customtools.DefaultDirs(dir), Reserved: app.ReservedToolNames(), Environ: os.Environ(),
	})))
	if hint := cfg.MissingKeyHint(); hint != "" {
		fmt.Fprintf(std.out, "\nWarning: %s\n", hint)
	}
	for _, w := range cfg.AccessWarnings() {
		fmt.Fprintf(std.out, "\nWarning: %s\n", w)
	}
	return nil
}
