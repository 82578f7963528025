package discord

import (
	"net/url"
	"strings"

	"github.com/mom-agent/mom/internal/config"
)

// Config are the Discord adapter's own settings, from its entry in config.json.
type Config struct {
	// BotToken is the bot's token, from the Developer Portal's Bot page (Reset Token).
	BotToken string
	// APIURL replaces https://discord.com/api, the REST API's root without the version (a
	// test seam; a loopback fake in tests).
	APIURL string
	// GatewayURL replaces the gateway URL that GET /gateway/bot reports (a test seam).
	GatewayURL string
	// ReplyIn says where a mention inside a thread is answered.
	ReplyIn config.ReplyIn
	// Verbosity says how much of a run people see.
	Verbosity config.Verbosity
}

// Describe is what `mom check` says of the settings; it never shows the token.
func (c *Config) Describe() string {
	out := config.DescribeReplies(c.ReplyIn, c.Verbosity, c.APIURL)
	if c.GatewayURL != "" {
		out += "; gateway " + config.RedactURL(c.GatewayURL)
	}
	return out
}

const tokenWhat = "the bot token (Developer Portal → your application → Bot → Reset Token)"

// configPlatform says how config.json's Discord entries are read.
func configPlatform() config.Platform {
	return config.Platform{
		Type:   string(Kind),
		Keys:   []string{"botToken", "apiUrl", "gatewayUrl", "replyIn", "verbosity"},
		DM:     config.DMPolicy{},
		UserID: "123456789012345678",
		// Anyone can invite a public bot to a server of their own, so servers are closed to
		// strangers by default.
		Groups: &config.Groups{Default: config.GroupPolicy{WhereAdmins: true}, Example: "123456789012345678", Word: "server"},
		Decode: decodeConfig,
	}
}

// decodeConfig reads a Discord entry's own keys.
func decodeConfig(o *config.Object) config.Options {
	c := &Config{BotToken: o.Token("botToken", tokenWhat, "")}
	if c.BotToken != "" {
		checkToken(o, c.BotToken)
	}
	c.APIURL = o.URL("apiUrl")
	c.GatewayURL = wsURL(o, "gatewayUrl")
	c.ReplyIn = o.ReplyIn()
	c.Verbosity = o.Verbosity()
	return c
}

// checkToken checks the shape of a bot token: three dot-separated parts. People often paste
// the "Bot " authorization prefix with it, or the application's client secret or public key
// instead, and Discord's answer to those (a closed gateway) says little.
func checkToken(o *config.Object, tok string) {
	switch {
	case strings.HasPrefix(tok, "Bot "):
		o.Fail("botToken", `starts with "Bot "; give the token alone, mom adds the prefix`)
	case strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, " \t\n"):
		o.Fail("botToken", "does not look like a Discord bot token (three parts separated by dots); copy %s, not the client secret or public key", tokenWhat)
	}
}

// wsURL reads an optional ws(s) URL under key.
func wsURL(o *config.Object, key string) string {
	s, ok := o.Str(key)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		o.Fail(key, "%q is not a ws:// or wss:// URL", s)
		return ""
	}
	if u.RawQuery != "" {
		o.Fail(key, "%q has a query; give the URL without one (mom adds ?v=10&encoding=json)", s)
		return ""
	}
	return s
}
