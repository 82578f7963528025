package config

import (
	"fmt"
	"regexp"
	"strings"
)

// TelegramOptions are the Telegram adapter's own options.
type TelegramOptions struct {
	// BotToken is the token @BotFather gives for the bot ("<bot id>:<secret>").
	BotToken string
	// APIURL replaces https://api.telegram.org (a test seam, or a local Bot API server).
	APIURL string
	// Verbosity says how much of a run people see.
	Verbosity Verbosity
}

const telegramTokenWhat = "the bot token from @BotFather (/newbot or /token), like 123456789:AAH…"

// telegramTokenShape is the shape of a bot token: the bot's numeric id, a colon, the secret.
var telegramTokenShape = regexp.MustCompile(`^[0-9]+:[A-Za-z0-9_-]+$`)

var telegramKind = adapterKind{
	keys:   []string{"botToken", "apiUrl", "verbosity"},
	dm:     DMPolicy{},
	userID: "123456789",
	// Anyone can add a bot to a group of their own, so groups are closed to strangers by default.
	groups: &groupKind{def: GroupPolicy{WhereAdmins: true}, example: "-1001234567890"},
	decode: func(o *object, a *Adapter) {
		t := &TelegramOptions{Verbosity: Normal}
		a.Telegram = t
		t.BotToken = o.token("botToken", "", telegramTokenWhat, "")
		if t.BotToken != "" && !telegramTokenShape.MatchString(t.BotToken) {
			hint := ""
			if strings.HasPrefix(strings.ToLower(t.BotToken), "bot") {
				hint = ` without the "bot" prefix of API URLs`
			}
			o.d.fail(joinPath(o.path, "botToken"), "does not look like a Telegram bot token (digits, a colon, then the secret); copy %s%s", telegramTokenWhat, hint)
		}
		t.APIURL = strings.TrimRight(o.url("apiUrl"), "/")
		t.Verbosity = o.verbosity()
	},
	describe: func(a *Adapter) string {
		t := a.Telegram
		out := fmt.Sprintf("long polling; verbosity %s", t.Verbosity)
		if id, _, ok := strings.Cut(t.BotToken, ":"); ok {
			out += "; bot id " + id
		}
		if t.APIURL != "" {
			out += "; API " + redactURL(t.APIURL)
		}
		return out
	},
}
