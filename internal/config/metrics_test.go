package config

import (
	"strings"
	"testing"
)

func TestMetricsSection(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{"metrics": {"token": "${TOKEN}", "perChannel": true}}`), "config.json",
		env(map[string]string{"TOKEN": "0123456789abcdef0123"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.Token != "0123456789abcdef0123" || !c.Metrics.PerChannel {
		t.Errorf("metrics = %+v", c.Metrics)
	}
	line := "metrics:  GET /metrics beside /healthz, with its token or the web chat's; labels per adapter and channel"
	if !strings.Contains(c.Summary(), line) || strings.Contains(c.Summary(), "0123456789abcdef") {
		t.Errorf("summary should say %q and never show the token:\n%s", line, c.Summary())
	}
	c, err = Parse([]byte(`{}`), "config.json", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics != (Metrics{}) || strings.Contains(c.Summary(), "metrics:") {
		t.Errorf("metrics without the section = %+v\n%s", c.Metrics, c.Summary())
	}
}

func TestMetricsErrors(t *testing.T) {
	t.Parallel()
	checkErrors(t, []errCase{
		{"short token", `{"metrics": {"token": "secret"}}`, `config.json: metrics.token: must be at least 16 characters (e.g. openssl rand -hex 24), got 6`},
		{"per channel not a bool", `{"metrics": {"perChannel": "yes"}}`, `config.json: metrics.perChannel: expected true or false`},
		{"typo", `{"metrics": {"tokn": "x"}}`, `config.json: metrics: unknown key "tokn"; did you mean "token"?`},
	})
}
