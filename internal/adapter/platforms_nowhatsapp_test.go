//go:build nowhatsapp

package adapter

import (
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/config"
)

// optionalEntries are config.json entries of the optional platforms this build has: none.
const optionalEntries = ``

// firstRunGolden is the first-run config.json of this build, and firstRunAdd the platforms
// mom's note after writing it says how to add.
const (
	firstRunGolden = "testdata/firstrun-config-nowhatsapp.golden"
	firstRunAdd    = "Slack, Discord or Telegram"
)

// optionalNames are what the system prompt calls the optional platforms' adapters: in this
// build WhatsApp is none of them.
func optionalNames() map[string]string { return map[string]string{"whatsapp": ""} }

// TestWithoutWhatsApp: a build with -tags nowhatsapp refuses a WhatsApp adapter in so many
// words, and has no command to link one.
func TestWithoutWhatsApp(t *testing.T) {
	t.Parallel()
	_, err := Builtin().Build(config.AdapterEntry{Name: "wa", Type: "whatsapp"}, Env{})
	if err == nil || err.Error() != `adapter wa: type "whatsapp" is not available in this version of mom` {
		t.Errorf("Build: %v", err)
	}
	_, err = parse([]byte(`{"adapters": {"wa": {"type": "whatsapp"}}}`), "config.json", noEnv)
	if err == nil || !strings.Contains(err.Error(), `unknown adapter type "whatsapp"`) {
		t.Errorf("config: %v", err)
	}
	if slices.ContainsFunc(Builtin().Commands(), func(c Command) bool { return c.Name == "whatsapp-link" }) {
		t.Error("a whatsapp-link command without WhatsApp")
	}
}
