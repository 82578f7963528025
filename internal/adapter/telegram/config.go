package telegram

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mom-agent/mom/internal/config"
)

// Config are the Telegram adapter's own settings, from its entry in config.json.
type Config struct {
	// BotToken is the token @BotFather gives for the bot ("<bot id>:<secret>").
	BotToken string
	// APIURL replaces https://api.telegram.org (a test seam, or a local Bot API server).
	APIURL string
	// Verbosity says how much of a run people see.
	Verbosity config.Verbosity
}

// Describe is what `mom check` says of the settings: the bot's id, which is the part of the
// token before the colon, but never the secret after it.
func (c *Config) Describe() string {
	out := fmt.Sprintf("long polling; verbosity %s", c.Verbosity)
	if id, _, ok := strings.Cut(c.BotToken, ":"); ok {
		out += "; bot id " + id
	}
	if c.APIURL != "" {
		out += "; API " + config.RedactURL(c.APIURL)
	}
	return out
}

const tokenWhat = "the bot token from @BotFather (/newbot or /token), like 123456789:AAH…"

// tokenShape is the shape of a bot token: the bot's numeric id, a colon, the secret.
var tokenShape = regexp.MustCompile(`^[0-9]+:[A-Za-z0-9_-]+$`)

// configPlatform says how config.json's Telegram entries are read.
func configPlatform() config.Platform {
	return config.Platform{
		Type:   string(Kind),
		Keys:   []string{"botToken", "apiUrl", "verbosity"},
		DM:     config.DMPolicy{},
		UserID: "123456789",
		// Anyone can add a bot to a group of their own, so groups are closed to strangers by
		// default.
		Groups: &config.Groups{Default: config.GroupPolicy{WhereAdmins: true}, Example: "-1001234567890", Word: "group"},
		Decode: decodeConfig,
	}
}

// decodeConfig reads a Telegram entry's own keys.
func decodeConfig(o *config.Object) config.Options {
	c := &Config{BotToken: o.Token("botToken", tokenWhat, "")}
	if c.BotToken != "" && !tokenShape.MatchString(c.BotToken) {
		hint := ""
		if strings.HasPrefix(strings.ToLower(c.BotToken), "bot") {
			hint = ` without the "bot" prefix of API URLs`
		}
		o.Fail("botToken", "does not look like a Telegram bot token (digits, a colon, then the secret); copy %s%s", tokenWhat, hint)
	}
	c.APIURL = strings.TrimRight(o.URL("apiUrl"), "/")
	c.Verbosity = o.Verbosity()
	return c
}
