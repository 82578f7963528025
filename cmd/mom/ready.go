package main

import (
	"sync"

	"github.com/mom-agent/mom/internal/chat"
)

// connector is implemented by adapters that know whether their platform connection is up
// right now (Slack's socket, Discord's gateway, …). An adapter without it counts as connected
// once its Start has returned, which by contract means connected.
type connector interface {
	Connected() bool
}

// readiness answers "which adapters are not connected?" for the web chat's /readyz.
type readiness struct {
	adapters []chat.Adapter

	mu      sync.Mutex
	started map[string]bool
}

func newReadiness(adapters []chat.Adapter) *readiness {
	return &readiness{adapters: adapters, started: make(map[string]bool)}
}

// markStarted records that an adapter's Start returned.
func (r *readiness) markStarted(name string) {
	r.mu.Lock()
	r.started[name] = true
	r.mu.Unlock()
}

// notReady lists the adapters that are starting or have lost their connection.
func (r *readiness) notReady() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var down []string
	for _, ad := range r.adapters {
		c, ok := ad.(connector)
		if !r.started[ad.Name()] || (ok && !c.Connected()) {
			down = append(down, ad.Name())
		}
	}
	return down
}
