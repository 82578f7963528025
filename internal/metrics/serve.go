package metrics

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"sync"

	vm "github.com/VictoriaMetrics/metrics"
)

// Bearer is the optional ability of an adapter with an access token of its own (the web
// chat): a scrape that carries its token may read /metrics too, so that a mom with a web chat
// needs no second secret.
type Bearer interface {
	// AcceptsToken reports whether token is the adapter's access token.
	AcceptsToken(token string) bool
}

// bearers are the adapters whose tokens open /metrics.
type bearers struct {
	mu   sync.Mutex
	list []Bearer
}

// AddBearer lets b's token open /metrics.
func (m *Metrics) AddBearer(b Bearer) {
	m.bearers.mu.Lock()
	defer m.bearers.mu.Unlock()
	m.bearers.list = append(m.bearers.list, b)
}

// authorized reports whether token opens /metrics.
func (m *Metrics) authorized(token string) bool {
	if token == "" {
		return false
	}
	if m.opts.Token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(m.opts.Token)) == 1 {
		return true
	}
	m.bearers.mu.Lock()
	list := m.bearers.list
	m.bearers.mu.Unlock()
	for _, b := range list {
		if b.AcceptsToken(token) {
			return true
		}
	}
	return false
}

// ServeHTTP answers GET /metrics in the Prometheus text format (version 0.0.4): mom's
// counters, then the Go runtime's and the process's (memory, CPU, open files). Without a
// token that opens it, the answer is 401 and says where the token comes from.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !m.authorized(strings.TrimSpace(token)) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mom metrics"`)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte("mom's metrics need a token, sent as \"Authorization: Bearer <token>\": the \"metrics\": {\"token\": ...} of config.json, or the web chat's token.\n"))
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	m.set.WritePrometheus(w)
	vm.WriteProcessMetrics(w)
}
