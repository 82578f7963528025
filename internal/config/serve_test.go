package config

import (
	"strings"
	"testing"
)

func TestCheckServe(t *testing.T) {
	cases := map[string]string{
		`{"adapters": {}}`: `config.json has no adapters: add one under "adapters"`,
		`{"adapters": {"a": {"type": "cli"}, "b": {"type": "cli"}}}`: `config.json: adapters a and b are both terminals; only one can read the keyboard`,
		`{"adapters": {"a": {"type": "cli"}, "w": {"type": "web"}}}`: ``,
	}
	for in, want := range cases {
		c, err := Parse([]byte(in), "config.json", noEnv)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		err = c.CheckServe()
		if want == "" && err != nil || want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)) {
			t.Errorf("%s: CheckServe() = %v; want %q", in, err, want)
		}
	}
}
