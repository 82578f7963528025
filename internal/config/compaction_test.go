package config

import (
	"strings"
	"testing"
)

func TestCompactionDefaultsAndValues(t *testing.T) {
	c, err := Parse([]byte(`{}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Compaction != (Compaction{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}) {
		t.Errorf("defaults = %+v", c.Compaction)
	}
	c, err = Parse([]byte(`{"compaction": {"enabled": false, "reserveTokens": 8000, "keepRecentTokens": 12000}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Compaction != (Compaction{Enabled: false, ReserveTokens: 8000, KeepRecentTokens: 12000}) {
		t.Errorf("compaction = %+v", c.Compaction)
	}
	c, err = Parse([]byte(`{"compaction": {"keepRecentTokens": 5000}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Compaction != (Compaction{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 5000}) {
		t.Errorf("a partial section = %+v", c.Compaction)
	}
	if !strings.Contains(c.Summary(), "compact:  above the context window minus 16384 tokens, keeping the newest 5000") {
		t.Errorf("summary:\n%s", c.Summary())
	}
	c, _ = Parse([]byte(`{"compaction": {"enabled": false}}`), "config.json", noEnv)
	if !strings.Contains(c.Summary(), "compact:  off") {
		t.Errorf("summary:\n%s", c.Summary())
	}
}

func TestCompactionErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"compaction": {"enabled": "yes"}}`, `config.json: compaction.enabled: expected true or false, got a string`},
		{`{"compaction": {"reserveTokens": 0}}`, `config.json: compaction.reserveTokens: must be at least 1, got 0`},
		{`{"compaction": {"keepRecentTokens": 1.5}}`, `config.json: compaction.keepRecentTokens: expected a whole number, got 1.5`},
		{`{"compaction": {"keepRecentToken": 100}}`, `config.json: compaction: unknown key "keepRecentToken"; did you mean "keepRecentTokens"? (known keys: enabled, reserveTokens, keepRecentTokens)`},
		{`{"compaction": true}`, `config.json: compaction: expected an object ({...}), got true/false`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in), "config.json", noEnv)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}
