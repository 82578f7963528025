package web

import (
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// probe sends method path without the token and returns the status and the body.
func probe(t *testing.T, addr, method, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+addr+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHealthFromTheApp: the chat answers /healthz and /readyz, without the token, with the
// health checks it was handed, and nothing else of its own goes to them.
func TestHealthFromTheApp(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var asked []string
	checks := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "not connected: acme\n")
	})
	addr := startChatWith(t, time.Minute, func(a *Adapter) { a.ServeHealth(checks) })
	for _, path := range []string{"/readyz", "/healthz"} {
		if status, body := probe(t, addr, "GET", path); status != 503 || body != "not connected: acme\n" {
			t.Errorf("GET %s = %d %q, want the app's answer", path, status, body)
		}
	}
	// Other methods are the chat's, and need the token like everything else.
	if status, _ := probe(t, addr, "POST", "/readyz"); status != http.StatusUnauthorized {
		t.Errorf("POST /readyz without the token = %d, want 401", status)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || asked[0] != "GET /readyz" || asked[1] != "GET /healthz" {
		t.Errorf("the app's checks were asked %q", asked)
	}
}

// TestHealthOnItsOwn: a chat given no health checks answers for itself: up and connected.
func TestHealthOnItsOwn(t *testing.T) {
	t.Parallel()
	addr := startChat(t, time.Minute)
	for path, want := range map[string]string{"/healthz": "ok\n", "/readyz": "ready\n"} {
		if status, body := probe(t, addr, "GET", path); status != 200 || body != want {
			t.Errorf("GET %s = %d %q, want 200 %q", path, status, body, want)
		}
	}
}
