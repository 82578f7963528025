package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestUsageAndCapsAcrossRuns: one-shot runs, each a mom process of its own, share the
// ledger: the run after the cap is reached fails with the cap's message and never reaches the
// model; `mom usage` prints what the calls cost, grouped as asked; `mom check` shows the cap.
func TestUsageAndCapsAcrossRuns(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": "test-key", "baseUrl": %q},
  "limits": {"dailyUsd": 1, "timeZone": "UTC"},
  "adapters": {"terminal": {"type": "cli"}},
}`, w.llm.URL()))
	const sixtyCents = 200_000 // input tokens of claude-sonnet-4-5 at $3 a million
	w.llm.Enqueue(
		fakellm.Reply{Text: "first answer", Usage: &fakellm.Usage{Input: sixtyCents}},
		fakellm.Reply{Text: "second answer", Usage: &fakellm.Usage{Input: sixtyCents, Output: 1000}},
	)
	w.ask("one")
	w.ask("two")
	res := w.mom("", "run", w.dir, "-m", "three")
	const refusal = "The daily limit of $1 for this workspace is reached; it resets at 00:00 UTC. Admins can raise it in config.json."
	if res.code != 1 || !strings.Contains(res.stderr, refusal) {
		t.Errorf("the run after the cap: exit %d, stderr:\n%s\nwant exit 1 and %q", res.code, res.stderr, refusal)
	}
	if n := len(w.llm.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2", n)
	}

	for _, tt := range []struct {
		args []string
		want []string // lines, matched as regular expressions
	}{
		{nil, []string{`^Model calls since \d{4}-\d\d-01 00:00 UTC, by channel:$`, `^  channel\s+calls\s+tokens\s+cost$`,
			`^  run/local\s+2\s+401,000\s+\$1\.2150$`, `^  total\s+2\s+401,000\s+\$1\.2150$`}},
		{[]string{"--by", "model"}, []string{`^  anthropic/claude-sonnet-4-5\s+2\s+401,000\s+\$1\.2150$`}},
		{[]string{"--by=person"}, []string{`^  run/\S+\s+2\s+401,000\s+\$1\.2150$`}},
		{[]string{"--by", "day"}, []string{`^  \d{4}-\d\d-\d\d\s+2\s+401,000\s+\$1\.2150$`}},
		{[]string{"--since", "2999-01-01"}, []string{`^Model calls since 2999-01-01 00:00 UTC, by channel:$`, `^  none recorded$`}},
	} {
		res := w.mom("", append([]string{"usage", w.dir}, tt.args...)...)
		if res.code != 0 {
			t.Errorf("mom usage %v: exit %d\n%s", tt.args, res.code, res.stderr)
			continue
		}
		for _, want := range tt.want {
			if !regexp.MustCompile(`(?m)` + want).MatchString(res.stdout) {
				t.Errorf("mom usage %v lacks a line like %s:\n%s", tt.args, want, res.stdout)
			}
		}
	}
	if res := w.mom("", "usage", w.dir, "--by", "colour"); res.code != 2 || !strings.Contains(res.stderr, `--by must be one of channel, person, model, day, not "colour"`) {
		t.Errorf("mom usage --by colour: exit %d\n%s", res.code, res.stderr)
	}
	if res := w.mom("", "check", w.dir); !strings.Contains(res.stdout, "caps:     in all channels together: $1 a day; days start at 00:00 UTC\n") {
		t.Errorf("mom check does not show the cap:\n%s%s", res.stdout, res.stderr)
	}
}
