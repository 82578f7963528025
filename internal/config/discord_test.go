package config

import (
	"strings"
	"testing"
)

const testDiscordToken = "MTEw.GfAkE0.secret-part"

func TestDiscordOptions(t *testing.T) {
	in := `{"adapters": {"guild": {"type": "discord", "botToken": "${TOKEN}", "admins": ["1400"],
		"replyIn": "channel", "verbosity": "verbose", "apiUrl": "http://127.0.0.1:9/api",
		"gatewayUrl": "ws://127.0.0.1:9/gateway"}}}`
	c, err := Parse([]byte(in), "config.json", env(map[string]string{"TOKEN": testDiscordToken}))
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	d := a.Discord
	if d == nil || d.BotToken != testDiscordToken || d.ReplyIn != ReplyInChannel || d.Verbosity != Verbose ||
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

	c, err = Parse([]byte(`{"adapters": {"guild": {"type": "discord", "botToken": "`+testDiscordToken+`"}}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Adapters[0].Discord; d.ReplyIn != ReplyInThread || d.Verbosity != Normal || d.APIURL != "" || d.GatewayURL != "" {
		t.Errorf("defaults = %+v; want thread, normal, Discord's own URLs", d)
	}
}

func TestDiscordErrors(t *testing.T) {
	checkErrors(t, []errCase{
		{
			name: "missing token",
			in:   `{"adapters": {"guild": {"type": "discord"}}}`,
			want: `config.json: adapters.guild: missing "botToken": the bot token (Developer Portal → your application → Bot → Reset Token)`,
		},
		{
			name: "unset variable names the adapter and the variable",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "${DISCORD_BOT_TOKEN}"}}}`,
			want: `config.json: adapters.guild.botToken: environment variable DISCORD_BOT_TOKEN is not set`,
		},
		{
			name: "Bot prefix",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "Bot ` + testDiscordToken + `"}}}`,
			want: `config.json: adapters.guild.botToken: starts with "Bot "; give the token alone, mom adds the prefix`,
		},
		{
			name: "not a token",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "a1b2c3d4e5f6"}}}`,
			want: `config.json: adapters.guild.botToken: does not look like a Discord bot token (three parts separated by dots); copy the bot token (Developer Portal → your application → Bot → Reset Token), not the client secret or public key`,
		},
		{
			name: "gateway url must be a websocket",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testDiscordToken + `", "gatewayUrl": "http://x.io"}}}`,
			want: `config.json: adapters.guild.gatewayUrl: "http://x.io" is not a ws:// or wss:// URL`,
		},
		{
			name: "gateway url without query",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testDiscordToken + `", "gatewayUrl": "wss://x.io/?v=10"}}}`,
			want: `config.json: adapters.guild.gatewayUrl: "wss://x.io/?v=10" has a query; give the URL without one (mom adds ?v=10&encoding=json)`,
		},
		{
			name: "bad api url",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testDiscordToken + `", "apiUrl": "discord.com"}}}`,
			want: `config.json: adapters.guild.apiUrl: "discord.com" is not an http:// or https:// URL`,
		},
		{
			name: "unknown key lists the discord keys",
			in:   `{"adapters": {"guild": {"type": "discord", "botToken": "` + testDiscordToken + `", "appToken": "x"}}}`,
			want: `config.json: adapters.guild: unknown key "appToken"`,
		},
	})
}
