// Package apptest runs a whole mom in-process for tests: a data directory, the loopback fake
// model, a config.json, and the real app (package app) serving it, with every adapter built
// through the platform registry. The adapters' behaviour tests use it from their packages'
// external tests (package <platform>_test) against their platform's fake, so each runs where the
// code it tests lives, in parallel with the others, and under the race detector with the rest
// of mom. cmd/mom keeps the tests of the binary itself: flags, signals, exit statuses.
//
// A World holds no package state; tests that call t.Parallel each make their own.
package apptest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/app"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/store"
)

// APIKey is the key the fake model accepts, and the one Configure writes.
const APIKey = "test-key"

// World is one data directory with a fake model and the environment mom runs in. At most one
// mom runs on it at a time (Start, Stop).
type World struct {
	T   testing.TB
	Dir string
	LLM *fakellm.Server
	// Env is mom's environment as config.json's ${VAR} and MOM_SANDBOX see it. New sets
	// MOM_SANDBOX=host, which keeps commands on the host where tests watch their files, and
	// MOM_APPROVALS=off, since on the host mom would otherwise ask before every command;
	// tests of approvals set them in config.json, which wins.
	Env map[string]string
	// LocalUser is the person at the terminal.
	LocalUser chat.User
	// Platforms reads the config and builds the adapters; New sets adapter.Builtin(). A
	// platform whose service cannot be faked on the network puts a Spec here that builds its
	// adapter on an in-process fake.
	Platforms *adapter.Registry

	app    *app.App
	cancel context.CancelFunc
	// logs is everything every mom started on this world logged.
	logs SyncBuffer
}

// New makes an empty data directory and a fresh fake model; both go at the test's end, after
// the mom started on them has stopped.
func New(t testing.TB) *World {
	t.Helper()
	llm := fakellm.New(fakellm.WithAPIKey(APIKey))
	t.Cleanup(llm.Close)
	w := &World{
		T: t, Dir: filepath.Join(t.TempDir(), "data"), LLM: llm,
		Env:       map[string]string{"MOM_SANDBOX": "host", "MOM_APPROVALS": "off"},
		LocalUser: chat.User{ID: "ada", Username: "ada"},
		Platforms: adapter.Builtin(),
	}
	if err := os.MkdirAll(w.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.Stop()
		if t.Failed() {
			t.Logf("mom's log:\n%s", w.logs.String())
		}
	})
	return w
}

// WriteConfig writes config.json.
func (w *World) WriteConfig(text string) {
	w.T.Helper()
	if err := os.WriteFile(filepath.Join(w.Dir, config.FileName), []byte(text), 0o600); err != nil {
		w.T.Fatal(err)
	}
}

