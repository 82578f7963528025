package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"

	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// TestWebEveryRouteNeedsTheToken: without the token, or with a wrong one, every page, API call
// and the WebSocket answer 401 and show nothing; only the health endpoints answer, and they
// say nothing but whether mom is up.
func TestWebEveryRouteNeedsTheToken(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	ww.run()
	routes := []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/?token=wrong"}, {"GET", "/assets/app.js"}, {"GET", "/assets/index.html"}, {"GET", "/ws"},
		{"GET", "/api/channels"}, {"POST", "/api/channels"}, {"GET", "/api/channels/general/messages"},
		{"POST", "/api/channels/general/messages"}, {"POST", "/api/channels/general/stop"},
		{"GET", "/api/channels/general/files/x.txt"}, {"GET", "/api/events"}, {"POST", "/api/name"}, {"GET", "/no/such/page"},
	}
	for _, r := range routes {
		for _, token := range []string{"", "not-the-token"} {
			resp, body := ww.Request(r.method, r.path, token, strings.NewReader(`{"name":"x"}`), nil)
			if resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "mom.name") || strings.Contains(body, "general") {
				t.Errorf("%s %s with token %q: %d\n%s", r.method, r.path, token, resp.StatusCode, body)
			}
		}
	}
	u := fakeweb.WebSocketURL(ww.Base())
	if _, resp, err := websocket.Dial(context.Background(), u, nil); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("WebSocket without the token: %v, %v", err, resp)
	}
	for path, want := range map[string]string{"/healthz": "ok\n", "/readyz": "ready\n"} {
		if resp, body := ww.Request("GET", path, "", nil, nil); resp.StatusCode != 200 || body != want {
			t.Errorf("%s = %d %q, want 200 %q", path, resp.StatusCode, body, want)
		}
	}

	// The printed address sets a cookie and drops the token from the address bar; the cookie
	// then opens everything.
	resp, _ := ww.Request("GET", "/?token="+ww.Token(), "", nil, nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || len(resp.Cookies()) != 1 {
		t.Fatalf("visit with the token: %d, location %q, cookies %v", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies())
	}
	c := resp.Cookies()[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Value != ww.Token() {
		t.Errorf("cookie = %+v", c)
	}
	resp, body := ww.Request("GET", "/", "", nil, http.Header{"Cookie": {c.Name + "=" + c.Value}})
	if resp.StatusCode != 200 || !strings.Contains(body, "/assets/app.js") || resp.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("page with the cookie: %d %v\n%s", resp.StatusCode, resp.Header, body)
	}
	if resp, _ := ww.Request("GET", "/api/channels?token="+url.QueryEscape(ww.Token()), "", nil, nil); resp.StatusCode != 200 {
		t.Errorf("token in the query: %d", resp.StatusCode)
	}
	ww.Stop()
}

// TestWebRefusesOtherSites: a page on another site can neither open the WebSocket nor post,
// even with the token (a browser would add the cookie).
func TestWebRefusesOtherSites(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	ww.run()
	u := fakeweb.WebSocketURL(ww.Base())
	h := http.Header{"Authorization": {"Bearer " + ww.Token()}, "Origin": {"http://evil.example"}}
	if _, resp, err := websocket.Dial(context.Background(), u, &websocket.DialOptions{HTTPHeader: h}); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("WebSocket from another origin: %v, %v", err, resp)
	}
	resp, body := ww.Request("POST", "/api/channels", ww.Token(), strings.NewReader(`{"name": "x"}`), http.Header{"Origin": {"http://evil.example"}})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "another site") {
		t.Errorf("POST from another origin: %d %s", resp.StatusCode, body)
	}
	resp, _ = ww.Request("POST", "/api/channels", ww.Token(), strings.NewReader(`{"name": "x"}`), http.Header{"Origin": {strings.TrimSuffix(ww.Base(), "/")}})
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("POST from the chat's own origin: %d", resp.StatusCode)
	}
	ww.Stop()
}
