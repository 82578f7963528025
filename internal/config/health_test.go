package config

import (
	"strings"
	"testing"
)

func TestHealthListen(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{}`:                                 DefaultHealthListen,
		`{"listen": ""}`:                     DefaultHealthListen,
		`{"listen": " 0.0.0.0:9100 "}`:       "0.0.0.0:9100", // no token to protect: any address
		`{"listen": "${ADDR}"}`:              "[::1]:9101",
		`{"listen": "127.0.0.1:0"}`:          "127.0.0.1:0",
		`{/* probes */ "listen": ":9102",}`:  ":9102",
		`{"listen": "localhost:8788"}`:       "localhost:8788",
		`{"listen": "health.internal:8788"}`: "health.internal:8788",
	} {
		c, err := Parse([]byte(`{"health": `+in+`}`), "config.json", env(map[string]string{"ADDR": "[::1]:9101"}))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if c.Health.Listen != want {
			t.Errorf("%s: listen = %q, want %q", in, c.Health.Listen, want)
		}
		if line := "health:   /healthz and /readyz on " + want + " (no token;"; !strings.Contains(c.Summary(), line) {
			t.Errorf("%s: summary lacks %q:\n%s", in, line, c.Summary())
		}
	}
}

func TestHealthErrors(t *testing.T) {
	t.Parallel()
	checkErrors(t, []errCase{
		{"no port", `{"health": {"listen": "8788"}}`, `config.json: health.listen: "8788" is not a host:port address like "127.0.0.1:8788"`},
		{"named port", `{"health": {"listen": "127.0.0.1:http"}}`, `config.json: health.listen: "127.0.0.1:http" has no valid port (0 to 65535)`},
		{"port too big", `{"health": {"listen": "127.0.0.1:70000"}}`, `config.json: health.listen: "127.0.0.1:70000" has no valid port`},
		{"not a string", `{"health": {"listen": 8788}}`, `config.json: health.listen: expected a string, got a number`},
		{"not an object", `{"health": "127.0.0.1:8788"}`, `config.json: health: expected an object ({...}), got a string`},
		{"unknown key", `{"health": {"listen": "127.0.0.1:8788", "token": "x"}}`, `config.json: health: unknown key "token"`},
		{"typo", `{"health": {"lisen": "127.0.0.1:8788"}}`, `config.json: health: unknown key "lisen"; did you mean "listen"?`},
		{"top-level typo", `{"heath": {}}`, `config.json: unknown key "heath"; did you mean "health"?`},
	})
}
