package httpclient

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen records the headers of every request a test server received, by path.
type seen struct {
	mu   sync.Mutex
	hdrs map[string]http.Header
}

func (s *seen) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hdrs == nil {
		s.hdrs = map[string]http.Header{}
	}
	s.hdrs[r.URL.Path] = r.Header.Clone()
}

func (s *seen) get(path string) (http.Header, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.hdrs[path]
	return h, ok
}

// TestRedirectsLeaveCredentialsAtTheirOrigin: a server redirects a request that carries a
// token, an API key, a cookie and an explicit Referer to another port of the same host (which
// net/http alone treats as the same host), within itself, and back to itself through the
// other server. Only the requests to the first origin before it was left carry them.
func TestRedirectsLeaveCredentialsAtTheirOrigin(t *testing.T) {
	t.Parallel()
	var homeSeen, strangerSeen seen
	stranger := httptest.NewServer(nil)
	home := httptest.NewServer(nil)
	defer stranger.Close()
	defer home.Close()
	stranger.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		strangerSeen.record(r)
		if r.URL.Path == "/bounce" {
			http.Redirect(w, r, home.URL+"/back", http.StatusFound)
		}
	})
	home.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		homeSeen.record(r)
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, stranger.URL+"/file", http.StatusFound)
		case "/moved":
			http.Redirect(w, r, "/file", http.StatusMovedPermanently)
		case "/roundtrip":
			http.Redirect(w, r, stranger.URL+"/bounce", http.StatusTemporaryRedirect)
		}
	})
	c := New(time.Minute)
	for _, path := range []string{"/away", "/moved", "/roundtrip"} {
		req, _ := http.NewRequest(http.MethodGet, home.URL+path, nil)
		req.Header.Set("Authorization", "Bearer xoxb-secret")
		req.Header.Set("X-Api-Key", "sk-secret")
		req.Header.Set("Cookie", "session=secret")
		req.Header.Set("Referer", home.URL+"/token-in-path")
		req.Header.Set("User-Agent", "mom-test")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		resp.Body.Close()
	}
	credentials := []string{"Authorization", "X-Api-Key", "Cookie", "Referer"}
	for _, at := range []struct {
		who  string
		s    *seen
		path string
		kept bool
	}{
		{"home", &homeSeen, "/away", true},
		{"home, redirected within itself", &homeSeen, "/file", true},
		{"the stranger", &strangerSeen, "/file", false},
		{"the stranger, on the way back", &strangerSeen, "/bounce", false},
		{"home, back from the stranger", &homeSeen, "/back", false},
	} {
		h, ok := at.s.get(at.path)
		if !ok {
			t.Errorf("%s never received %s", at.who, at.path)
			continue
		}
		for _, name := range credentials {
			if got := h.Get(name) != ""; got != at.kept {
				t.Errorf("%s %s: %s present = %v, want %v", at.who, at.path, name, got, at.kept)
			}
		}
		if h.Get("User-Agent") != "mom-test" {
			t.Errorf("%s %s: User-Agent %q, want it kept", at.who, at.path, h.Get("User-Agent"))
		}
	}
}

func TestRedirectsStopAfterTen(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/again", http.StatusFound)
	}))
	defer srv.Close()
	_, err := New(time.Minute).Get(srv.URL)
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("endless redirects: %v, want stopped after 10", err)
	}
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"https://files.slack.com/a", "HTTPS://Files.Slack.COM:443/b?c"},
		{"http://127.0.0.1/", "http://127.0.0.1:80/x"},
		{"https://files.slack.com./x", "https://files.slack.com/y"},
		{"http://[::1]:8080/", "http://[::1]:8080/z"},
	}
	differ := [][2]string{
		{"https://files.slack.com/", "http://files.slack.com/"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8081/"},
		{"https://slack.com/", "https://files.slack.com/"},
		{"https://files.slack.com/", "https://files.slack.com:8443/"},
	}
	origin := func(s string) string {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return Origin(u)
	}
	for _, p := range same {
		if a, b := origin(p[0]), origin(p[1]); a != b {
			t.Errorf("%s and %s: origins %s and %s, want one", p[0], p[1], a, b)
		}
	}
	for _, p := range differ {
		if a, b := origin(p[0]), origin(p[1]); a == b {
			t.Errorf("%s and %s: both origin %s, want two", p[0], p[1], a)
		}
	}
}
