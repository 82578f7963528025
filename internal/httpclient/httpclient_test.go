package httpclient

import (
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"sync"
	"testing"
	"time"
)

// TestBurstConnectionsAreKeptForReuse: after a burst of concurrent requests to one host,
// every connection goes back to the pool for the next burst; net/http's default transport
// keeps two and closes the rest ("too many idle connections").
func TestBurstConnectionsAreKeptForReuse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	c := New(time.Minute)
	if c.Timeout != time.Minute {
		t.Errorf("timeout %v", c.Timeout)
	}
	const burst = 20
	var mu sync.Mutex
	kept, dropped := 0, 0
	trace := &httptrace.ClientTrace{PutIdleConn: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			kept++
		} else {
			dropped++
		}
	}}
	var wg sync.WaitGroup
	for range burst {
		wg.Go(func() {
			req, _ := http.NewRequest("GET", srv.URL, nil)
			resp, err := c.Do(req.WithContext(httptrace.WithClientTrace(req.Context(), trace)))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	// A connection goes back to the pool just after its body is closed, from the transport's
	// own goroutine: wait for all of them (the deadline only guards against a hang).
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		k, d := kept, dropped
		mu.Unlock()
		if d > 0 {
			t.Fatalf("%d connections were closed instead of kept for reuse (%d kept)", d, k)
		}
		if k == burst {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d connections went back to the pool", k, burst)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
