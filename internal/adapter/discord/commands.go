package discord

import (
	"context"
	"strings"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// Slash commands: at start mom overwrites its application's global commands with one slash
// command per chat command (chat.Commands), so Discord offers "/cost" and the others when
// someone types "/". A use arrives as INTERACTION_CREATE of type APPLICATION_COMMAND, which
// needs no intent. Discord wants a response within three seconds, so mom responds at once
// with a message echoing the command (Discord shows "ada used /cost" above it), and then hands
// the command to the hub as a message to mom from that person in that channel, in the
// channel's line like any message, so the hub answers it as it answers "@mom /cost".

// maxDescription is the longest description Discord takes for a command or an option.
const maxDescription = 100

// optionHelp describes the text a command takes, by the name its Args give it.
var optionHelp = map[string]string{
	"focus": "what the summary should keep above all",
	"name":  "the model to switch to (admins only)",
}

// slashCommands is chat.Commands as application commands: type CHAT_INPUT, usable in servers
// and in DMs with the bot, with one optional text option for a command that takes something
// ("[focus]" becomes the option "focus").
func slashCommands() []discord.ApplicationCommandCreate {
	var out []discord.ApplicationCommandCreate
	for _, c := range chat.Commands() {
		sc := discord.SlashCommandCreate{
			Name: c.Name, Description: cut(c.Summary, maxDescription),
			Contexts: []discord.InteractionContextType{discord.InteractionContextTypeGuild, discord.InteractionContextTypeBotDM},
		}
		if opt := optionName(c); opt != "" {
			help := optionHelp[opt]
			if help == "" {
				help = c.Summary
			}
			sc.Options = []discord.ApplicationCommandOption{
				discord.ApplicationCommandOptionString{Name: opt, Description: cut(help, maxDescription)},
			}
		}
		out = append(out, sc)
	}
	return out
}

// optionName is the name of the option a command's Args describe ("[focus]" → "focus"), ""
// for a command that takes nothing.
func optionName(c chat.Command) string {
	return strings.ToLower(strings.Trim(c.Args, "[]<> "))
}

// cut shortens s to n characters.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// registerCommands overwrites the application's global commands with mom's. Typed commands
// work without them, so a failure is only logged.
func (a *Adapter) registerCommands(ctx context.Context) {
	a.mu.Lock()
	app := a.appID
	a.mu.Unlock()
	if app == 0 {
		a.log.Warn("Discord named no application in READY; mom's slash commands are not registered (typed commands still work)")
		return
	}
	apps := rest.NewApplications(a.client)
	err := a.rate.Do(ctx, func() error {
		_, err := apps.SetGlobalCommands(app, slashCommands(), rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("could not register mom's slash commands (PUT /applications/{id}/commands); typed commands still work", "err", explain(err))
		}
		return
	}
	a.log.Debug("slash commands registered", "commands", len(chat.Commands()))
}

// command responds to a slash command and hands it to the hub.
func (a *Adapter) command(ctx context.Context, in chat.Inbox, ai discord.ApplicationCommandInteraction) {
	data, ok := ai.Data.(discord.SlashCommandInteractionData)
	text, known := "", false
	if ok {
		text, known = commandText(data)
	}
	if !known {
		// A command of an older mom that Discord still offers until the overwrite.
		resp := discord.InteractionResponse{Type: callbackMessage, Data: discord.MessageCreate{
			Content: "mom has no such command now; type `/` to see the ones it has.", Flags: discord.MessageFlagEphemeral}}
		if err := a.respond(ctx, ai, resp); err != nil {
			a.log.Warn("could not respond to a slash command", "user", ai.User().ID.String(), "err", err)
		}
		return
	}
	echo := discord.InteractionResponse{Type: callbackMessage, Data: discord.MessageCreate{Content: fit(text)}}
	if err := a.respond(ctx, ai, echo); err != nil {
		// Discord tells the person it did not respond; the command is still answered.
		a.log.Warn("could not respond to a slash command", "user", ai.User().ID.String(), "command", data.CommandName(), "err", err)
	}
	channel := a.interactionChannel(ai)
	a.gate.Take(ctx, in, intake.Delivery{
		Key: "interaction/" + ai.ID().String(), Lane: channel,
		Convert: func(ctx context.Context) (chat.Message, bool, error) {
			return a.commandMessage(ai, channel, text), true, nil
		},
	})
}

// commandText is the slash command as typed: "/compact keep the plan". known is false for a
// command mom does not have.
func commandText(data discord.SlashCommandInteractionData) (text string, known bool) {
	for _, c := range chat.Commands() {
		if c.Name != data.CommandName() {
			continue
		}
		text = "/" + c.Name
		if opt := optionName(c); opt != "" {
			if v, ok := data.OptString(opt); ok && strings.TrimSpace(v) != "" {
				text += " " + strings.TrimSpace(v)
			}
		}
		return text, true
	}
	return "", false
}

// commandMessage is a slash command as a message to mom from the person who used it, in the
// channel's log (a thread's parent, with the thread in ReplyTo, as for messages).
func (a *Adapter) commandMessage(ai discord.ApplicationCommandInteraction, channel, text string) chat.Message {
	sender := presser(ai)
	a.dir.setUser(sender)
	dm := ai.GuildID() == nil
	if dm {
		a.dir.addDM(channel, sender)
	}
	thread := ""
	if c := ai.Channel(); c.MessageChannel != nil && c.ID().String() != channel {
		thread = c.ID().String()
	}
	return chat.Message{
		ID: ai.ID().String(), ChannelID: channel, TS: ai.CreatedAt(), Sender: sender, Text: text,
		IsMention: true, IsDM: dm, ReplyTo: thread,
	}
}

// applicationOf remembers the application READY names, whose commands mom registers.
func (a *Adapter) applicationOf(id snowflake.ID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.appID = id
}
