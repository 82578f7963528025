package discord_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
)

// What mom says when Discord turns it away at start-up: the error names what to fix in the
// Developer Portal. That a start-up error ends the binary with exit status 1 and shows on its
// stderr is cmd/mom's TestUnreachablePlatformIsNotBlamedOnTheToken.

func TestDiscordRefusedTokenIsNamed(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.wrongToken = true
	cfg, err := os.ReadFile(filepath.Join(dw.Dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	dw.WriteConfig(strings.Replace(string(cfg), dw.d.Token(), "MTIz.wrong.token", 1))
	_, err = dw.StartErr()
	if err == nil || !strings.Contains(err.Error(), "Discord did not accept the bot token (GET /users/@me)") ||
		!strings.Contains(err.Error(), "Reset Token") {
		t.Errorf("mom started with %v; want the refused token named, and where to reset it", err)
	}
}

func TestDiscordMissingIntentsAreNamed(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t, fakediscord.WithPrivilegedIntents(0))
	if _, err := dw.StartErr(); err == nil || !strings.Contains(err.Error(), "Privileged Gateway Intents") {
		t.Errorf("mom started with %v; want the missing intents named", err)
	}
}
