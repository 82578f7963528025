package slack

import (
	"fmt"
	"strconv"
	"strings"
)

// scopes are the bot token scopes mom uses, each for a reason: reading the channels and DMs
// it is in (history, read), answering (chat:write), files in and out, and knowing people's
// names. Never modified.
var scopes = []string{
	"app_mentions:read",
	"channels:history", "channels:read",
	"groups:history", "groups:read",
	"im:history", "im:read", "im:write",
	"mpim:history", "mpim:read",
	"chat:write",
	"files:read", "files:write",
	"users:read",
}

// botEvents are the events mom subscribes to: messages wherever the bot is, mentions, and the
// changes that keep its list of people and channels current.
var botEvents = []string{
	"app_mention",
	"message.channels", "message.groups", "message.im", "message.mpim",
	"member_joined_channel", "member_left_channel",
	"channel_rename", "group_rename",
	"channel_archive", "group_archive", "channel_unarchive", "group_unarchive",
	"user_change", "team_join",
}

// Manifest returns a Slack app manifest (YAML) for a bot called name with everything mom
// needs: Socket Mode on, the scopes and event subscriptions above, and the Messages tab open
// so people can DM it.
func Manifest(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 35 {
		return "", fmt.Errorf("the app name must be 1 to 35 characters, got %q", name)
	}
	q := strconv.Quote(name)
	var b strings.Builder
	fmt.Fprintf(&b, `display_information:
  name: %s
  description: A self-hosted assistant that runs commands, remembers and schedules work.
features:
  app_home:
    home_tab_enabled: false
    messages_tab_enabled: true
    messages_tab_read_only_enabled: false
  bot_user:
    display_name: %s
    always_online: true
oauth_config:
  scopes:
    bot:
`, q, q)
	for _, s := range scopes {
		b.WriteString("      - " + s + "\n")
	}
	b.WriteString("settings:\n  event_subscriptions:\n    bot_events:\n")
	for _, e := range botEvents {
		b.WriteString("      - " + e + "\n")
	}
	b.WriteString(`  interactivity:
    is_enabled: false
  org_deploy_enabled: false
  socket_mode_enabled: true
  token_rotation_enabled: false
`)
	return b.String(), nil
}
