package slack

import (
	"context"
	"errors"
	"strings"
	"time"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// Slash commands. Slack's are global to a workspace and its own take the obvious names
// (/status is Slack's), so the manifest declares one command named after the app, "/mom",
// whose text is the chat command: "/mom cost", "/mom model local", "/mom" alone for help.
// Socket Mode delivers a use as a slash_commands envelope, which must be acknowledged within
// three seconds or the person is told the command failed. Slack shows the command to the
// person alone, so mom hands it to the hub as that person's message "/cost" to mom in that
// conversation, and the hub's answer appears there for everyone, as for "@mom /cost". What
// mom cannot take is told to the person alone, in the acknowledgement.

// ackWithin is how long mom waits for a slash command to be logged before it acknowledges it
// anyway: Slack waits three seconds.
const ackWithin = 2 * time.Second

// commandText turns a slash command's text into the chat command it names: "cost" is "/cost",
// "/model local" and "Model local" are "/model local", nothing is "/help". ok is false when
// the text names no chat command.
func commandText(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "/help", true
	}
	word, rest, _ := strings.Cut(text, " ")
	word = strings.ToLower(strings.TrimPrefix(word, "/"))
	for _, c := range chat.Commands() {
		if c.Name == word {
			if rest = strings.TrimSpace(rest); rest != "" {
				return "/" + word + " " + rest, true
			}
			return "/" + word, true
		}
	}
	return "", false
}

// slashCommand takes a slash_commands envelope: a chat command in a conversation mom is in
// goes to the hub, and the envelope is acknowledged once it is logged (or when ackWithin
// runs out first); anything else is acknowledged at once with a word to the person.
func (a *Adapter) slashCommand(ctx context.Context, sm *socketmode.Client, in chat.Inbox, req socketmode.Request, cmd slackgo.SlashCommand) {
	deadline := time.Now().Add(ackWithin)
	ack := func(reply string) {
		var err error
		if reply == "" {
			err = sm.Ack(req)
		} else {
			err = sm.Ack(req, map[string]any{"response_type": "ephemeral", "text": reply})
		}
		if err != nil {
			a.log.Warn("could not acknowledge a Slack slash command", "command", cmd.Command, "err", err)
		}
	}
	text, ok := commandText(cmd.Text)
	if !ok {
		word, _, _ := strings.Cut(strings.TrimSpace(cmd.Text), " ")
		ack("mom has no command “" + word + "”. `" + cmd.Command + " help` lists them; to ask mom something, mention it.")
		return
	}
	if why := a.notIn(ctx, cmd.ChannelID, deadline); why != "" {
		ack(why)
		return
	}
	done := make(chan bool, 1)
	received := time.Now()
	a.gate.Take(ctx, in, intake.Delivery{
		Key: "command/" + cmd.TriggerID, Lane: cmd.ChannelID,
		Convert: func(ctx context.Context) (chat.Message, bool, error) {
			return a.commandMessage(ctx, cmd, text, received), true, nil
		},
		Ack:  func() { done <- true },
		Nack: func() { done <- false },
	})
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case logged := <-done:
		if !logged {
			ack("mom could not take that command just now; try again in a moment.")
			return
		}
		ack("")
	case <-t.C:
		ack("") // still in the conversation's line behind other messages; it is answered there
	case <-ctx.Done():
	}
}

// notIn says why mom cannot answer in a conversation, "" when it can: it must be a member
// to post there. The directory knows the bot's conversations; one it does not know (joined
// or opened a moment ago) is asked about, but not past the deadline.
func (a *Adapter) notIn(ctx context.Context, channel string, deadline time.Time) string {
	if _, ok := a.dir.channel(channel); ok {
		return ""
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	c, err := a.api.GetConversationInfoContext(ctx, &slackgo.GetConversationInfoInput{ChannelID: channel})
	var se slackgo.SlackErrorResponse
	switch {
	case err == nil && (c.IsIM || c.IsMember):
		a.dir.mu.Lock()
		a.dir.addLocked(*c)
		a.dir.mu.Unlock()
		return ""
	case err == nil, errors.As(err, &se) && se.Err == "channel_not_found":
		a.mu.Lock()
		name := a.bot.Username
		a.mu.Unlock()
		return "mom is not in this conversation, so it cannot answer here. Invite it with `/invite @" + name + "`, or ask it in a DM."
	}
	a.log.Debug("could not check the conversation of a slash command; answering there anyway", "channel", channel, "err", err)
	return ""
}

// commandMessage is a slash command as the message of the person who typed it, to mom.
func (a *Adapter) commandMessage(ctx context.Context, cmd slackgo.SlashCommand, text string, at time.Time) chat.Message {
	channelType := ""
	if cmd.ChannelName == "directmessage" {
		channelType = "im"
	}
	kind := a.kindOf(ctx, cmd.ChannelID, channelType)
	return chat.Message{
		ID: cmd.TriggerID, ChannelID: cmd.ChannelID, TS: at.UTC(), Sender: a.dir.sender(ctx, cmd.UserID, ""), Text: text,
		IsMention: true, IsDM: kind == chat.KindDM, IsGroupDM: kind == chat.KindGroup,
	}
}
