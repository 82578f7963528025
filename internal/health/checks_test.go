package health

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// stub is an adapter with only a name.
type stub string

func (s stub) Name() string { return string(s) }

// linked is an adapter that knows whether its connection is up.
type linked struct {
	name string
	up   atomic.Bool
}

func (l *linked) Name() string    { return l.name }
func (l *linked) Connected() bool { return l.up.Load() }

// get asks h for path and returns the status, the content type and the body.
func get(t *testing.T, h http.Handler, method, path string) (int, string, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Header().Get("Content-Type"), string(body)
}

// TestReadyFollowsEveryAdapter: /readyz is 503 naming, in config order, the adapters that are
// starting, then those that lost their connection, and 200 once all are up; an adapter that
// cannot say counts as connected once started. /healthz is 200 throughout.
func TestReadyFollowsEveryAdapter(t *testing.T) {
	t.Parallel()
	slack := &linked{name: "acme"}
	terminal := stub("terminal")
	c := New()
	c.Add(slack)
	c.Add(terminal)

	steps := []struct {
		what   string
		do     func()
		status int
		body   string
	}{
		{"both starting", func() {}, 503, "not connected: acme, terminal\n"},
		{"Slack's socket up, its Start not returned", func() { slack.up.Store(true) }, 503, "not connected: acme, terminal\n"},
		{"Slack started", func() { c.Started("acme") }, 503, "not connected: terminal\n"},
		{"terminal started", func() { c.Started("terminal") }, 200, "ready\n"},
		{"Slack's socket dropped", func() { slack.up.Store(false) }, 503, "not connected: acme\n"},
		{"Slack reconnected", func() { slack.up.Store(true) }, 200, "ready\n"},
	}
	for _, s := range steps {
		s.do()
		status, ctype, body := get(t, c, "GET", "/readyz")
		if status != s.status || body != s.body || ctype != "text/plain; charset=utf-8" {
			t.Errorf("%s: /readyz = %d %q (%s), want %d %q", s.what, status, body, ctype, s.status, s.body)
		}
		if status, _, body := get(t, c, "GET", "/healthz"); status != 200 || body != "ok\n" {
			t.Errorf("%s: /healthz = %d %q, want 200 \"ok\\n\"", s.what, status, body)
		}
	}
}

// TestNoAdapters: with nothing to wait for, mom is ready.
func TestNoAdapters(t *testing.T) {
	t.Parallel()
	if status, _, body := get(t, New(), "GET", "/readyz"); status != 200 || body != "ready\n" {
		t.Errorf("/readyz = %d %q", status, body)
	}
}

// TestOnlyTheTwoChecks: the handler answers nothing but GET (and HEAD) of the two paths.
func TestOnlyTheTwoChecks(t *testing.T) {
	t.Parallel()
	c := New()
	c.Add(stub("web"))
	c.Started("web")
	for _, tt := range []struct {
		method, path string
		status       int
	}{
		{"HEAD", "/healthz", 200}, {"HEAD", "/readyz", 200},
		{"POST", "/healthz", 405}, {"DELETE", "/readyz", 405},
		{"GET", "/", 404}, {"GET", "/healthz/", 404}, {"GET", "/readyz?verbose=1", 200}, {"GET", "/debug/pprof/", 404},
	} {
		status, _, body := get(t, c, tt.method, tt.path)
		if status != tt.status {
			t.Errorf("%s %s = %d, want %d", tt.method, tt.path, status, tt.status)
		}
		if strings.Contains(body, "web") {
			t.Errorf("%s %s says more than it should: %q", tt.method, tt.path, body)
		}
	}
}

// TestChecksWhileAdaptersStart: probes answered while adapters are added and started do not
// race with them (run with -race), and the last answer sees everything started.
func TestChecksWhileAdaptersStart(t *testing.T) {
	t.Parallel()
	c := New()
	names := []string{"a", "b", "c", "d"}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				get(t, c, "GET", "/readyz")
			}
		})
	}
	for _, n := range names {
		l := &linked{name: n}
		l.up.Store(true)
		c.Add(l)
		c.Started(n)
	}
	wg.Wait()
	if down := c.NotReady(); len(down) != 0 {
		t.Errorf("NotReady() = %v after every adapter started", down)
	}
}