// Configure writes the config the adapter tests share: the fake model with fast retries and
// one adapter, name, whose settings are the JSON members entry (`"type": ..., "botToken": ...`).
func (w *World) Configure(name, entry string) {
	w.T.Helper()
	w.WriteConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": %q, "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "adapters": {%q: {%s}},
}`, APIKey, w.LLM.URL(), name, entry))
}

// AddConfig adds members (`"transcription": {...}`, comma-separated) at the top level of
// the config.json that WriteConfig or Configure wrote, for a test that needs a section the
// adapter's world does not write.
func (w *World) AddConfig(members string) {
	w.T.Helper()
	path := filepath.Join(w.Dir, config.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		w.T.Fatal(err)
	}
	text, found := strings.CutPrefix(strings.TrimSpace(string(data)), "{")
	if !found {
		w.T.Fatalf("apptest: config.json does not start with an object:\n%s", data)
	}
	w.WriteConfig("{\n  " + members + ",\n" + text)
}

// Start starts mom on the data directory the way `mom <data-dir>` does, and returns once every
// adapter is connected and the wake-up watcher runs ("mom is running"). A config or start-up
// error fails the test; StartErr returns it instead.
func (w *World) Start() *app.App {
	w.T.Helper()
	a, err := w.StartErr()
	if err != nil {
		w.T.Fatalf("starting mom: %v\nmom's log:\n%s", err, w.logs.String())
	}
	return a
}

// StartErr is Start returning what went wrong instead of failing the test.
func (w *World) StartErr() (*app.App, error) {
	w.T.Helper()
	if w.app != nil {
		w.T.Fatal("apptest: Start called while mom is running; Stop it first")
	}
	lookup := func(k string) (string, bool) { v, ok := w.Env[k]; return v, ok }
	getenv := func(k string) string { return w.Env[k] }
	path := filepath.Join(w.Dir, config.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Parse(data, path, lookup, w.Platforms.Config()...)
	if err != nil {
		return nil, err
	}
	if err := cfg.Resolve(lookup); err != nil {
		return nil, err
	}
	if err := cfg.CheckServe(); err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(&w.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := app.Options{Log: log, Stderr: &w.logs, Getenv: getenv, Environ: w.environ(), Platforms: w.Platforms}
	a, err := app.Open(w.Dir, cfg, opts)
	// The mom this world stopped last has let go of the data directory's lock, but a process
	// that a parallel test forked just then holds a copy of the lock's descriptor until it
	// execs: a moment later the lock is free.
	for wait := time.Millisecond; errors.Is(err, store.ErrInUse) && wait < time.Second; wait *= 2 {
		time.Sleep(wait)
		a, err = app.Open(w.Dir, cfg, opts)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	env := adapter.Env{Stdin: strings.NewReader(""), Stdout: &w.logs, Stderr: &w.logs, LocalUser: w.LocalUser}
	if _, err := a.Serve(ctx, env); err != nil {
		cancel()
		a.Shutdown()
		return nil, err
	}
	w.app, w.cancel = a, cancel
	return a, nil
}

// environ is Env in os.Environ() form, with PATH so that commands and tools are found.
func (w *World) environ() []string {
	env := []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range w.Env {
		env = append(env, k+"="+v)
	}
	return env
}

// Stop stops mom the way SIGTERM does: adapters say goodbye, runs are aborted and recorded,
// files are flushed. It does nothing when mom is not running.
func (w *World) Stop() {
	if w.app == nil {
		return
	}
	w.cancel()
	w.app.Shutdown()
	w.app, w.cancel = nil, nil
}

// WaitIdle waits until mom has no run going or waiting. An answer shows before its run ends,
// so a test that stops mom after seeing one, and then counts runs or starts mom again, waits
// for this first: stopped in between, the run would be unfinished, and the next mom would do
// it again.
func (w *World) WaitIdle() {
	w.T.Helper()
	if w.app == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), HangGuard)
	defer cancel()
	if err := w.app.Hub.WaitIdle(ctx); err != nil {
		w.T.Fatalf("waiting for mom's runs to end: %v", err)
	}
}

// App is the running mom, or nil.
func (w *World) App() *app.App { return w.app }

// Log is what every mom started on this world has logged so far.
func (w *World) Log() string { return w.logs.String() }

// WaitLog waits until the log contains s.
func (w *World) WaitLog(s string) {
	w.T.Helper()
	Eventually(w.T, fmt.Sprintf("mom to log %q", s), func() bool { return strings.Contains(w.logs.String(), s) })
}

// ChannelDir is where a channel's files live.
func (w *World) ChannelDir(adapter, channel string) string {
	return filepath.Join(w.Dir, "workspace", "channels", adapter, channel)
}

// WaitRequests waits until the fake model has received n requests and returns them.
func (w *World) WaitRequests(n int) []*fakellm.Request {
	w.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), HangGuard)
	defer cancel()
	reqs, err := w.LLM.WaitRequests(ctx, n)
	if err != nil {
		w.T.Fatalf("waiting for %d model requests: %v (got %d)", n, err, len(w.LLM.Requests()))
	}
	return reqs
}
