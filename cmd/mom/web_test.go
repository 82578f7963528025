package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// The web chat's tests of the binary: its first run and `mom check`. The chat's behaviour
// tests run in-process in internal/adapter/web; webWorld also serves the browser tests
// (web_browser_*_test.go) and the health tests, which drive the binary.

// webWorld is a data directory whose config has one web adapter, "web", on a free port.
type webWorld struct {
	*world
	p     *proc
	base  string // http://127.0.0.1:port/
	token string
}

// newWebWorld writes a config with the web chat; more adds adapters to "adapters".
func newWebWorld(t testing.TB, settings, more string) *webWorld {
	t.Helper()
	return newWebWorldAt(t, "127.0.0.1:0", settings, more)
}

// newWebWorldAt is newWebWorld with the chat on listen: a fixed port lets a page reconnect
// to a mom that restarted.
func newWebWorldAt(t testing.TB, listen, settings, more string) *webWorld {
	t.Helper()
	w := newWorld(t)
	if settings != "" {
		settings = ", " + settings
	}
	if more != "" {
		more = ", " + more
	}
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "sandbox": {"type": "host"},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "adapters": {"web": {"type": "web", "listen": %q%s}%s},
}`, w.llm.URL(), listen, settings, more))
	return &webWorld{world: w}
}

// run starts mom and reads the chat's address and token from what it prints.
func (ww *webWorld) run() *proc {
	ww.t.Helper()
	ww.p = ww.start()
	ww.p.waitForErr("Web chat: http://")
	ww.p.waitForErr("mom is running")
	base, token, ok := fakeweb.Announced(ww.p.err.String())
	if !ok {
		ww.t.Fatalf("no web chat address in:\n%s", ww.p.err)
	}
	ww.base, ww.token = base, token
	if ww.token == "" {
		b, err := os.ReadFile(filepath.Join(ww.dir, "web.token"))
		if err != nil {
			ww.t.Fatal(err)
		}
		ww.token = strings.TrimSpace(string(b))
	}
	return ww.p
}

// stop sends SIGTERM and expects a clean exit.
func (ww *webWorld) stop() {
	ww.t.Helper()
	ww.p.terminate()
}

// browser is a browser pointed at the chat of the mom running now.
func (ww *webWorld) browser() *fakeweb.Browser {
	return fakeweb.NewBrowser(ww.t, ww.base, ww.token, ww.p.err.String)
}

// request sends a request with the token (unless token is "") and returns the answer and its
// body.
func (ww *webWorld) request(method, path, token string, body io.Reader, header http.Header) (*http.Response, string) {
	ww.t.Helper()
	return ww.browser().Request(method, path, token, body, header)
}

// post sends a message as the page does: a multipart form with name, text and files.
func (ww *webWorld) post(channel, name, text string, files map[string]string) (*http.Response, string) {
	ww.t.Helper()
	return ww.browser().Post(channel, name, text, files)
}

// openTab connects a WebSocket, as a page does when it opens, and reads the replay of the
// runs in progress up to hello.
func (ww *webWorld) openTab() *fakeweb.Tab {
	ww.t.Helper()
	return ww.browser().OpenTab()
}

// TestWebFirstRunOpensTheBrowserChat: `mom <new dir>` writes a config with the terminal and
// the web chat, prints a ready-to-click address whose token is kept (privately) in the data
// directory, and prints the token only that once.
func TestWebFirstRunOpensTheBrowserChat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.dir = filepath.Join(t.TempDir(), "fresh")
	ww := &webWorld{world: w}
	ww.run()
	if !strings.Contains(ww.p.err.String(), "with the terminal and the web chat enabled") || !strings.Contains(ww.p.err.String(), "?token="+ww.token) {
		t.Errorf("first start:\n%s", ww.p.err)
	}
	info, err := os.Stat(filepath.Join(w.dir, "web.token"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", err, info)
	}
	if resp, _ := ww.request("GET", "/api/channels", ww.token, nil, nil); resp.StatusCode != 200 {
		t.Errorf("the printed token does not open the chat: %d", resp.StatusCode)
	}
	ww.p.send("hello from the terminal")
	ww.p.waitFor("ANTHROPIC_API_KEY") // no key in the environment: the terminal explains
	if code := ww.p.quit(); code != 0 {
		t.Fatalf("exit %d after the typed message\n%s", code, ww.p.err)
	}

	first := ww.token
	ww.run()
	if strings.Contains(ww.p.err.String(), first) || !strings.Contains(ww.p.err.String(), "(the access token is in "+filepath.Join(w.dir, "web.token")+")") {
		t.Errorf("second start printed the token again or not where it is:\n%s", ww.p.err)
	}
	if ww.token != first {
		t.Errorf("the token changed across restarts")
	}
	ww.stop()
}

// TestWebListenBeyondLoopbackNeedsAToken: `mom check` refuses a web chat open to the network
// without a token from config.
func TestWebListenBeyondLoopbackNeedsAToken(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t, "", "")
	ww.writeConfig(`{"adapters": {"web": {"type": "web", "listen": "0.0.0.0:0"}}}`)
	res := ww.mom("", "check", ww.dir)
	if res.code == 0 || !strings.Contains(res.stderr, `adapters.web.listen: "0.0.0.0:0" can be reached from other machines; set "token"`) {
		t.Errorf("check: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
