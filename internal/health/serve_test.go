package health

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestServeOnItsOwnAddress: the checks answer over a real loopback connection until Stop,
// after which the address refuses connections.
func TestServeOnItsOwnAddress(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := New()
	slack := &linked{name: "acme"}
	c.Add(slack)
	s := Serve(ln, c, slog.New(slog.DiscardHandler))
	base := "http://" + s.Addr().String()

	probe := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, body := probe("/readyz"); status != 503 || body != "not connected: acme\n" {
		t.Errorf("/readyz while starting = %d %q", status, body)
	}
	slack.up.Store(true)
	c.Started("acme")
	if status, body := probe("/readyz"); status != 200 || body != "ready\n" {
		t.Errorf("/readyz once connected = %d %q", status, body)
	}
	if status, body := probe("/healthz"); status != 200 || body != "ok\n" {
		t.Errorf("/healthz = %d %q", status, body)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard only
	defer cancel()
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if conn, err := net.Dial("tcp", s.Addr().String()); err == nil {
		conn.Close()
		t.Errorf("the address still takes connections after Stop")
	}
}
