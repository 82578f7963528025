package config

import (
	"net/url"
	"strings"
)

// DiscordOptions are the Discord adapter's own options.
type DiscordOptions struct {
	// BotToken is the bot's token, from the Developer Portal's Bot page (Reset Token).
	BotToken string
	// APIURL replaces https://discord.com/api, the REST API's root without the version (a
	// test seam; a loopback fake in tests).
	APIURL string
	// GatewayURL replaces the gateway URL that GET /gateway/bot reports (a test seam).
	GatewayURL string
	// ReplyIn says where a mention inside a thread is answered.
	ReplyIn ReplyIn
	// Verbosity says how much of a run people see.
	Verbosity Verbosity
}

const discordTokenWhat = "the bot token (Developer Portal → your application → Bot → Reset Token)"

var discordKind = adapterKind{
	keys:   []string{"botToken", "apiUrl", "gatewayUrl", "replyIn", "verbosity"},
	dm:     DMPolicy{},
	userID: "123456789012345678",
	// Anyone can invite a public bot to a server of their own, so servers are closed to
	// strangers by default.
	groups: &groupKind{def: GroupPolicy{WhereAdmins: true}, example: "123456789012345678"},
	decode: func(o *object, a *Adapter) {
		d := &DiscordOptions{}
		a.Discord = d
		d.BotToken = o.token("botToken", "", discordTokenWhat, "")
		if d.BotToken != "" {
			o.discordToken(d.BotToken)
		}
		d.APIURL = o.url("apiUrl")
		d.GatewayURL = o.wsURL("gatewayUrl")
		d.ReplyIn = o.replyIn()
		d.Verbosity = o.verbosity()
	},
	describe: func(a *Adapter) string {
		d := a.Discord
		out := describeReplies(d.ReplyIn, d.Verbosity, d.APIURL)
		if d.GatewayURL != "" {
			out += "; gateway " + redactURL(d.GatewayURL)
		}
		return out
	},
}

// discordToken checks the shape of a bot token: three dot-separated parts. People often paste
// the "Bot " authorization prefix with it, or the application's client secret or public key
// instead, and Discord's answer to those (a closed gateway) says little.
func (o *object) discordToken(tok string) {
	path := joinPath(o.path, "botToken")
	switch {
	case strings.HasPrefix(tok, "Bot "):
		o.d.fail(path, `starts with "Bot "; give the token alone, mom adds the prefix`)
	case strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, " \t\n"):
		o.d.fail(path, "does not look like a Discord bot token (three parts separated by dots); copy %s, not the client secret or public key", discordTokenWhat)
	}
}

// wsURL decodes an optional ws(s) URL under key.
func (o *object) wsURL(key string) string {
	s, ok := o.str(key)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		o.d.fail(joinPath(o.path, key), "%q is not a ws:// or wss:// URL", s)
		return ""
	}
	if u.RawQuery != "" {
		o.d.fail(joinPath(o.path, key), "%q has a query; give the URL without one (mom adds ?v=10&encoding=json)", s)
		return ""
	}
	return s
}
