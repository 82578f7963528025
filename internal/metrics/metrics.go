package metrics

import (
	"strings"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
)

// Options configure a Metrics.
type Options struct {
	// Token opens /metrics; "" leaves only the tokens of Bearers.
	Token string
	// PerChannel adds a channel label to the per-adapter counters.
	PerChannel bool
}

// Metrics holds mom's counters and serves them. Its methods are safe for concurrent use.
type Metrics struct {
	set  *vm.Set
	opts Options
	// bearers are the adapters whose own token opens /metrics too (the web chat).
	bearers bearers
}

// New returns metrics with nothing counted yet.
func New(opts Options) *Metrics {
	return &Metrics{set: vm.NewSet(), opts: opts}
}

// Buckets of the duration histograms, in seconds. A run takes seconds to many minutes; a
// model call from a second to a few minutes; a tool call from milliseconds (read) to its
// time limit (a long build).
var (
	runBuckets   = []float64{1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600}
	modelBuckets = []float64{0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320}
	toolBuckets  = []float64{0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300}
	// An answer to an approval takes a person: seconds to the timeout's minutes.
	approvalBuckets = []float64{5, 15, 30, 60, 120, 300, 600, 1800, 3600}
)

// counter returns the counter name{labels}, made on first use.
func (m *Metrics) counter(name string, labels ...string) *vm.Counter {
	return m.set.GetOrCreateCounter(series(name, labels))
}

// floatCounter returns the float counter name{labels}, made on first use.
func (m *Metrics) floatCounter(name string, labels ...string) *vm.FloatCounter {
	return m.set.GetOrCreateFloatCounter(series(name, labels))
}

// histogram returns the Prometheus histogram name{labels} with buckets, made on first use.
func (m *Metrics) histogram(name string, buckets []float64, labels ...string) *vm.PrometheusHistogram {
	return m.set.GetOrCreatePrometheusHistogramExt(series(name, labels), buckets)
}

// observe records d in seconds.
func observe(h *vm.PrometheusHistogram, d time.Duration) { h.Update(d.Seconds()) }

// where is the labels of a channel of an adapter: the adapter, and the channel only when
// per-channel labels are on.
func (m *Metrics) where(adapter, channelID string) []string {
	if m.opts.PerChannel {
		return []string{"adapter", adapter, "channel", channelID}
	}
	return []string{"adapter", adapter}
}

// series writes name{k1="v1",k2="v2"} from labels given as key, value, key, value.
func series(name string, labels []string) string {
	if len(labels) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(labels[i])
		b.WriteString(`="`)
		b.WriteString(escape(labels[i+1]))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// escape makes v a label value of the text format: backslash, quote and line feed escaped.
// Channel ids and tool names come from platforms and tool folders, so nothing is assumed.
func escape(v string) string {
	if !strings.ContainsAny(v, "\\\"\n") {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return r.Replace(v)
}
