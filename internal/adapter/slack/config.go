package slack

import "github.com/mom-agent/mom/internal/config"

// Config are the Slack adapter's own settings, from its entry in config.json.
type Config struct {
	// BotToken is the bot user's OAuth token (xoxb-…) for the Web API.
	BotToken string
	// AppToken is the app-level token (xapp-…) that opens Socket Mode connections.
	AppToken string
	// APIURL replaces https://slack.com/api/ (a test seam; a loopback fake in tests).
	APIURL string
	// ReplyIn says where a mention inside a thread is answered.
	ReplyIn config.ReplyIn
	// Verbosity says how much of a run people see.
	Verbosity config.Verbosity
}

// Describe is what `mom check` says of the settings; it never shows a token.
func (c *Config) Describe() string {
	return config.DescribeReplies(c.ReplyIn, c.Verbosity, c.APIURL)
}

// configPlatform says how config.json's Slack entries are read.
func configPlatform() config.Platform {
	return config.Platform{
		Type:   string(Kind),
		Keys:   []string{"botToken", "appToken", "apiUrl", "replyIn", "verbosity"},
		DM:     config.DMPolicy{},
		UserID: "U0123ABCD",
		// A workspace's channels hold its own members and the guests it invited.
		Groups: &config.Groups{Default: config.GroupPolicy{Everyone: true}, Example: "C0123ABCD"},
		Decode: decodeConfig,
	}
}

// decodeConfig reads a Slack entry's own keys. The two tokens are easily swapped, and Slack's
// answer to that is an opaque "invalid_auth", so each is checked for the other's prefix.
func decodeConfig(o *config.Object) config.Options {
	return &Config{
		BotToken:  o.Token("botToken", "the bot token (xoxb-…, from OAuth & Permissions)", "xapp-"),
		AppToken:  o.Token("appToken", "the app-level token (xapp-…, from Basic Information → App-Level Tokens, scope connections:write)", "xoxb-"),
		APIURL:    o.URL("apiUrl"),
		ReplyIn:   o.ReplyIn(),
		Verbosity: o.Verbosity(),
	}
}
