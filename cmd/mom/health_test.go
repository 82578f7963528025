package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// healthAddr finds where mom's own health server listens in its log.
var healthAddr = regexp.MustCompile(`msg="health checks listening" addr=(\S+)`)

// probeHealth asks base (http://host:port/) for path, without any token, and returns the
// status and the body.
func probeHealth(t *testing.T, base, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(base + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// healthBase waits for mom to log its health server's address and returns it as a URL.
func healthBase(t *testing.T, p *proc) string {
	t.Helper()
	p.waitForErr(`msg="health checks listening"`)
	m := healthAddr.FindStringSubmatch(p.err.String())
	if m == nil {
		t.Fatalf("no health address in:\n%s", p.err)
	}
	return "http://" + m[1] + "/"
}

// TestHealthWithoutTheWebChat: with only Slack and "health" set, /readyz on the health
// address is 503 while Slack refuses the Socket Mode connection, 200 once it is connected,
// 503 again while the socket is down and cannot come back, and 200 after it does; /healthz
// is 200 throughout.
func TestHealthWithoutTheWebChat(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "health": {"listen": "127.0.0.1:0"},
  "adapters": {"acme": {%s}},
}`, sw.llm.URL(), sw.pf.adapter()))
	// Refused until the test lets it through: mom cannot be connected before then.
	sw.slack.RateLimit("apps.connections.open", 1000, time.Second)
	sw.p = sw.start()
	base := healthBase(t, sw.p)

	expect := func(when, path string, status int, body string) {
		t.Helper()
		if s, b := probeHealth(t, base, path); s != status || b != body {
			t.Errorf("%s %s = %d %q, want %d %q", when, path, s, b, status, body)
		}
	}
	expect("while Slack refuses", "/readyz", 503, "not connected: acme\n")
	expect("while Slack refuses", "/healthz", 200, "ok\n")

	sw.slack.RateLimit("apps.connections.open", 0, time.Second)
	sw.p.waitForErr("mom is running") // every adapter started, Slack connected
	expect("once connected", "/readyz", 200, "ready\n")

	sw.slack.RateLimit("apps.connections.open", 1000, time.Second)
	sw.slack.DropSocket()
	apptest.Eventually(t, "/readyz to report the lost socket", func() bool {
		s, b := probeHealth(t, base, "/readyz")
		return s == 503 && b == "not connected: acme\n"
	})
	expect("while the socket is down", "/healthz", 200, "ok\n")

	sw.slack.RateLimit("apps.connections.open", 0, time.Second)
	apptest.Eventually(t, "/readyz to report the reconnected socket", func() bool {
		s, b := probeHealth(t, base, "/readyz")
		return s == 200 && b == "ready\n"
	})
	sw.p.terminate()
}

// TestHealthBesideTheWebChat: with the web chat and "health" both set, the two addresses
// give the same answers about every adapter.
func TestHealthBesideTheWebChat(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t, "", "")
	s := newSlackFake(t)
	ww.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "health": {"listen": "127.0.0.1:0"},
  "adapters": {"web": {"type": "web", "listen": "127.0.0.1:0"},
               "acme": {"type": "slack", "botToken": %q, "appToken": %q, "apiUrl": %q}},
}`, ww.llm.URL(), s.BotToken(), s.AppToken(), s.URL()))
	ww.run()
	own := healthBase(t, ww.p)
	if own == ww.base {
		t.Fatalf("the health checks and the web chat share %s", own)
	}
	both := func(path string, status int, body string) bool {
		for _, base := range []string{own, ww.base} {
			if s, b := probeHealth(t, base, path); s != status || b != body {
				return false
			}
		}
		return true
	}
	if !both("/readyz", 200, "ready\n") || !both("/healthz", 200, "ok\n") {
		t.Errorf("once connected, the two addresses do not both say ready and ok\n%s", ww.p.err)
	}
	s.Close()
	apptest.Eventually(t, "both addresses to report Slack", func() bool { return both("/readyz", 503, "not connected: acme\n") })
	ww.stop()
}

// TestHealthConfig: `mom check` shows the health address; mom names the setting and the
// address when it cannot listen there.
func TestHealthConfig(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "health": {"listen": %q},
  "adapters": {"terminal": {"type": "cli"}},
}`, w.llm.URL(), addr))

	check := w.mom("", "check", w.dir)
	if want := "health:   /healthz and /readyz on " + addr; check.code != 0 || !strings.Contains(check.stdout, want) {
		t.Errorf("check: exit %d, want %q\n%s%s", check.code, want, check.stdout, check.stderr)
	}
	res := w.mom("", w.dir)
	if want := "health.listen: the health checks cannot listen on " + addr + ": "; res.code == 0 || !strings.Contains(res.stderr, want) {
		t.Errorf("start with the address taken: exit %d, want %q\n%s", res.code, want, res.stderr)
	}

	w.writeConfig(`{"health": {"listen": "8788"}, "adapters": {"terminal": {"type": "cli"}}}`)
	check = w.mom("", "check", w.dir)
	if want := `health.listen: "8788" is not a host:port address`; check.code == 0 || !strings.Contains(check.stderr, want) {
		t.Errorf("check of a bad address: exit %d, want %q\n%s", check.code, want, check.stderr)
	}
}
