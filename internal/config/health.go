package config

import (
	"fmt"
	"net"
	"strings"
)

// DefaultHealthListen is where the health checks answer when "health" is there without a
// "listen": loopback only, beside the web chat's default 8787.
const DefaultHealthListen = "127.0.0.1:8788"

// Health says where mom answers its health checks on an address of their own (the "health"
// section; the README's "Health checks"). Without it they are answered only by the web chat,
// when one is configured.
type Health struct {
	// Listen is the host:port of the checks' own HTTP server; "" means none. Port 0 picks a
	// free one (tests). It may be any address: the checks need no token and say only whether
	// mom runs and which adapters are not connected.
	Listen string
}

var healthKeys = []string{"listen"}

func (d *decoder) health(o *object, h *Health) {
	h.Listen = DefaultHealthListen
	if s, ok := o.str("listen"); ok && strings.TrimSpace(s) != "" {
		h.Listen = strings.TrimSpace(s)
	}
	o.finish(healthKeys...)
	if msg := ListenProblem(h.Listen, DefaultHealthListen); msg != "" {
		d.fail(joinPath(o.path, "listen"), "%s", msg)
	}
}

// healthBesideAdapters reports a health address that an adapter answering the checks itself
// (the web chat) listens on too: only one of them could start, and the adapter answers the
// checks there anyway.
func (d *decoder) healthBesideAdapters(c *Config) {
	_, port, err := net.SplitHostPort(c.Health.Listen)
	if c.Health.Listen == "" || err != nil || port == "0" {
		return
	}
	for _, a := range c.Adapters {
		if s, ok := a.Options.(HealthServer); ok {
			if msg := s.HealthClash(c.Health.Listen, a.Name); msg != "" {
				d.fail("health.listen", "%s", msg)
			}
		}
	}
}

// healthSummary is the line of Summary about the health checks, or "" when they have no
// address of their own.
func (c *Config) healthSummary() string {
	if c.Health.Listen == "" {
		return ""
	}
	return fmt.Sprintf("health:   /healthz and /readyz on %s (no token; they say only whether mom runs and which adapters are not connected)\n", c.Health.Listen)
}
