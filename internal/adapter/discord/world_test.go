package discord_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
)

// The Discord adapter's behaviour tests run a whole mom in-process (package apptest) against
// the loopback Discord fake, REST v10 and the gateway, and assert what people would see on the
// fake's channels and threads. The behaviours every platform shares are cmd/mom's conformance
// suite; these are Discord's own.

// The cast of the fake's preset guild (fakediscord.NewPreset) that these tests talk with.
const (
	bot     = fakediscord.PresetBot
	general = fakediscord.PresetGeneral
	adaID   = fakediscord.PresetAda // mom's admin
	beaID   = fakediscord.PresetBea // a colleague
	ciID    = fakediscord.PresetCI  // another bot
	adaDM   = fakediscord.PresetAdaDM
)

// discordWorld is a data directory whose config has one Discord adapter, "guild", pointed at
// the fake's preset guild, with ada as mom's admin.
type discordWorld struct {
	*apptest.World
	t *testing.T
	d *fakediscord.Server
	// wrongToken says the test hands mom a token the fake refuses, which the fake records as
	// a protocol violation.
	wrongToken bool
}

// newDiscordWorld makes the world on a preset guild started with opts. At the test's end, once
// mom has stopped, it fails the test if mom broke Discord's protocol.
func newDiscordWorld(t *testing.T, opts ...fakediscord.Option) *discordWorld {
	t.Helper()
	d := fakediscord.NewPreset(opts...)
	t.Cleanup(d.Close)
	dw := &discordWorld{World: apptest.New(t), t: t, d: d}
	t.Cleanup(func() {
		dw.Stop()
		if v := d.Violations(); len(v) > 0 && !dw.wrongToken {
			t.Errorf("mom broke Discord's protocol:\n%s", strings.Join(v, "\n"))
		}
	})
	dw.configure("")
	return dw
}

// configure writes the config with the adapter's settings plus extra (more of the adapter's
// settings, e.g. `"approvals": {"mode": "ask"}`), for the next run.
func (dw *discordWorld) configure(extra string) {
	if extra != "" {
		extra = ", " + extra
	}
	dw.Configure("guild", fmt.Sprintf(`"type": "discord", "botToken": %q, "apiUrl": %q, "admins": [%q]%s`,
		dw.d.Token(), dw.d.URL(), adaID, extra))
}

// run starts mom and waits until it is connected to the gateway.
func (dw *discordWorld) run() {
	dw.t.Helper()
	dw.Start()
	dw.d.WaitFor(dw.t, "mom to connect to the gateway", dw.d.Connected)
}

// botSays waits for a message from the bot in a channel or thread whose text contains want,
// and returns it.
func (dw *discordWorld) botSays(channel, want string) fakediscord.Message {
	dw.t.Helper()
	return apptest.AwaitMessage(dw.t, dw.d.WaitFor, fmt.Sprintf("the bot to say %q in %s", want, channel),
		func() []fakediscord.Message { return dw.d.Messages(channel) },
		func(m fakediscord.Message) bool { return m.Author == bot && strings.Contains(m.Content, want) })
}

// logPath is the channel's log.jsonl.
func (dw *discordWorld) logPath(channel string) string {
	return filepath.Join(dw.ChannelDir("guild", channel), "log.jsonl")
}

// logLines is what the channel's log.jsonl holds now.
func (dw *discordWorld) logLines(channel string) []map[string]any {
	dw.t.Helper()
	return apptest.JSONLines(dw.t, dw.logPath(channel))
}
