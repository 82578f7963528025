package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/customtools"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/llm/openai"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
)

// app is a started mom: config, storage, agent and hub, without adapters.
type app struct {
	dir   string
	cfg   *config.Config
	log   *slog.Logger
	store *store.Store
	agent *agent.Agent
	hub   *hub.Hub
	// custom runs the custom tools' MCP servers and watches their folders.
	custom *customtools.Registry

	unlock func()
}

// loadConfig creates the data directory on first start, loads config.json and applies the
// command-line overrides.
func loadConfig(dir string, fl commonFlags, std stdio) (*config.Config, error) {
	created, err := config.EnsureDir(dir)
	if err != nil {
		return nil, err
	}
	if created {
		fmt.Fprintln(std.err, config.TemplateWritten(filepath.Join(dir, config.FileName)))
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

// start opens the data directory and builds everything but the adapters.
func start(dir string, cfg *config.Config, log *slog.Logger, std stdio) (*app, error) {
	unlock, err := lockDataDir(dir)
	if err != nil {
		return nil, err
	}
	a := &app{dir: dir, cfg: cfg, log: log, unlock: unlock}
	if err := a.build(std); err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}

func (a *app) build(std stdio) error {
	st, err := store.Open(a.dir, store.WithLog(a.log))
	if err != nil {
		return err
	}
	a.store = st
	exec, err := newExecutor(context.Background(), &a.cfg.Sandbox, st.Workspace(), a.log)
	if err != nil {
		return err
	}
	m := a.cfg.Model
	model := llm.Lookup(m.Provider, m.ID)
	if m.ContextWindow > 0 {
		model.ContextWindow = m.ContextWindow
	}
	if !model.Known {
		a.log.Info("model not in the catalog: costs show as zero", "model", m.Provider+"/"+m.ID)
	}
	if err := a.startCustomTools(); err != nil {
		return err
	}
	hint := a.cfg.MissingKeyHint()
	var provider llm.Provider
	if hint != "" {
		fmt.Fprintln(std.err, hint)
	} else {
		provider = newProvider(m, a.log)
	}
	a.agent = agent.New(st, agent.Options{
		Provider: provider, NoProviderHint: hint, RefusedKeyHint: a.cfg.RefusedKeyHint(),
		Model: model, Thinking: llm.ThinkingLevel(m.Thinking),
		MaxTokens: m.MaxTokens, Exec: exec, Tools: tools.Builtin(), Logger: a.log,
		Custom: a.custom, CustomToolsDirect: a.cfg.CustomTools.Mode == config.CustomToolsDirect,
		Retry: agent.RetryPolicy{
			MaxRetries: a.cfg.Retry.MaxRetries, BaseDelay: a.cfg.Retry.BaseDelay, MaxDelay: a.cfg.Retry.MaxDelay,
		},
		Compaction:   agent.CompactionSettings(a.cfg.Compaction),
		PlatformName: adapter.Builtin().Name,
	})
	a.hub = hub.New(st, a.agent, a.log, hub.Options{MaxConcurrentRuns: a.cfg.MaxConcurrentRuns})
	return nil
}

// shutdown aborts runs, waits briefly for them to record how they ended, and flushes files.
func (a *app) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if a.hub != nil {
		if err := a.hub.Shutdown(ctx); err != nil {
			a.log.Warn("shutting down", "err", err)
		}
	}
	a.close()
}

func (a *app) close() {
	if a.custom != nil {
		a.custom.Stop()
		a.custom = nil
	}
	if a.store != nil {
		if err := a.store.Close(); err != nil {
			a.log.Error("could not flush files", "err", err)
		}
		a.store = nil
	}
	if a.unlock != nil {
		a.unlock()
		a.unlock = nil
	}
}

// startCustomTools loads the custom tools of <data>/tools and ~/.config/mom/tools and starts
// their MCP servers. They may not take the name of a built-in tool.
func (a *app) startCustomTools() error {
	dir, err := filepath.Abs(a.dir)
	if err != nil {
		return err
	}
	a.custom = customtools.New(customtools.Options{
		DataDir: dir, Reserved: reservedToolNames(), Timeout: a.cfg.CustomTools.Timeout,
		Environ: os.Environ(), Logger: a.log,
	})
	a.custom.Start(context.Background())
	return nil
}

func newProvider(m config.Model, log *slog.Logger) llm.Provider {
	if m.Provider == config.ProviderOpenAI {
		return openai.New(openai.Options{APIKey: m.APIKey, BaseURL: m.BaseURL, Logger: log})
	}
	return anthropic.New(anthropic.Options{APIKey: m.APIKey, BaseURL: m.BaseURL, Logger: log})
}
