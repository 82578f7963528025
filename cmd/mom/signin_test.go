package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestUnreachablePlatformIsNotBlamedOnTheToken: when a platform cannot be reached at start-up,
// mom says so and names the address to check, rather than calling the token wrong.
func TestUnreachablePlatformIsNotBlamedOnTheToken(t *testing.T) {
	if c, err := net.Dial("tcp", "127.0.0.1:1"); err == nil {
		c.Close()
		t.Skip("something listens on 127.0.0.1:1, so there is no unreachable address to point mom at")
	}
	worlds := map[string]func(t *testing.T) *chatWorld{
		"Slack":    func(t *testing.T) *chatWorld { return newSlackWorld(t, "").chatWorld },
		"Discord":  func(t *testing.T) *chatWorld { return newDiscordWorld(t, "").chatWorld },
		"Telegram": func(t *testing.T) *chatWorld { return newTelegramWorld(t, "").chatWorld },
	}
	apiURL := regexp.MustCompile(`"apiUrl": ?"[^"]*"`)
	for platform, newWorld := range worlds {
		t.Run(platform, func(t *testing.T) {
			w := newWorld(t)
			cfg, err := os.ReadFile(filepath.Join(w.dir, "config.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !apiURL.Match(cfg) {
				t.Fatalf("no apiUrl in the config to point elsewhere:\n%s", cfg)
			}
			w.writeConfig(apiURL.ReplaceAllString(string(cfg), `"apiUrl": "http://127.0.0.1:1"`))
			res := w.mom("", w.dir)
			if res.code != 1 || !strings.Contains(res.stderr, "could not reach "+platform) ||
				!strings.Contains(res.stderr, "127.0.0.1:1") || strings.Contains(res.stderr, "did not accept") {
				t.Errorf("exit %d; stderr:\n%s\nwant: could not reach %s, naming the address, and not blaming the token", res.code, res.stderr, platform)
			}
		})
	}
}
