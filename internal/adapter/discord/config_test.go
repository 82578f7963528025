package discord

import (
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/config/configtest"
	"strings"
	"testing"
)

const testToken = "MTEw.GfAkE0.secret-part"

func TestDiscordOptions(t *testing.T) {
	in := `{"adapters": {"guild": {"type": "discord", "botToken": "${TOKEN}", "admins": ["1400"],
		"replyIn": "channel", "verbosity": "verbose", "apiUrl": "http://127.0.0.1:9/api",
		"gatewayUrl": "ws://127.0.0.1:9/gateway"}}}`
	c, err := config.Parse([]byte(in), "config.json", configtest.Env(map[string]string{"TOKEN": testToken}), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	d, _ := a.Options.(*Config)
	if d == nil || d.BotToken != testToken || d.ReplyIn != config.ReplyInChannel || d.Verbosity != config.Verbose ||
		d.APIURL != "http://127.0.0.1:9/api" || d.GatewayURL != "ws://127.0.0.1:9/gateway" {
		t.Fatalf("options = %+v", d)
	}
	if a.DM.Everyone || len(a.DM.Users) != 0 {
		t.Errorf("Discord DMs default to %v; want none", a.DM)
	}
	sum := c.Summary()
	if strings.Contains(sum, "secret-part") || !strings.Contains(sum, "guild (discord)") ||
		!strings.Contains(sum, "gateway ws://127.0.0.1:9/gateway") {
		t.Errorf("summary leaks the token or misses the adapter:\n%s", sum)
	}

	c, err = config.Parse([]byte(`{"adapters": {"guild": {"type": "discord", "botToken": "`+testToken+`"}}}`), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Adapters[0].Options.(*Config); d.ReplyIn != config.ReplyInThread || d.Verbosity != config.Normal || d.APIURL != "" || d.GatewayURL != "" {
		t.Errorf("defaults = %+v; want thread, normal, Discord's own URLs", d)
	}
}

func TestDiscordErrors(t *testing.T) {
	configtest.CheckErrors(t, []config.Platform{configPlatform()}, []configtest.ErrCase{
		{
			Name: "missing token",
			In:   `{"adapters": {"guild": {"type": "discord"}}}`,
			Want: `config.json: adapters.guild: missing "botToken": the bot token (Developer Portal → your application → Bot → Reset Token)`,
		},
		{
			Name: "unset variable names the adapter and the variable",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "${DISCORD_BOT_TOKEN}"}}}`,
			Want: `config.json: adapters.guild.botToken: environment variable DISCORD_BOT_TOKEN is not set`,
		},
		{
			Name: "Bot prefix",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "Bot ` + testToken + `"}}}`,
			Want: `config.json: adapters.guild.botToken: starts with "Bot "; give the token alone, mom adds the prefix`,
		},
		{
			Name: "not a token",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "a1b2c3d4e5f6"}}}`,
			Want: `config.json: adapters.guild.botToken: does not look like a Discord bot token (three parts separated by dots); copy the bot token (Developer Portal → your application → Bot → Reset Token), not the client secret or public key`,
		},
		{
			Name: "gateway url must be a websocket",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testToken + `", "gatewayUrl": "http://x.io"}}}`,
			Want: `config.json: adapters.guild.gatewayUrl: "http://x.io" is not a ws:// or wss:// URL`,
		},
		{
			Name: "gateway url without query",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testToken + `", "gatewayUrl": "wss://x.io/?v=10"}}}`,
			Want: `config.json: adapters.guild.gatewayUrl: "wss://x.io/?v=10" has a query; give the URL without one (mom adds ?v=10&encoding=json)`,
		},
		{
			Name: "bad api url",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testToken + `", "apiUrl": "discord.com"}}}`,
			Want: `config.json: adapters.guild.apiUrl: "discord.com" is not an http:// or https:// URL`,
		},
		{
			Name: "unknown key lists the discord keys",
			In:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testToken + `", "appToken": "x"}}}`,
			Want: `config.json: adapters.guild: unknown key "appToken"`,
		},
	})
}
