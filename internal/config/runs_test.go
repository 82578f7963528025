package config

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestMaxConcurrentRuns(t *testing.T) {
	c, err := Parse([]byte(`{"maxConcurrentRuns": 2}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxConcurrentRuns != 2 {
		t.Errorf("MaxConcurrentRuns = %d, want 2", c.MaxConcurrentRuns)
	}
	if s := c.Summary(); !strings.Contains(s, "runs:     at most 2 at once across channels\n") {
		t.Errorf("summary does not show the limit:\n%s", s)
	}

	c, err = Parse([]byte(`{"maxConcurrentRuns": null}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxConcurrentRuns != DefaultMaxConcurrentRuns() {
		t.Errorf("MaxConcurrentRuns = %d, want the default %d", c.MaxConcurrentRuns, DefaultMaxConcurrentRuns())
	}
	want := fmt.Sprintf("runs:     at most %d at once across channels (the default for %d CPUs; set \"maxConcurrentRuns\" to change)\n",
		DefaultMaxConcurrentRuns(), runtime.GOMAXPROCS(0))
	if s := c.Summary(); !strings.Contains(s, want) {
		t.Errorf("summary does not explain the default:\n%s\nwant the line:\n%s", s, want)
	}
}

func TestMaxConcurrentRunsErrors(t *testing.T) {
	for in, want := range map[string]string{
		`0`:    `config.json: maxConcurrentRuns: must be at least 1, got 0 (there is no "unlimited": write the most runs this machine should carry at once, e.g. `,
		`-5`:   `config.json: maxConcurrentRuns: must be at least 1, got -5`,
		`"32"`: `config.json: maxConcurrentRuns: expected a number, got a string`,
		`2.5`:  `config.json: maxConcurrentRuns: expected a whole number, got 2.5`,
		`{}`:   `config.json: maxConcurrentRuns: expected a number, got an object`,
	} {
		_, err := Parse([]byte(`{"maxConcurrentRuns": `+in+`}`), "config.json", noEnv)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("maxConcurrentRuns %s: error %v, want %q…", in, err, want)
		}
	}
}

func TestDefaultMaxConcurrentRunsFollowsTheCPUs(t *testing.T) {
	for cpus, want := range map[int]int{1: 16, 2: 32, 3: 48, 4: 64, 64: 64} {
		if got := defaultRunsFor(cpus); got != want {
			t.Errorf("%d CPUs: default %d, want %d", cpus, got, want)
		}
	}
}
