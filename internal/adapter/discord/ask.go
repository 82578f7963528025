package discord

import (
	"context"
	"fmt"
	"strings"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"

	"github.com/mom-agent/mom/internal/chat"
)

// Questions with buttons (chat.Asker): a message with one action row of buttons whose
// custom_id is "q:<question id>:<choice>" (at most 100 characters). A press arrives as the
// gateway's INTERACTION_CREATE, which needs no intent. Discord wants an answer to it within
// three seconds, through the interaction's own callback endpoint: DEFERRED_UPDATE_MESSAGE
// when the answer was taken (the question's message is edited when the run settles it), else
// a message only the person who pressed sees, saying why not.

// questionID is the prefix of mom's custom_ids.
const questionID = "q:"

// Interaction callback types and the message flag mom uses
// (https://discord.com/developers/docs/interactions/receiving-and-responding).
const (
	callbackMessage        = discord.InteractionResponseTypeCreateMessage         // 4 CHANNEL_MESSAGE_WITH_SOURCE
	callbackDeferredUpdate = discord.InteractionResponseTypeDeferredUpdateMessage // 6 DEFERRED_UPDATE_MESSAGE
)

// Ask posts q's text with a row of buttons, one per choice.
func (a *Adapter) Ask(ctx context.Context, at chat.Place, text string, q chat.Question) (string, error) {
	var row []discord.InteractiveComponent
	for _, c := range q.Choices {
		b := discord.NewSecondaryButton(c.Label, questionID+q.ID+":"+c.Value)
		switch c.Style {
		case chat.StylePrimary:
			b.Style = discord.ButtonStyleSuccess
		case chat.StyleDanger:
			b.Style = discord.ButtonStyleDanger
		}
		row = append(row, b)
	}
	mc := discord.MessageCreate{Content: fit(text), Components: []discord.LayoutComponent{discord.NewActionRow(row...)}}
	return a.create(ctx, at, mc)
}

// Settle replaces the question with text and takes its buttons away.
func (a *Adapter) Settle(ctx context.Context, at chat.Place, messageID, text string) error {
	text = fit(text)
	return a.update(ctx, at, messageID, discord.MessageUpdate{Content: &text, Components: &[]discord.LayoutComponent{}})
}

// fit cuts text to what a message holds; a question's text is bounded, so this is a guard.
func fit(text string) string {
	if r := []rune(text); len(r) > MaxText {
		return string(r[:MaxText-1]) + "…"
	}
	return text
}

// onInteraction answers a press on a question's button or a slash command (commands.go) off
// the gateway's reading goroutine, so neither slow channels nor a rate limit hold up the
// gateway, nor the gateway the answer.
func (a *Adapter) onInteraction(i discord.Interaction) {
	a.mu.Lock()
	ctx, in := a.ctx, a.in
	a.mu.Unlock()
	if in == nil {
		return
	}
	switch i := i.(type) {
	case discord.ComponentInteraction:
		a.run.Go(func() { a.press(ctx, in, i) })
	case discord.ApplicationCommandInteraction:
		a.run.Go(func() { a.command(ctx, in, i) })
	}
}

// press hands a press on a question's button to the hub and responds to the interaction.
func (a *Adapter) press(ctx context.Context, in chat.Inbox, ci discord.ComponentInteraction) {
	msg := "This button is not mom's to answer."
	tail, ok := strings.CutPrefix(ci.Data.CustomID(), questionID)
	id, choice, ok2 := strings.Cut(tail, ":")
	if ok && ok2 {
		msg = in.Answer(ctx, a.Name(), chat.Answer{Question: id, Choice: choice, ChannelID: a.interactionChannel(ci), User: presser(ci)})
	}
	resp := discord.InteractionResponse{Type: callbackDeferredUpdate}
	if msg != "" {
		resp = discord.InteractionResponse{Type: callbackMessage,
			Data: discord.MessageCreate{Content: fit(msg), Flags: discord.MessageFlagEphemeral}}
	}
	if err := a.respond(ctx, ci, resp); err != nil {
		a.log.Warn("could not respond to a button press", "user", ci.User().ID.String(), "err", err)
	}
}

// respond sends the interaction's one response to its callback endpoint, which the
// interaction's token authorizes rather than the bot token.
func (a *Adapter) respond(ctx context.Context, i discord.Interaction, resp discord.InteractionResponse) error {
	err := a.rate.Do(ctx, func() error {
		return a.interactions.CreateInteractionResponse(i.ID(), i.Token(), resp, rest.WithCtx(ctx))
	})
	if err != nil {
		return fmt.Errorf("POST /interactions/%s/{token}/callback: %w", i.ID(), explain(err))
	}
	return nil
}

// interactionChannel is the channel whose log an interaction belongs to: a thread's parent, as
// for messages, since the hub knows questions by the channel they were asked for.
func (a *Adapter) interactionChannel(i discord.Interaction) string {
	var id string
	if ci, ok := i.(discord.ComponentInteraction); ok {
		id = ci.Message.ChannelID.String()
	}
	c := i.Channel()
	if c.MessageChannel != nil {
		id = c.ID().String()
	}
	if p, ok := a.dir.parentOf(id); ok {
		return p
	}
	if th, ok := c.MessageChannel.(discord.GuildThread); ok {
		return th.ParentID().String() // a thread mom has not heard of yet
	}
	return id
}

// presser is who pressed a button or used a command: member.user in a guild (with the
// member's nickname), user in a DM, formed as for the author of a message, so admins compare
// by the same id.
func presser(i discord.Interaction) chat.User {
	if m := i.Member(); m != nil {
		return userOf(m.User, m.Nick)
	}
	return userOf(i.User(), nil)
}
