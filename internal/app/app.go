// Package app is a working mom on one data directory: the store, the sandbox, the agent and
// the hub (Open), and for a serving mom the adapters built through the platform registry, the
// health checks and the wake-up watcher (Serve). cmd/mom wraps it in flags, signals and the
// terminal's keyboard; tests start it in-process against the platforms' fakes.
package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/customtools"
	"github.com/mom-agent/mom/internal/events"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/llm/openai"
	"github.com/mom-agent/mom/internal/metrics"
	"github.com/mom-agent/mom/internal/spend"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
	"github.com/mom-agent/mom/internal/transcribe"
)

// Options are what an App is opened with besides its data directory and config.
type Options struct {
	// Log receives what mom has to say while it works; nil discards it.
	Log *slog.Logger
	// Stderr hears the hint printed when the model has no API key; nil discards it.
	Stderr io.Writer
	// Getenv reads mom's environment (MOM_SANDBOX, MOM_APPROVALS); nil means os.Getenv.
	Getenv func(string) string
	// Environ is mom's environment in os.Environ() form, from which custom tools get what the
	// sandbox allows; nil means os.Environ().
	Environ []string
	// Platforms builds the adapters; nil means adapter.Builtin(). Tests give a registry whose
	// platform talks to a fake in-process, where the platform's service cannot be faked on the
	// network.
	Platforms *adapter.Registry
}

// App is an opened mom. Its fields are set by Open and not changed after.
type App struct {
	// Dir is the data directory, and Config its config.json, resolved.
	Dir    string
	Config *config.Config
	Log    *slog.Logger
	Store  *store.Store
	Agent  *agent.Agent
	Hub    *hub.Hub
	// Metrics counts what mom does, for GET /metrics.
	Metrics *metrics.Metrics
	// Spend checks every model call against config.json's "limits" and records its cost in
	// the ledger (<data>/spend); its CostReport answers /cost.
	Spend *spend.Guard
	// Platforms is the registry the adapters are built through.
	Platforms *adapter.Registry

	// custom runs the custom tools' MCP servers and watches their folders.
	custom *customtools.Registry
	// ledger is Spend's, closed with the app.
	ledger *spend.Ledger
	unlock func()
	// stops undoes Serve, last step first.
	stops []func()
	// started is when Open was called: wake-up files older than it are stale.
	started time.Time
}

