package app

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/health"
	"github.com/mom-agent/mom/internal/metrics"
)

// healthServer is the optional ability of an adapter that serves HTTP anyway (the web chat):
// it answers /healthz and /readyz on its own address with the app's health checks, and
// /metrics. Serve hands them over once every adapter is built, before any of them starts.
type healthServer interface {
	ServeHealth(h http.Handler)
}

// newHealthChecks makes the health checks over every adapter, each starting until its Start
// returns, and returns them with the handler that answers them and /metrics, which it hands
// to the adapters that serve them. An adapter with a token of its own (metrics.Bearer) lets
// that token open /metrics.
func newHealthChecks(adapters []chat.Adapter, m *metrics.Metrics) (*health.Checks, http.Handler) {
	checks := health.New()
	for _, ad := range adapters {
		checks.Add(ad)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m)
	mux.Handle("/", checks)
	for _, ad := range adapters {
		if s, ok := ad.(healthServer); ok {
			s.ServeHealth(mux)
		}
		if b, ok := ad.(metrics.Bearer); ok {
			m.AddBearer(b)
		}
	}
	return checks, mux
}

// serveHealth answers the checks (and /metrics) on the address of config.json's "health",
// when it has one, so that a mom without a web chat can be probed too. It is called before
// the adapters start, so /readyz says which of them are still connecting. stop is never nil.
func serveHealth(ctx context.Context, cfg *config.Config, checks http.Handler, log *slog.Logger) (stop func(), err error) {
	addr := cfg.Health.Listen
	if addr == "" {
		return func() {}, nil
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("health.listen: the health checks cannot listen on %s: %w (set \"health\": {\"listen\": ...} in %s to another address)",
			addr, err, cfg.Path)
	}
	srv := health.Serve(ln, checks, log)
	log.Info("health checks listening", "addr", srv.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Stop(ctx); err != nil {
			log.Warn("the health checks did not stop in time", "err", err)
		}
	}, nil
}
