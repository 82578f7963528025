package prompt

import (
	"strings"
	"testing"
)

// TestEnvironmentSection checks that the Environment section tells the model the truth about
// each sandbox: what it can write, what it sees of other channels, and whether it has a
// network. The golden files cover the docker and host wordings in full.
func TestEnvironmentSection(t *testing.T) {
	section := func(p Params) string {
		out := Build(p)
		_, env, _ := strings.Cut(out, "## Environment\n")
		env, _, _ = strings.Cut(env, "\n## ")
		return env
	}
	bwrap := terminalParams(t)
	bwrap.SandboxKind, bwrap.Workspace, bwrap.ChannelDir = "bwrap", "/workspace", "/workspace/channels/terminal/local"
	for _, tt := range []struct {
		isolation string
		offline   bool
		want      []string
		not       []string
	}{
		{isolation: "channel", want: []string{"bubblewrap sandbox", "Only the workspace (/workspace) is writable", "background jobs included",
			"under /workspace/channels you see only this channel's", "log.jsonl and context.jsonl are read-only"}, not: []string{"no network", "directly on the host"}},
		{isolation: "user", offline: true, want: []string{"channels the person who asked is in, which you can read but not change",
			"Commands have no network access.", "log.jsonl and context.jsonl are read-only"}},
		{isolation: "none", want: []string{"read other channels' directories under /workspace/channels but not change them",
			"log.jsonl and context.jsonl are read-only"}, not: []string{"hidden", "no network"}},
	} {
		p := bwrap
		p.Isolation, p.Offline = tt.isolation, tt.offline
		env := section(p)
		for _, w := range tt.want {
			if !strings.Contains(env, w) {
				t.Errorf("isolation %s: environment lacks %q:\n%s", tt.isolation, w, env)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(env, n) {
				t.Errorf("isolation %s: environment says %q:\n%s", tt.isolation, n, env)
			}
		}
	}
	if env := section(slackParams(t)); !strings.Contains(env, "reach only files under /workspace; use bash") {
		t.Errorf("docker environment does not say where the file tools reach:\n%s", env)
	}
	if env := section(terminalParams(t)); !strings.Contains(env, "directly on the host machine") || strings.Contains(env, "hidden") {
		t.Errorf("host environment:\n%s", env)
	}
}
