package config

import (
	"strings"
	"testing"
	"time"
)

func TestResumeDefaultsAndValues(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Resume.Within != 30*time.Minute {
		t.Errorf("default = %v, want 30m", c.Resume.Within)
	}
	c, err = Parse([]byte(`{"resume": {"withinMinutes": 5}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Resume.Within != 5*time.Minute || !strings.Contains(c.Summary(), "resume:   what a restart interrupted, if under 5m0s old") {
		t.Errorf("within = %v, summary:\n%s", c.Resume.Within, c.Summary())
	}
	c, err = Parse([]byte(`{"resume": {"withinMinutes": 0}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Resume.Within != 0 || !strings.Contains(c.Summary(), "resume:   off") {
		t.Errorf("within = %v, summary:\n%s", c.Resume.Within, c.Summary())
	}
}

func TestResumeErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`{"resume": {"withinMinutes": -1}}`, `config.json: resume.withinMinutes: must be at least 0, got -1`},
		{`{"resume": {"withinMinutes": "30"}}`, `config.json: resume.withinMinutes: expected a number, got a string`},
		{`{"resume": {"withinMinutes": 20000}}`, `config.json: resume.withinMinutes: must be at most 10080 (a week), got 20000`},
		{`{"resume": {"withinMinute": 3}}`, `config.json: resume: unknown key "withinMinute"; did you mean "withinMinutes"? (known keys: withinMinutes)`},
		{`{"resume": 30}`, `config.json: resume: expected an object ({...}), got a number`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in), "config.json", noEnv)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}