// Open locks the data directory (store.ErrInUse when another mom has it) and builds
// everything but the adapters: the store, the sandbox, the custom tools, the agent and the
// hub. Shutdown releases it all.
func Open(dir string, cfg *config.Config, opts Options) (*App, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	if opts.Platforms == nil {
		opts.Platforms = adapter.Builtin()
	}
	started := time.Now()
	unlock, err := store.Lock(dir)
	if err != nil {
		return nil, err
	}
	a := &App{Dir: dir, Config: cfg, Log: opts.Log, Platforms: opts.Platforms, unlock: unlock, started: started}
	if err := a.build(opts); err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(opts Options) error {
	st, err := store.Open(a.Dir, store.WithLog(a.Log))
	if err != nil {
		return err
	}
	a.Store = st
	warnOldLayout(a.Dir, st.WorkspaceDir(), a.Log)
	a.Metrics = metrics.New(metrics.Options{Token: a.Config.Metrics.Token, PerChannel: a.Config.Metrics.PerChannel})
	exec, err := NewExecutor(context.Background(), &a.Config.Sandbox, st.Workspace(), a.Log, opts.Getenv)
	if err != nil {
		return err
	}
	m := a.Config.Model
	model := a.catalogModel(config.DefaultModelName, m)
	if err := a.startCustomTools(opts.Environ); err != nil {
		return err
	}
	a.openLedger()
	hint := a.Config.MissingKeyHint()
	var provider llm.Provider
	if hint != "" {
		fmt.Fprintln(opts.Stderr, hint)
	} else {
		provider = a.provider(m)
	}
	a.Agent = agent.New(st, agent.Options{
		Provider: provider, NoProviderHint: hint, RefusedKeyHint: a.Config.RefusedKeyHint(), Models: a.namedModels(),
		Model: model, Thinking: llm.ThinkingLevel(m.Thinking),
		MaxTokens: m.MaxTokens, Exec: exec, Tools: tools.Builtin(), Logger: a.Log,
		Custom: a.custom, CustomToolsDirect: a.Config.CustomTools.Mode == config.CustomToolsDirect,
		Retry: agent.RetryPolicy{
			MaxRetries: a.Config.Retry.MaxRetries, BaseDelay: a.Config.Retry.BaseDelay, MaxDelay: a.Config.Retry.MaxDelay,
		},
		Compaction:   agent.CompactionSettings(a.Config.Compaction),
		PlatformName: a.Platforms.Name,
	})
	if err := applyApprovalsEnv(&a.Config.Approvals, opts.Getenv); err != nil {
		return err
	}
	a.Hub = hub.New(st, a.Agent, a.Log, hub.Options{
		MaxConcurrentRuns: a.Config.MaxConcurrentRuns, ResumeWithin: a.Config.Resume.Within,
		Approvals: a.Config.ApprovalsFor, Sandbox: a.Config.Sandbox.Type, ModelFor: a.Config.ModelFor,
		Cost: func(adapter, channel, user string) string {
			return a.Spend.CostReport(adapter, channel, user, time.Now())
		},
		Observer: a.Metrics, Transcriber: a.transcriber(),
	})
	a.Metrics.WatchLoad(func() metrics.Load {
		l := a.Hub.Load()
		return metrics.Load{Running: l.Running, WaitingForSlot: l.WaitingForSlot, Queued: l.Queued}
	})
	return nil
}

// Serve builds every adapter of the config through the platform registry, registers it with
// the hub, starts the health checks, connects the adapters one after the other and starts
// watching the wake-up files of workspace/events. It returns the adapters, in the config's
// order, once all of them are connected; cancelling ctx gives up connecting and stops them.
// env is what the adapters are built with; Serve fills in its Store, Log and Adapters.
func (a *App) Serve(ctx context.Context, env adapter.Env) ([]chat.Adapter, error) {
	cfg := a.Config
	names := make([]string, len(cfg.Adapters))
	for i, ac := range cfg.Adapters {
		names[i] = ac.Name
	}
	env.Store, env.Log, env.Adapters = a.Store, a.Log, names
	var adapters []chat.Adapter
	for _, ac := range cfg.Adapters {
		ad, err := a.Platforms.Build(ac, env)
		if err != nil {
			return nil, err
		}
		if err := a.Hub.Register(ad, ac); err != nil {
			return nil, err
		}
		adapters = append(adapters, ad)
	}
	checks, served := newHealthChecks(adapters, a.Metrics)
	stopHealth, err := serveHealth(ctx, cfg, served, a.Log)
	if err != nil {
		return nil, err
	}
	a.stops = append(a.stops, stopHealth)
	started := time.Now()
	for _, ad := range adapters {
		if err := ad.Start(ctx, a.Hub); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("adapter %s: %w", ad.Name(), err)
		}
		a.stops = append(a.stops, func() { stopAdapter(ad, a.Log) })
		checks.Started(ad.Name())
		a.Hub.Resume(ctx, ad.Name())
	}
	showLinkCodes(adapters, a.Log)
	watchCtx, stopWatching := context.WithCancel(context.Background())
	a.stops = append(a.stops, stopWatching)
	a.Metrics.WatchConnections(watchCtx, checks, names)
	watcher := events.NewWatcher(events.Options{
		Dir: a.Store.WorkspaceDir().Join("events"), Adapters: names, Hub: a.Metrics.WakeUps(a.Hub), Log: a.Log,
		Started: a.started, CatchUpWithin: cfg.Resume.Within,
	})
	if err := watcher.Start(ctx); err != nil {
		return nil, err
	}
	a.stops = append(a.stops, watcher.Stop)
	a.Log.Info("mom is running", "adapters", len(adapters), "maxConcurrentRuns", cfg.MaxConcurrentRuns, "startup", time.Since(started).Round(time.Microsecond))
	return adapters, nil
}

