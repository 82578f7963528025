package config

import (
	"strings"
	"testing"
)

func TestSummaryKeySources(t *testing.T) {
	tests := []struct {
		model string
		env   map[string]string
		want  string
	}{
		{`{}`, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-secret"}, "key:      ANTHROPIC_API_KEY (set)\n"},
		{`{}`, nil, "key:      missing: ANTHROPIC_API_KEY is not set\n"},
		{`{"baseUrl": "http://127.0.0.1:1/v1", "id": "m"}`, nil, "key:      none (not needed for a baseUrl server that takes none)\n"},
	}
	for _, tt := range tests {
		c, err := Parse([]byte(`{"model": `+tt.model+`, "retry": {"maxRetries": 0}}`), "config.json", noEnv)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Resolve(env(tt.env)); err != nil {
			t.Fatal(err)
		}
		s := c.Summary()
		if !strings.Contains(s, tt.want) {
			t.Errorf("summary for %s:\n%s\nwant line %q", tt.model, s, tt.want)
		}
		if strings.Contains(s, "sk-ant-secret") {
			t.Errorf("summary leaks the key:\n%s", s)
		}
		if !strings.Contains(s, "retry:    off\n") || !strings.Contains(s, "adapters: none") {
			t.Errorf("summary:\n%s", s)
		}
	}
}
