package discord

import (
	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/gateway"
)

// onEvent takes every dispatch the gateway delivers. It runs on the connection's reading
// goroutine, so it only files things: messages go to their channel's lane, where the slow
// parts happen.
func (a *Adapter) onEvent(_ gateway.EventType, data gateway.EventData) {
	d := a.dir
	switch e := data.(type) {
	case gateway.EventReady:
		a.applicationOf(e.Application.ID)
		a.mu.Lock()
		a.pending = map[string]bool{}
		for _, g := range e.Guilds {
			a.pending[g.ID.String()] = true
		}
		a.mu.Unlock()
		a.guildArrived("")
	case gateway.EventResumed:
		a.log.Info("resumed the Discord session")
	case gateway.EventGuildCreate:
		for _, c := range e.Channels {
			// Discord leaves guild_id out of the channels inside a guild.
			d.addChannel(discord.ApplyGuildIDToChannel(c, e.ID))
		}
		for _, t := range e.Threads {
			d.addChannel(t)
		}
		for _, m := range e.Members {
			d.setUser(userOf(m.User, m.Nick))
		}
		a.guildArrived(e.ID.String())
	case gateway.EventGuildDelete:
		// Without "unavailable" the bot left or was removed; an outage keeps what mom knows.
		if !e.Unavailable {
			d.forgetGuild(e.ID.String())
		}
	case gateway.EventChannelCreate:
		d.addChannel(e.GuildChannel)
	case gateway.EventChannelUpdate:
		d.addChannel(e.GuildChannel)
	case gateway.EventChannelDelete:
		d.removeChannel(e.ID().String())
	case gateway.EventThreadCreate:
		d.addChannel(e.GuildThread)
	case gateway.EventThreadDelete:
		d.removeChannel(e.ID.String())
	case gateway.EventGuildMemberAdd:
		d.setUser(userOf(e.User, e.Nick))
	case gateway.EventGuildMemberUpdate:
		d.setUser(userOf(e.User, e.Nick))
	case gateway.EventGuildMemberRemove:
		d.removeUser(e.User.ID.String())
	case gateway.EventMessageCreate:
		a.onMessage(e.Message)
	case gateway.EventInteractionCreate:
		a.onInteraction(e.Interaction)
	}
}

// guildArrived crosses a guild off the list READY announced; Start waits for the list to
// empty, so the first prompt already knows the guild's people and channels.
func (a *Adapter) guildArrived(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pending == nil || a.synced == nil {
		return
	}
	delete(a.pending, id)
	if len(a.pending) == 0 {
		select {
		case <-a.synced:
		default:
			close(a.synced)
		}
	}
}
