package slack_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlackRefusedTokensAreNamed: when Slack refuses a token at start-up, mom does not start,
// and what it says names the token and the call that refused it, with Slack's own error.
// (cmd/mom's TestUnreachablePlatformIsNotBlamedOnTheToken keeps the binary's exit status and
// stderr for a start-up that fails.)
func TestSlackRefusedTokensAreNamed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, bot, app, want string }{
		{"bot token", "xoxb-wrong", "", "Slack did not accept the bot token (auth.test)"},
		{"app token", "", "xapp-wrong", "Slack did not accept the app token (apps.connections.open)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sw := newSlackWorld(t, "")
			sw.wrongToken = true
			cfg, _ := os.ReadFile(filepath.Join(sw.Dir, "config.json"))
			text := string(cfg)
			if tt.bot != "" {
				text = strings.Replace(text, sw.slack.BotToken(), tt.bot, 1)
			}
			if tt.app != "" {
				text = strings.Replace(text, sw.slack.AppToken(), tt.app, 1)
			}
			sw.WriteConfig(text)
			_, err := sw.StartErr()
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "invalid_auth") {
				t.Errorf("starting mom: %v; want it to say %q and invalid_auth", err, tt.want)
			}
		})
	}
}
