package fakediscord

import "time"

// Option configures a Server.
type Option func(*config)

type config struct {
	token             string
	botID, botName    string
	appID             string
	guildID, guild    string
	heartbeat         time.Duration
	privileged        int64 // privileged intents the application has enabled
	backlog           int   // dispatches kept per session for RESUME
	sessionStartLimit int
}

// Intents the fake knows by name (Discord's gateway intent bits).
const (
	IntentGuilds         int64 = 1 << 0
	IntentGuildMembers   int64 = 1 << 1
	IntentGuildPresences int64 = 1 << 8
	IntentGuildMessages  int64 = 1 << 9
	IntentDirectMessages int64 = 1 << 12
	IntentMessageContent int64 = 1 << 15

	privilegedIntents = IntentGuildMembers | IntentGuildPresences | IntentMessageContent
)

func defaultConfig() config {
	return config{
		// A token shaped like Discord's: base64 of the bot's id, a timestamp part, an HMAC part.
		token:   "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkE0.fake-discord-bot-token-000000000000000",
		botID:   "1100000000000000001",
		botName: "mom",
		appID:   "1100000000000000001",
		guildID: "1200000000000000001", guild: "Mom Test",
		heartbeat:         41250 * time.Millisecond,
		privileged:        IntentGuildMembers | IntentMessageContent,
		backlog:           1000,
		sessionStartLimit: 1000,
	}
}

// WithToken sets the bot token the REST API and IDENTIFY accept.
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithBot sets the bot user's id and username. Default "1100000000000000001", "mom".
func WithBot(id, name string) Option {
	return func(c *config) { c.botID, c.appID, c.botName = id, id, name }
}

// WithGuild sets the guild's id and name.
func WithGuild(id, name string) Option { return func(c *config) { c.guildID, c.guild = id, name } }

// WithHeartbeatInterval sets the heartbeat_interval HELLO announces (default 41.25 s, as
// Discord). A connection that sends no heartbeat for twice the interval is closed with 4009
// and recorded as a violation.
func WithHeartbeatInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.heartbeat = d
		}
	}
}

// WithPrivilegedIntents sets the privileged intents enabled for the application in the
// Developer Portal (default GUILD_MEMBERS and MESSAGE_CONTENT). IDENTIFY asking for one that
// is not enabled is closed with 4014 Disallowed intent(s), as Discord does.
func WithPrivilegedIntents(intents int64) Option {
	return func(c *config) { c.privileged = intents & privilegedIntents }
}
