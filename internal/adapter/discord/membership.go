package discord

import (
	"context"
	"fmt"
	"slices"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// guildLookups bounds the guilds asked about at once for one MemberChannels, so a bot in many
// guilds answers quickly without a burst Discord would rate-limit.
const guildLookups = 4

// MemberChannels returns the ids of the channels mom knows that userID may see now, for the
// sandbox's user isolation: the bot's DM with them, and the guild text channels where they
// have View Channel. A thread is logged in its channel, so the channel's permission decides.
// Membership, roles and overwrites change, so each guild is asked afresh (its member, its
// roles and owner, its channels) and nothing is remembered between calls. A guild whose
// lookup fails is left out; the error is returned only when every lookup failed.
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	user, err := snowflake.Parse(userID)
	if err != nil {
		return nil, fmt.Errorf("%q is not a Discord user id", userID)
	}
	ids := a.dir.dmsWith(userID)
	known := a.dir.guildChannels()
	guilds := make([]string, 0, len(known))
	for g := range known {
		guilds = append(guilds, g)
	}
	slices.Sort(guilds)

	visible, err := chat.AskAll(guilds, guildLookups, func(g string) ([]string, error) {
		return a.visibleIn(ctx, g, user, known[g])
	}, func(g string, err error) {
		a.log.Warn("could not tell which channels of a guild a person may see; their commands will not see them", "user", userID, "guild", g, "err", err)
	})
	if err != nil {
		return nil, fmt.Errorf("could not ask Discord which channels %s may see in any of the %d guilds mom knows: %w", userID, len(guilds), err)
	}
	ids = append(ids, visible...)
	slices.Sort(ids)
	return ids, nil
}

// visibleIn returns the channels among known (ids of guild's text channels) that user may
// view. Someone who is not in the guild sees none of them.
func (a *Adapter) visibleIn(ctx context.Context, guildID string, user snowflake.ID, known []string) ([]string, error) {
	guild, err := snowflake.Parse(guildID)
	if err != nil {
		return nil, fmt.Errorf("%q is not a Discord guild id", guildID)
	}
	members, guilds := rest.NewMembers(a.client), rest.NewGuilds(a.client)
	var member *discord.Member
	err = a.rate.Do(ctx, func() (err error) {
		member, err = members.GetMember(guild, user, rest.WithCtx(ctx))
		return err
	})
	if rest.IsJSONErrorCode(err, rest.JSONErrorCodeUnknownMember) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("could not look up %s in guild %s (GET /guilds/{guild}/members/{user}): %w", user, guildID, explain(err))
	}
	var g *discord.RestGuild
	err = a.rate.Do(ctx, func() (err error) {
		g, err = guilds.GetGuild(guild, false, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("could not read the roles of guild %s (GET /guilds/{guild}): %w", guildID, explain(err))
	}
	var channels []discord.GuildChannel
	err = a.rate.Do(ctx, func() (err error) {
		channels, err = guilds.GetGuildChannels(guild, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("could not read the channels of guild %s (GET /guilds/{guild}/channels): %w", guildID, explain(err))
	}
	var ids []string
	for _, c := range channels {
		id := c.ID().String()
		if slices.Contains(known, id) && permissionsIn(g, user, member.RoleIDs, c).Has(discord.PermissionViewChannel) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// permissionsIn computes what a member with roles may do in channel c of guild g, the way
// Discord documents it (Permissions → Permission Overwrites): the owner may do everything;
// otherwise @everyone's permissions and those of their roles, everything with Administrator;
// then the channel's @everyone overwrite, their roles' overwrites together, and their own
// overwrite last, each denying before it allows.
//
// disgo's cache.Caches.MemberPermissionsInChannel is not used: it applies the member's own
// overwrite together with their roles' overwrites, so a member deny would not beat a role
// allow as Discord's documentation says it does.
func permissionsIn(g *discord.RestGuild, user snowflake.ID, roles []snowflake.ID, c discord.GuildChannel) discord.Permissions {
	if g.OwnerID == user {
		return discord.PermissionsAll
	}
	var perms discord.Permissions
	for _, r := range g.Roles {
		if r.ID == g.ID || slices.Contains(roles, r.ID) {
			perms = perms.Add(r.Permissions)
		}
	}
	if perms.Has(discord.PermissionAdministrator) {
		return discord.PermissionsAll
	}
	ows := c.PermissionOverwrites()
	if o, ok := ows.Role(g.ID); ok {
		perms = perms.Remove(o.Deny).Add(o.Allow)
	}
	var allow, deny discord.Permissions
	for _, r := range roles {
		if o, ok := ows.Role(r); ok && r != g.ID {
			allow, deny = allow.Add(o.Allow), deny.Add(o.Deny)
		}
	}
	perms = perms.Remove(deny).Add(allow)
	if o, ok := ows.Member(user); ok {
		perms = perms.Remove(o.Deny).Add(o.Allow)
	}
	return perms
}
