package telegram

import (
	"context"
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// Telegram's native commands: the bot's command menu (setMyCommands) lists mom's chat
// commands, so people can pick them instead of typing. A command picked in a group arrives
// as "/cost@mom_bot" when other bots are in the chat and as "/cost" when mom is alone there;
// both are addressed to mom (see addressed), and the hub answers them as it answers a typed
// "@mom_bot /cost".

// maxCommandDescription is the longest description setMyCommands takes, in characters.
const maxCommandDescription = 256

// botCommands is chat.Commands as setMyCommands takes them. The menu shows no arguments, so
// a command that takes some names them in its description.
func botCommands() []models.BotCommand {
	var out []models.BotCommand
	for _, c := range chat.Commands() {
		desc := c.Summary
		if c.Args != "" {
			desc += " — " + c.Usage()
		}
		if r := []rune(desc); len(r) > maxCommandDescription {
			desc = string(r[:maxCommandDescription])
		}
		out = append(out, models.BotCommand{Command: c.Name, Description: desc})
	}
	return out
}

// registerCommands sets the bot's command menu. The menu is a convenience: typed commands
// work without it, so a failure is only logged.
func (a *Adapter) registerCommands(ctx context.Context) {
	if _, err := a.api.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: botCommands()}); err != nil {
		if ctx.Err() == nil {
			a.log.Warn("could not set the bot's command menu (setMyCommands); typed commands still work", "err", explain(err))
		}
		return
	}
	a.log.Debug("command menu set", "commands", len(chat.Commands()))
}

// isOwnCommand reports whether a bare /command (no @botname) at the start of a message is one
// of mom's: in a group, Telegram sends it to every bot there, and a person who picks it from
// mom's menu when mom is the only bot sends it without the name.
func isOwnCommand(text string, entities []models.MessageEntity) bool {
	for _, e := range entities {
		if e.Type != models.MessageEntityTypeBotCommand || e.Offset != 0 {
			continue
		}
		units := utf16.Encode([]rune(text))
		if e.Length > len(units) {
			return false
		}
		word := strings.ToLower(strings.TrimPrefix(string(utf16.Decode(units[:e.Length])), "/"))
		for _, c := range chat.Commands() {
			if c.Name == word {
				return true
			}
		}
	}
	return false
}
