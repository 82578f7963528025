package slack

import (
	"context"
	"fmt"
	"strings"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/mom-agent/mom/internal/chat"
)

// Questions with buttons (chat.Asker): a Block Kit message whose actions block carries the
// question's id in each button's value and the choice in its action_id. A tap arrives as an
// interactive envelope over Socket Mode, which is acknowledged at once (Slack wants it within
// three seconds); who may not decide is told so in a message only they see.

// maxSection is the most text a Block Kit section holds.
const maxSection = 3000

// Ask posts q's text, in mrkdwn, with a button per choice.
func (a *Adapter) Ask(ctx context.Context, at chat.Place, text string, q chat.Question) (string, error) {
	var buttons []slackgo.BlockElement
	for _, c := range q.Choices {
		b := slackgo.NewButtonBlockElement(c.Value, q.ID, slackgo.NewTextBlockObject(slackgo.PlainTextType, c.Label, false, false))
		switch c.Style {
		case chat.StylePrimary:
			b.Style = slackgo.StylePrimary
		case chat.StyleDanger:
			b.Style = slackgo.StyleDanger
		}
		buttons = append(buttons, b)
	}
	blocks := slackgo.MsgOptionBlocks(section(text), slackgo.NewActionBlock("mom-question-"+q.ID, buttons...))
	return a.post(ctx, at, text, blocks)
}

// Settle replaces the question with text and no buttons.
func (a *Adapter) Settle(ctx context.Context, at chat.Place, ts, text string) error {
	return a.edit(ctx, at, ts, text, slackgo.MsgOptionBlocks(section(text)))
}

// section is a mrkdwn section block of text, cut to what a section holds (the message's text
// keeps all of it).
func section(text string) slackgo.Block {
	if r := []rune(text); len(r) > maxSection {
		text = string(r[:maxSection-1]) + "…"
	}
	return slackgo.NewSectionBlock(slackgo.NewTextBlockObject(slackgo.MarkdownType, text, false, false), nil, nil)
}

// interactive handles an interactive envelope: a tap on a question's button goes to the hub,
// and a refusal is shown to the person who tapped. Anything else is only acknowledged.
func (a *Adapter) interactive(ctx context.Context, sm *socketmode.Client, in chat.Inbox, req socketmode.Request, cb slackgo.InteractionCallback) {
	if err := sm.Ack(req); err != nil {
		a.log.Warn("could not acknowledge a Slack interaction", "err", err)
	}
	if cb.Type != slackgo.InteractionTypeBlockActions {
		return
	}
	channel := cb.Channel.ID
	if channel == "" {
		channel = cb.Container.ChannelID
	}
	for _, act := range cb.ActionCallback.BlockActions {
		if act == nil || !strings.HasPrefix(act.BlockID, "mom-question-") {
			continue
		}
		who := chat.User{ID: cb.User.ID, Username: cb.User.Name}
		msg := in.Answer(ctx, a.Name(), chat.Answer{Question: act.Value, Choice: act.ActionID, ChannelID: channel, User: who})
		if msg == "" {
			continue
		}
		err := a.rate.Do(ctx, func() error {
			_, err := a.api.PostEphemeralContext(ctx, channel, cb.User.ID, slackgo.MsgOptionText(msg, false))
			return err
		})
		if err != nil {
			a.log.Warn("could not tell someone their answer was not taken", "user", cb.User.ID, "err", fmt.Errorf("%w", explain(err)))
		}
	}
}