// Shutdown undoes Serve (the watcher, then the adapters in reverse, then the health checks),
// aborts runs, waits briefly for them to record how they ended, and flushes files.
func (a *App) Shutdown() {
	for i := len(a.stops) - 1; i >= 0; i-- {
		a.stops[i]()
	}
	a.stops = nil
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if a.Hub != nil {
		if err := a.Hub.Shutdown(ctx); err != nil {
			a.Log.Warn("shutting down", "err", err)
		}
	}
	a.close()
}

func (a *App) close() {
	if a.unlock == nil {
		return // closed already
	}
	if a.custom != nil {
		a.custom.Stop()
		a.custom = nil
	}
	if a.ledger != nil {
		if err := a.ledger.Close(); err != nil {
			a.Log.Error("could not flush the spending ledger", "err", err)
		}
		a.ledger = nil
	}
	if a.Store != nil {
		if err := a.Store.Close(); err != nil {
			a.Log.Error("could not flush files", "err", err)
		}
	}
	if a.unlock != nil {
		a.unlock()
		a.unlock = nil
	}
}

// stopAdapter gives an adapter a few seconds to say goodbye to its platform.
func stopAdapter(ad chat.Adapter, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ad.Stop(ctx); err != nil {
		log.Warn("could not stop adapter", "adapter", ad.Name(), "err", err)
	}
}

// startCustomTools loads the custom tools of <data>/tools and ~/.config/mom/tools and starts
// their MCP servers. They may not take the name of a built-in tool.
func (a *App) startCustomTools(environ []string) error {
	dir, err := filepath.Abs(a.Dir)
	if err != nil {
		return err
	}
	a.custom = customtools.New(customtools.Options{
		DataDir: dir, Reserved: ReservedToolNames(), Timeout: a.Config.CustomTools.Timeout,
		Environ: environ, Logger: a.Log,
	})
	a.custom.Start(context.Background())
	return nil
}

// openLedger opens the spending ledger and the guard that checks model calls against the
// caps. A cap's warning is posted in the channel whose call crossed 80% of it.
func (a *App) openLedger() {
	ledger := spend.Open(a.Store.DataDir(), a.Config.LimitZones(), time.Now())
	go func() {
		if err := ledger.Wait(); err != nil {
			a.Log.Error("could not read all of the spending ledger: the caps count only what was read", "err", err)
		}
	}()
	a.ledger = ledger
	a.Spend = spend.New(spend.Options{
		Ledger: ledger, Limits: a.Config.LimitsFor, Log: a.Log,
		Warn: func(_ context.Context, adapter, channel, text string) { a.Hub.Notify(adapter, channel, text) },
	})
}

// transcriber is the speech-to-text client of config.json's "transcription", or nil (an
// interface holding no pointer) when voice notes stay files.
func (a *App) transcriber() hub.Transcriber {
	t := a.Config.Transcription
	if t == nil {
		return nil
	}
	return transcribe.New(transcribe.Options{
		BaseURL: t.BaseURL, APIKey: t.APIKey, Model: t.Model, MaxDuration: t.MaxDuration,
		PricePerMinute: t.PricePerMinute, Log: a.Log, Observe: a.Metrics.Transcribed,
	})
}

// ReservedToolNames are the names custom tools may not take: the built-in tools and
// invoke_tool.
func ReservedToolNames() []string {
	names := []string{"invoke_tool"}
	for _, t := range tools.Builtin() {
		names = append(names, t.Def().Name)
	}
	return names
}

func newProvider(m config.Model, log *slog.Logger) llm.Provider {
	if m.Provider == config.ProviderOpenAI {
		return openai.New(openai.Options{APIKey: m.APIKey, BaseURL: m.BaseURL, Logger: log})
	}
	return anthropic.New(anthropic.Options{APIKey: m.APIKey, BaseURL: m.BaseURL, Logger: log})
}
