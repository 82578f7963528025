package discord

import (
	"context"
	"fmt"
	"strings"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// onMessage files a MESSAGE_CREATE: the bot's own messages and system messages are dropped,
// and the rest go through the intake gate (which drops a message seen before: a RESUME
// replays what the client may already have had) to the lane of the channel they are logged
// in (a known thread's parent), so each channel's messages reach the hub in order without
// holding up the gateway.
func (a *Adapter) onMessage(m discord.Message) {
	if !a.wanted(m) {
		return
	}
	a.mu.Lock()
	ctx, in := a.ctx, a.in
	a.mu.Unlock()
	lane := m.ChannelID.String()
	if p, ok := a.dir.parentOf(lane); ok {
		lane = p
	}
	a.gate.Take(ctx, in, intake.Delivery{
		Key: m.ID.String(), Lane: lane,
		Convert: func(ctx context.Context) (chat.Message, bool, error) { return a.convert(ctx, m) },
	})
}

// wanted says whether a message belongs in the log: what people and other bots wrote. The
// bot's own posts are logged by the agent itself; joins, pins, thread notices and the like are
// not conversation.
func (a *Adapter) wanted(m discord.Message) bool {
	if m.Type != discord.MessageTypeDefault && m.Type != discord.MessageTypeReply {
		return false
	}
	return m.Author.ID.String() != a.Bot().ID
}

// convert turns m into a chat.Message and downloads its files; ok is false when it holds
// nothing anyone could read. A message in a thread is logged in the thread's channel with
// ReplyTo naming the thread, as Slack's threads are, so a channel keeps one history.
func (a *Adapter) convert(ctx context.Context, m discord.Message) (cm chat.Message, ok bool, err error) {
	channel, thread, dm, err := a.placeOf(ctx, m)
	if err != nil {
		return cm, false, err
	}
	sender := userOf(m.Author, nil)
	if m.Member != nil {
		sender = userOf(m.Author, m.Member.Nick)
	}
	if m.WebhookID != nil || m.Author.System {
		sender.IsBot = true
	}
	a.dir.setUser(sender)
	for _, u := range m.Mentions {
		a.dir.setUser(userOf(u, nil))
	}
	if dm {
		a.dir.addDM(channel, sender)
	}
	bot := a.Bot()
	text, mentioned := a.fromDiscord(m.Content, bot.ID, a.rolesFor(ctx, m)...)
	for _, u := range m.Mentions {
		mentioned = mentioned || u.ID.String() == bot.ID
	}
	// A reply to mom addresses mom even when its author switched the reply's ping off, which
	// leaves mom out of Mentions.
	mentioned = mentioned || repliesTo(m, bot.ID)
	// Bots never start runs: two bots answering each other would never stop.
	trigger := !sender.IsBot && (mentioned || dm)
	cm = chat.Message{
		ID: m.ID.String(), ChannelID: channel, TS: m.CreatedAt, Sender: sender, Text: text,
		IsMention: trigger, IsDM: dm, ReplyTo: thread,
	}
	if text != m.Content {
		cm.RawText = m.Content
	}
	if ref := m.MessageReference; ref != nil && ref.MessageID != nil {
		cm.Metadata = map[string]any{"replyToMessage": ref.MessageID.String()}
	}
	for _, f := range m.Attachments {
		cm.Attachments = append(cm.Attachments, a.download(ctx, channel, cm.TS, f))
	}
	return cm, strings.TrimSpace(cm.Text) != "" || len(cm.Attachments) > 0, nil
}

// repliesTo says whether m is a reply to a message of user: Discord sends the replied-to
// message along as referenced_message, with or without the reply's ping. A forward also
// references a message, but is no reply.
func repliesTo(m discord.Message, user string) bool {
	ref := m.MessageReference
	return ref != nil && ref.Type == discord.MessageReferenceTypeDefault &&
		m.ReferencedMessage != nil && m.ReferencedMessage.Author.ID.String() == user
}

// rolesFor returns the roles of m's guild when m mentions a role, so that the mentions read
// as the roles' names and the bot's own role counts as mentioning the bot. Role mentions are
// rare, so the roles are asked for when one comes, always current, rather than tracked. A
// failed lookup costs only the names.
func (a *Adapter) rolesFor(ctx context.Context, m discord.Message) []discord.Role {
	if m.GuildID == nil || !strings.Contains(m.Content, "<@&") {
		return nil
	}
	var roles []discord.Role
	err := a.rate.Do(ctx, func() (err error) {
		roles, err = rest.NewGuilds(a.client).GetRoles(*m.GuildID, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		a.log.Warn("could not read the roles of a Discord guild (GET /guilds/{guild}/roles); its role mentions read as @role",
			"guild", m.GuildID.String(), "err", explain(err))
		return nil
	}
	return roles
}

// placeOf says where a message is logged: its channel (a thread's parent for a message in a
// thread, with the thread's id), and whether it is a DM. A thread mom has not heard of yet is
// looked up once.
func (a *Adapter) placeOf(ctx context.Context, m discord.Message) (channel, thread string, dm bool, err error) {
	id := m.ChannelID.String()
	if m.GuildID == nil {
		return id, "", true, nil
	}
	if p, ok := a.dir.parentOf(id); ok {
		return p, id, false, nil
	}
	if a.dir.known(id) {
		return id, "", false, nil
	}
	var c discord.Channel
	err = a.rate.Do(ctx, func() (err error) {
		c, err = a.channels.GetChannel(m.ChannelID, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return "", "", false, fmt.Errorf("could not look up Discord channel %s (GET /channels/{id}): %w", id, explain(err))
	}
	gc, ok := c.(discord.GuildChannel)
	if !ok {
		return id, "", false, nil
	}
	a.dir.addChannel(gc)
	if p, ok := a.dir.parentOf(id); ok {
		return p, id, false, nil
	}
	return id, "", false, nil
}

// fromDiscord turns Discord's message markup into text for the model: the bot's own mention
// is removed (and reported), other people's become @username, channel links #name, custom
// emoji :name:. Role mentions become @name of the guild's roles, @role for one not among
// them; a mention of the bot's managed role counts as the bot's own.
func (a *Adapter) fromDiscord(text, botID string, roles ...discord.Role) (out string, mentioned bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '<')
		if i < 0 {
			b.WriteString(text)
			break
		}
		j := strings.IndexByte(text[i:], '>')
		if j < 0 {
			b.WriteString(text)
			break
		}
		inner := text[i+1 : i+j]
		repl, self, ok := a.entity(inner, botID, roles)
		if !ok {
			b.WriteString(text[:i+1])
			text = text[i+1:]
			continue
		}
		b.WriteString(text[:i])
		text = text[i+j+1:]
		if self {
			mentioned = true
			text = strings.TrimPrefix(text, " ") // "<@BOT> hi" reads "hi"
			continue
		}
		b.WriteString(repl)
	}
	return strings.TrimSpace(b.String()), mentioned
}

// entity renders the inside of one <…>; self says it mentions the bot, ok false that it is
// no Discord markup at all (a plain "<" in the text).
func (a *Adapter) entity(inner, botID string, roles []discord.Role) (text string, self, ok bool) {
	switch {
	case strings.HasPrefix(inner, "@&") && isID(inner[2:]):
		text, self = roleMention(inner[2:], botID, roles)
		return text, self, true
	case strings.HasPrefix(inner, "@"):
		id := strings.TrimPrefix(inner[1:], "!")
		if !isID(id) {
			return "", false, false
		}
		if id == botID {
			return "", true, true
		}
		if u, found := a.dir.user(id); found {
			return "@" + u.Username, false, true
		}
		return "@" + id, false, true
	case strings.HasPrefix(inner, "#") && isID(inner[1:]):
		if name, found := a.dir.channelName(inner[1:]); found {
			return "#" + name, false, true
		}
		return "#" + inner[1:], false, true
	case strings.HasPrefix(inner, ":") || strings.HasPrefix(inner, "a:"):
		parts := strings.Split(inner, ":") // "<:name:id>" or "<a:name:id>"
		if len(parts) == 3 && isID(parts[2]) {
			return ":" + parts[1] + ":", false, true
		}
	}
	return "", false, false
}

// roleMention renders a mention of role id. The role Discord creates for a bot when it is
// invited (managed, named like the bot, tags.bot_id naming it) sits next to the bot in the @
// list, and people pick it meaning the bot: it is the bot's mention (self).
func roleMention(id, botID string, roles []discord.Role) (text string, self bool) {
	for _, r := range roles {
		if r.ID.String() != id {
			continue
		}
		if r.Tags != nil && r.Tags.BotID != nil && r.Tags.BotID.String() == botID {
			return "", true
		}
		return "@" + r.Name, false
	}
	return "@role", false
}

func isID(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
