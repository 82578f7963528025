package httpclient

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConnectionsAreReused: a burst of concurrent requests, then another, opens no more
// connections than the first burst did (net/http's default client keeps only two).
func TestConnectionsAreReused(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := New(time.Minute)
	burst := func() {
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				resp, err := c.Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			})
		}
		wg.Wait()
	}
	burst()
	first := conns.Load()
	burst()
	if got := conns.Load(); got != first {
		t.Errorf("the second burst opened %d new connections; want the first burst's %d reused", got-first, first)
	}
	if c.Timeout != time.Minute {
		t.Errorf("timeout %v", c.Timeout)
	}
}
