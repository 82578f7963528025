package sandbox

import (
	"slices"
	"testing"
)

func TestCleanEnvKeepsSecretsOutUnlessNamed(t *testing.T) {
	host := []string{"PATH=/bin", "HOME=/h", "ANTHROPIC_API_KEY=sk-ant", "SLACK_BOT_TOKEN=xoxb", "LANG=C.UTF-8"}
	got, err := CleanEnv(host, []string{"MOM_TOOL_DIR=/t", "WEATHER_KEY=wk", "LD_PRELOAD=evil.so"})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ANTHROPIC_API_KEY=sk-ant", "SLACK_BOT_TOKEN=xoxb", "LD_PRELOAD=evil.so"} {
		if slices.Contains(got, secret) {
			t.Errorf("%s reached the environment: %q", secret, got)
		}
	}
	for _, want := range []string{"PATH=/bin", "HOME=/h", "LANG=C.UTF-8", "MOM_TOOL_DIR=/t", "WEATHER_KEY=wk"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is missing: %q", want, got)
		}
	}
	if _, err := CleanEnv(host, []string{"NOEQUALS"}); err == nil {
		t.Error("a malformed entry was accepted")
	}
}
