package main

import (
	"strings"
	"testing"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The Slack sub-commands of the binary, run against the loopback Slack fake (slackWorld, in
// conformance_slack_test.go). The Slack adapter's behaviour tests live in
// internal/adapter/slack.

// TestSlackDownloadAndManifest: `mom download` prints a channel's transcript with each reply
// once, in its thread, and `mom slack-manifest` prints an app manifest with the name asked for.
func TestSlackDownloadAndManifest(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	root := sw.slack.Say(general, adaID, "first line\nsecond line", fakeslack.Silently())
	sw.slack.Say(general, beaID, "a reply", fakeslack.InThread(root), fakeslack.Silently())
	sw.slack.Say(general, adaID, "a reply also sent to the channel", fakeslack.InThread(root), fakeslack.AlsoToChannel(), fakeslack.Silently())
	res := sw.mom("", "download", sw.dir, "acme/"+general)
	if res.code != 0 {
		t.Fatalf("download exited %d: %s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], "] ada: first line") ||
		strings.TrimSpace(lines[1]) != "second line" || !strings.HasPrefix(lines[2], "  [") || !strings.HasSuffix(lines[2], "bea: a reply") ||
		!strings.HasPrefix(lines[3], "  [") || !strings.HasSuffix(lines[3], "ada: a reply also sent to the channel") {
		t.Errorf("transcript (each reply once, in its thread):\n%s", res.stdout)
	}

	res = sw.mom("", "slack-manifest", "--name", "Helper Bot")
	for _, want := range []string{`name: "Helper Bot"`, "socket_mode_enabled: true", "app_mentions:read", "files:read", "message.im", "command: /helper-bot"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("manifest lacks %q:\n%s", want, res.stdout)
		}
	}
}
