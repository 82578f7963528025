package fakeslack

import "time"

// Option configures a Server.
type Option func(*config)

type config struct {
	botToken, appToken         string
	botUser, botName, botID    string
	teamID, teamName, appID    string
	pageSize                   int
	pingInterval, ackTimeout   time.Duration
	verificationToken, botIcon string
	slashCommands              []string // the app's slash commands (commands.go)
}

func defaultConfig() config {
	return config{
		botToken: "xoxb-test-token", appToken: "xapp-test-token",
		botUser: "U0BOT", botName: "mom", botID: "B0BOT",
		teamID: "T0TEAM", teamName: "Mom Test", appID: "A0MOM",
		pageSize: 100, pingInterval: 5 * time.Second, ackTimeout: 3 * time.Second,
		verificationToken: "fakeslackVerification000",
	}
}

// WithBotToken sets the bot token (xoxb-…) every Web API method except apps.connections.open
// requires. Default "xoxb-test-token".
func WithBotToken(token string) Option { return func(c *config) { c.botToken = token } }

// WithAppToken sets the app-level token (xapp-…) apps.connections.open requires. Default
// "xapp-test-token".
func WithAppToken(token string) Option { return func(c *config) { c.appToken = token } }

// WithBot sets the bot's user id and name. Default "U0BOT", "mom".
func WithBot(userID, name string) Option {
	return func(c *config) { c.botUser, c.botName = userID, name }
}

// WithBotID sets the bot id (bot_id in messages and auth.test). Default "B0BOT".
func WithBotID(botID string) Option { return func(c *config) { c.botID = botID } }

// WithTeam sets the workspace id and name. Default "T0TEAM", "Mom Test".
func WithTeam(id, name string) Option { return func(c *config) { c.teamID, c.teamName = id, name } }

// WithAppID sets the app id (api_app_id of event payloads, app_id of the bot's messages and of
// the hello message). Default "A0MOM".
func WithAppID(id string) Option { return func(c *config) { c.appID = id } }

// WithPageSize caps the items per page of users.list, conversations.list,
// conversations.history, conversations.replies and conversations.members, whatever limit the
// client asks for, so tests can force pagination. Default 100.
func WithPageSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.pageSize = n
		}
	}
}

// WithPingInterval sets how often the server sends a WebSocket ping on each socket (slack-go
// reconnects when it sees none for 30 s). Default 5 s.
func WithPingInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.pingInterval = d
		}
	}
}

// WithAckTimeout sets how long an envelope may stay unacked before it is redelivered with a
// new envelope id, retry_attempt+1 and retry_reason "timeout". After MaxRetries redeliveries
// it is dropped and counted by Lost. Default 3 s, as in Slack.
func WithAckTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.ackTimeout = d
		}
	}
}
