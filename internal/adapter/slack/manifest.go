package slack

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mom-agent/mom/internal/chat"
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

// slashName is what Slack takes as a slash command: at most 32 characters, a slash and
// lowercase letters, digits, '-' or '_'.
var slashName = regexp.MustCompile(`^/[a-z0-9][a-z0-9_-]{0,30}$`)

// CommandFor is the slash command an app called name gets by default: its name in lower case,
// spaces as '-', other characters left out ("Helper Bot" → "/helper-bot"), "/mom" when
// nothing is left.
func CommandFor(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ' && b.Len() > 0:
			b.WriteRune('-')
		}
	}
	cmd := strings.Trim(b.String(), "-_")
	if len(cmd) > 31 {
		cmd = strings.Trim(cmd[:31], "-_")
	}
	if cmd == "" {
		return "/mom"
	}
	return "/" + cmd
}

// commandUsage is the slash command's usage hint: the chat commands it takes.
func commandUsage() string {
	var parts []string
	for _, c := range chat.Commands() {
		parts = append(parts, strings.TrimPrefix(c.Usage(), "/"))
	}
	return strings.Join(parts, " | ")
}

// commandNames lists the chat commands' names: "help, stop, new, …".
func commandNames() string {
	var names []string
	for _, c := range chat.Commands() {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// Manifest returns a Slack app manifest (YAML) for a bot called name with everything mom
// needs: Socket Mode on, the scopes and event subscriptions above, the Messages tab open so
// people can DM it, interactivity on for its buttons (approvals), and the slash command
// command ("" for CommandFor(name)) whose text is one of mom's chat commands.
func Manifest(name, command string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 35 {
		return "", fmt.Errorf("the app name must be 1 to 35 characters, got %q", name)
	}
	if command == "" {
		command = CommandFor(name)
	}
	if !slashName.MatchString(command) {
		return "", fmt.Errorf("a Slack slash command is a '/' and up to 31 lowercase letters, digits, '-' or '_', got %q", command)
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
  slash_commands:
    - command: %s
      description: %s
      usage_hint: %s
      should_escape: false
oauth_config:
  scopes:
    bot:
`, q, q, command, strconv.Quote(name+"'s commands: "+commandNames()), strconv.Quote(commandUsage()))
	for _, s := range scopes {
		b.WriteString("      - " + s + "\n")
	}
	b.WriteString("settings:\n  event_subscriptions:\n    bot_events:\n")
	for _, e := range botEvents {
		b.WriteString("      - " + e + "\n")
	}
	b.WriteString(`  interactivity:
    is_enabled: true
  org_deploy_enabled: false
  socket_mode_enabled: true
  token_rotation_enabled: false
`)
	return b.String(), nil
}
