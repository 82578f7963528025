package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/app"
	"github.com/mom-agent/mom/internal/config"
)

// loadConfig creates the data directory on first start, loads config.json and applies the
// command-line overrides.
func loadConfig(dir string, fl commonFlags, std stdio) (*config.Config, error) {
	parts := adapter.Builtin().Template()
	created, err := config.EnsureDir(dir, parts...)
	if err != nil {
		return nil, err
	}
	if created {
		fmt.Fprintln(std.err, config.TemplateWritten(filepath.Join(dir, config.FileName), parts...))
	}
	return readConfig(filepath.Join(dir, config.FileName), fl)
}

// readConfig loads a config file, applies the command-line overrides and resolves defaults
// that depend on the environment (the provider and its key).
func readConfig(path string, fl commonFlags) (*config.Config, error) {
	cfg, err := config.Load(path, adapter.Builtin().Config()...)
	if err != nil {
		return nil, err
	}
	if fl.model != "" {
		if err := cfg.ApplyModelFlag(fl.model); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if fl.sandbox != "" {
		if err := cfg.ApplySandboxFlag(fl.sandbox); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if err := cfg.Resolve(os.LookupEnv); err != nil {
		return nil, err
	}
	return cfg, nil
}

// open opens the data directory with mom's own environment (see app.Open).
func open(dir string, cfg *config.Config, log *slog.Logger, std stdio) (*app.App, error) {
	return app.Open(dir, cfg, app.Options{Log: log, Stderr: std.err})
}
