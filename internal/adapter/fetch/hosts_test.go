package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

func TestHostsAllowsOnlyThePlatformsServers(t *testing.T) {
	t.Parallel()
	h := Hosts{Domains: []string{"slack.com"}, API: "http://127.0.0.1:8080/api/"}
	allowed := []string{
		"https://files.slack.com/files-pri/T1-F1/download/a.txt",
		"https://slack.com/x",
		"HTTPS://FILES.SLACK.COM:443/x",
		"https://files.slack.com./x",
		"http://127.0.0.1:8080/files-pri/T1-F1/a.txt", // the API's own origin, as configured
	}
	refused := []string{
		"http://files.slack.com/x",       // not https
		"https://files.slack.com:8443/x", // another port
		"https://files.slack.com.evil.example/x",
		"https://evilslack.com/x",
		"https://files.slack.com@evil.example/x",
		"https://evil.example/#@files.slack.com",
		"http://127.0.0.1:8081/x",  // the API's host, another port
		"https://127.0.0.1:8080/x", // the API's host and port, another scheme
		"http://localhost:8080/x",
		"/files-pri/T1-F1/a.txt",
		"file:///etc/passwd",
	}
	for _, s := range allowed {
		if u, err := url.Parse(s); err != nil || !h.Allows(u) {
			t.Errorf("%s refused (%v), want it allowed", s, err)
		}
	}
	for _, s := range refused {
		if u, err := url.Parse(s); err == nil && h.Allows(u) {
			t.Errorf("%s allowed, want it refused", s)
		}
	}
	if u, _ := url.Parse("https://files.slack.com/x"); (Hosts{}).Allows(u) {
		t.Error("no hosts at all allowed an address")
	}
}

// platform is a loopback server standing for a platform's file host: /file answers a file,
// and any other path redirects to the stranger.
func platform(t *testing.T, stranger *fakeserver.Stranger) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/file" {
			io.WriteString(w, "the platform's file")
			return
		}
		http.Redirect(w, r, stranger.URL+"/cdn/file", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestGetSendsCredentialsOnlyToThePlatform: a header credential, and a token in the path as
// Telegram has it, reach the platform's server, never a stranger's: not when the address names
// the stranger (refused, nothing sent), not after the platform redirects there (another port
// of the same host, which net/http alone would trust with the Authorization header).
func TestGetSendsCredentialsOnlyToThePlatform(t *testing.T) {
	t.Parallel()
	const secret = "xoxb-SECRET"
	stranger := fakeserver.NewStranger()
	defer stranger.Close()
	home := platform(t, stranger)
	f := newFetcher(t, 1<<20)
	f.Hosts = Hosts{API: home.URL}
	// A client that would follow anything with everything: Get must not rely on it.
	f.HTTP = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}
	auth := http.Header{"Authorization": {"Bearer " + secret}}
	read := func(address string) (string, error) {
		resp, err := f.Get(context.Background(), address, auth, "Chat")
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}

	if body, err := read(home.URL + "/file"); err != nil || body != "the platform's file" {
		t.Fatalf("the platform's own file: %q, %v", body, err)
	}
	_, err := read(stranger.URL + "/forged")
	host := strings.TrimPrefix(stranger.URL, "http://")
	if want := `the file's address points to "` + host + `", not to Chat`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a stranger's address: %v, want %q", err, want)
	}
	if v := stranger.Visits(); len(v) != 0 {
		t.Fatalf("a refused address was fetched anyway: %v", v)
	}
	if strings.Contains(err.Error(), "forged") {
		t.Errorf("the error quotes the address, which may hold a token: %v", err)
	}

	for _, path := range []string{"/away", "/file/bot" + secret + "/photo.jpg"} {
		body, err := read(home.URL + path)
		if err != nil || body != fakeserver.StrangerContent {
			t.Errorf("%s, redirected to the stranger: %q, %v; want its file, fetched", path, body, err)
		}
	}
	visits := stranger.Visits()
	if len(visits) != 2 {
		t.Fatalf("the stranger saw %d requests, want the 2 redirected ones", len(visits))
	}
	for _, v := range visits {
		if strings.Contains(v.Dump(), "SECRET") {
			t.Errorf("the secret reached the stranger:\n%s", v.Dump())
		}
	}
}
