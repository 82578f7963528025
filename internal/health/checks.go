package health

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Adapter is what the checks need of an adapter: the name /readyz reports it by.
type Adapter interface {
	// Name is the adapter's key in config.json.
	Name() string
}

// Connector is the optional ability of an adapter that knows whether its platform connection
// is up right now: its socket or gateway, its polling, its listener. Checks calls Connected
// on every /readyz request, from the HTTP server's
// goroutines, once the adapter's Start has returned; it must be cheap and safe to call at any
// time. It reports false while the adapter reconnects or has lost its connection.
//
// An adapter without it counts as connected once its Start has returned, which by the adapter
// contract means connected.
type Connector interface {
	Connected() bool
}

// Checks knows the state of every configured adapter (starting, connected, or reconnecting
// after a lost connection) and answers /healthz and /readyz. Its methods are safe for
// concurrent use.
type Checks struct {
	mux *http.ServeMux

	mu       sync.Mutex
	adapters []Adapter
	started  map[string]bool
}

// New returns checks that know no adapter yet; Add them, then mark each Started.
func New() *Checks {
	c := &Checks{started: make(map[string]bool)}
	c.mux = http.NewServeMux()
	c.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusOK, "ok")
	})
	c.mux.HandleFunc("GET /readyz", c.ready)
	return c
}

// Add makes /readyz wait for ad: it counts as starting until Started. /readyz lists the
// adapters that are not connected in the order they were added.
func (c *Checks) Add(ad Adapter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.adapters = append(c.adapters, ad)
}

// Started records that the Start of the adapter called name has returned.
func (c *Checks) Started(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.started[name] = true
}

// NotReady lists the adapters that are starting or have lost their connection.
func (c *Checks) NotReady() []string {
	c.mu.Lock()
	adapters := slices.Clone(c.adapters)
	started := maps.Clone(c.started)
	c.mu.Unlock()
	// Connected is asked without c.mu held: it takes the adapter's own locks.
	var down []string
	for _, ad := range adapters {
		name := ad.Name()
		conn, ok := ad.(Connector)
		if !started[name] || ok && !conn.Connected() {
			down = append(down, name)
		}
	}
	return down
}

// ServeHTTP answers GET /healthz and GET /readyz (and HEAD of both); any other request is
// not found, or not allowed.
func (c *Checks) ServeHTTP(w http.ResponseWriter, r *http.Request) { c.mux.ServeHTTP(w, r) }

// ready answers /readyz: 200 when every adapter is connected, else 503 naming the ones that
// are not.
func (c *Checks) ready(w http.ResponseWriter, r *http.Request) {
	if down := c.NotReady(); len(down) > 0 {
		answer(w, http.StatusServiceUnavailable, "not connected: "+strings.Join(down, ", "))
		return
	}
	answer(w, http.StatusOK, "ready")
}

// answer writes one line of plain text.
func answer(w http.ResponseWriter, status int, line string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(line + "\n"))
}
