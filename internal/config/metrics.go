package config

import (
	"fmt"
	"strings"
)

// minMetricsToken is the shortest "metrics" token accepted: /metrics may listen beyond
// loopback (on the health checks' address), so guessing the token must be hopeless.
const minMetricsToken = 16

// Metrics is the "metrics" section (the README's "Metrics"): who may read GET /metrics, which
// answers on the health checks' address and the web chat's, and how finely it counts.
type Metrics struct {
	// Token opens /metrics as "Authorization: Bearer <token>". A web chat's token opens it
	// too; with neither, /metrics answers 401 to everyone.
	Token string
	// PerChannel adds a channel label to the counters that have an adapter label. Off by
	// default: every channel (and so every person's DM) would be a time series of its own.
	PerChannel bool
}

var metricsKeys = []string{"token", "perChannel"}

func (d *decoder) metrics(o *object, m *Metrics) {
	if s, ok := o.str("token"); ok {
		m.Token = strings.TrimSpace(s)
		if len(m.Token) < minMetricsToken {
			d.fail(joinPath(o.path, "token"), "must be at least %d characters (e.g. openssl rand -hex 24), got %d", minMetricsToken, len(m.Token))
		}
	}
	if b, ok := o.boolean("perChannel"); ok {
		m.PerChannel = b
	}
	o.finish(metricsKeys...)
}

// metricsSummary is the line of Summary about /metrics, or "" when it says nothing worth
// a line: no token of its own and per-adapter labels.
func (c *Config) metricsSummary() string {
	if c.Metrics.Token == "" && !c.Metrics.PerChannel {
		return ""
	}
	who := "its token or the web chat's"
	if c.Metrics.Token == "" {
		who = "the web chat's token"
	}
	labels := "per adapter"
	if c.Metrics.PerChannel {
		labels = "per adapter and channel"
	}
	return fmt.Sprintf("metrics:  GET /metrics beside /healthz, with %s; labels %s\n", who, labels)
}
