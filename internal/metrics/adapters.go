package metrics

import (
	"context"
	"slices"
	"time"
)

// lookEvery is how often WatchConnections looks at the adapters' connections. A reconnect
// faster than that may go uncounted; the look is a few atomic loads per adapter.
const lookEvery = time.Second

// Connections is what WatchConnections needs of the health checks (*health.Checks): the
// adapters that are starting or have lost their connection.
type Connections interface {
	NotReady() []string
}

// WatchConnections reports each of adapters as mom_adapter_connected (1 or 0, asked at each
// scrape), and counts the times one lost its connection (mom_adapter_disconnects_total) and
// was connected again (mom_adapter_reconnects_total), looking once every lookEvery until ctx
// ends. Call it once the adapters have started.
func (m *Metrics) WatchConnections(ctx context.Context, c Connections, adapters []string) {
	for _, name := range adapters {
		m.set.GetOrCreateGauge(series("mom_adapter_connected", []string{"adapter", name}), func() float64 {
			if slices.Contains(c.NotReady(), name) {
				return 0
			}
			return 1
		})
		// Both are shown as 0 until something happens.
		m.counter("mom_adapter_disconnects_total", "adapter", name)
		m.counter("mom_adapter_reconnects_total", "adapter", name)
	}
	go func() {
		lost := make(map[string]bool)
		tick := time.NewTicker(lookEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			down := c.NotReady()
			for _, name := range adapters {
				isDown := slices.Contains(down, name)
				switch {
				case isDown && !lost[name]:
					m.counter("mom_adapter_disconnects_total", "adapter", name).Inc()
				case !isDown && lost[name]:
					m.counter("mom_adapter_reconnects_total", "adapter", name).Inc()
				}
				lost[name] = isDown
			}
		}
	}()
}
