package fakediscord

import (
	"net/http"
	"slices"
	"strconv"
)

// Permission bits the tests name (Discord's permission flags; a permission set goes over the
// wire as a decimal string).
const (
	PermCreateInstantInvite int64 = 1 << 0
	PermAdministrator       int64 = 1 << 3
	PermAddReactions        int64 = 1 << 6
	PermViewChannel         int64 = 1 << 10
	PermSendMessages        int64 = 1 << 11
	PermEmbedLinks          int64 = 1 << 14
	PermAttachFiles         int64 = 1 << 15
	PermReadMessageHistory  int64 = 1 << 16
	PermChangeNickname      int64 = 1 << 26
	PermCreatePublicThreads int64 = 1 << 35
	PermSendInThreads       int64 = 1 << 38

	// PermDefaultEveryone is what a new server's @everyone role may do, in the part that
	// matters for text: everyone sees and writes in every channel no overwrite closes.
	PermDefaultEveryone = PermCreateInstantInvite | PermAddReactions | PermViewChannel | PermSendMessages |
		PermEmbedLinks | PermAttachFiles | PermReadMessageHistory | PermChangeNickname |
		PermCreatePublicThreads | PermSendInThreads

	// PermBotInvite is what mom's invite URL in the README asks for, so what Discord gives the
	// bot's managed role: View Channels, Send Messages, Send Messages in Threads, Create Public
	// Threads, Attach Files and Read Message History (309237746688).
	PermBotInvite = PermViewChannel | PermSendMessages | PermSendInThreads | PermCreatePublicThreads |
		PermAttachFiles | PermReadMessageHistory
)

// Permission overwrite targets, as Discord's overwrite types.
const (
	OverwriteRole   = 0
	OverwriteMember = 1
)

// Role is a guild role. The guild's @everyone role has the guild's id; every guild has it.
type Role struct {
	ID   string
	Name string
	// Permissions are the role's permission bits (Perm…).
	Permissions int64
	Position    int
	// BotID makes the role a bot's managed role (managed, with tags.bot_id): the one Discord
	// creates for a bot invited with permissions (BotRoleID), which no person can be given.
	BotID string
}

// Overwrite allows or denies permissions in one channel to a role (Type OverwriteRole, ID the
// role's, the guild's id for @everyone) or to one member (Type OverwriteMember, ID the
// user's).
type Overwrite struct {
	ID          string
	Type        int
	Allow, Deny int64
}

// AddRole adds a role to the guild, or changes the role with that id (the guild's id for
// @everyone). A role with an empty ID gets one. Connected clients hear of it through
// GUILD_ROLE_CREATE or GUILD_ROLE_UPDATE.
func (s *Server) AddRole(r Role) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.ID == "" {
		r.ID = s.snowflake()
	}
	event := "GUILD_ROLE_CREATE"
	if i := slices.IndexFunc(s.roles, func(x Role) bool { return x.ID == r.ID }); i >= 0 {
		s.roles[i], event = r, "GUILD_ROLE_UPDATE"
	} else {
		s.roles = append(s.roles, r)
	}
	s.dispatch(event, IntentGuilds, func(int64) any {
		return map[string]any{"guild_id": s.cfg.guildID, "role": wireRole(r)}
	})
	s.Notify()
	return r.ID
}

// SetOwner transfers the guild to a user, who may then do everything in every channel (the
// bot owns it at first). Connected clients hear of it through GUILD_UPDATE.
func (s *Server) SetOwner(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.owner = userID
	s.dispatch("GUILD_UPDATE", IntentGuilds, func(int64) any { return s.wireGuildObject() })
	s.Notify()
}

// SetRoles gives a member exactly these roles (ids; @everyone is implied), as a server admin
// can. Connected clients with the GUILD_MEMBERS intent hear of it through
// GUILD_MEMBER_UPDATE.
func (s *Server) SetRoles(userID string, roles ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	if u == nil {
		panic("fakediscord: no user " + userID)
	}
	u.Roles = slices.Clone(roles)
	s.dispatch("GUILD_MEMBER_UPDATE", IntentGuildMembers, func(int64) any {
		m := s.wireMember(userID, true)
		m["guild_id"] = s.cfg.guildID
		return m
	})
	s.Notify()
}

// SetOverwrites replaces a guild channel's permission overwrites. Connected clients hear of
// it through CHANNEL_UPDATE.
func (s *Server) SetOverwrites(channelID string, ows ...Overwrite) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	ch.Overwrites = slices.Clone(ows)
	s.dispatch("CHANNEL_UPDATE", IntentGuilds, func(int64) any { return s.wireChannel(ch) })
	s.Notify()
}

// isMember says whether a user is a member of the guild. Call it with s.mu held.
func (s *Server) isMember(id string) bool {
	u := s.users[id]
	return u != nil && !u.NotMember
}

// guildRoute answers the guild routes: Get Guild, Get Guild Channels (threads are not
// listed, as Discord lists them elsewhere), Get Guild Roles and Get Guild Member (404 Unknown
// Member for someone who is not in the guild). Call it with s.mu held.
func (s *Server) guildRoute(route string, seg []string) (int, any, *restError) {
	if seg[1] != s.cfg.guildID {
		return 0, nil, &restError{status: http.StatusNotFound, code: 10004, msg: "Unknown Guild"}
	}
	switch route {
	case "GET /guilds/{id}":
		return http.StatusOK, s.wireGuildObject(), nil
	case "GET /guilds/{id}/channels":
		out := []any{}
		for _, id := range s.chOrder {
			if ch := s.channels[id]; ch.Kind == KindText {
				out = append(out, s.wireChannel(ch))
			}
		}
		return http.StatusOK, out, nil
	case "GET /guilds/{id}/roles":
		return http.StatusOK, s.wireRoles(), nil
	default: // GET /guilds/{id}/members/{id}
		if !s.isMember(seg[3]) {
			return 0, nil, &restError{status: http.StatusNotFound, code: 10007, msg: "Unknown Member"}
		}
		return http.StatusOK, s.wireMember(seg[3], true), nil
	}
}

// wireRole is a role object; a bot's managed role carries tags with its bot_id.
func wireRole(r Role) map[string]any {
	w := map[string]any{"id": r.ID, "name": r.Name, "color": 0,
		"colors": map[string]any{"primary_color": 0, "secondary_color": nil, "tertiary_color": nil},
		"hoist":  false, "icon": nil, "unicode_emoji": nil, "position": r.Position,
		"permissions": strconv.FormatInt(r.Permissions, 10), "managed": r.BotID != "", "mentionable": false, "flags": 0}
	if r.BotID != "" {
		w["tags"] = map[string]any{"bot_id": r.BotID}
	}
	return w
}

// role finds a guild role by id. Call it with s.mu held.
func (s *Server) role(id string) (Role, bool) {
	i := slices.IndexFunc(s.roles, func(r Role) bool { return r.ID == id })
	if i < 0 {
		return Role{}, false
	}
	return s.roles[i], true
}

// permissions is what a member may do in a guild text channel, computed as Discord documents
// it: the owner and Administrator may do everything; otherwise @everyone's and their roles'
// permissions, then the channel's @everyone overwrite, their roles' overwrites together, and
// their own overwrite, each denying before it allows. Call it with s.mu held.
func (s *Server) permissions(userID string, ch *channel) int64 {
	const all = int64(1)<<53 - 1
	u := s.users[userID]
	if userID == s.owner {
		return all
	}
	var roles []string
	if u != nil {
		roles = u.Roles
	}
	var perms int64
	for _, r := range s.roles {
		if r.ID == s.cfg.guildID || slices.Contains(roles, r.ID) {
			perms |= r.Permissions
		}
	}
	if perms&PermAdministrator != 0 {
		return all
	}
	var allow, deny int64
	for _, o := range ch.Overwrites {
		switch {
		case o.Type == OverwriteRole && o.ID == s.cfg.guildID:
			perms = perms&^o.Deny | o.Allow
		case o.Type == OverwriteRole && slices.Contains(roles, o.ID):
			allow, deny = allow|o.Allow, deny|o.Deny
		}
	}
	perms = perms&^deny | allow
	for _, o := range ch.Overwrites {
		if o.Type == OverwriteMember && o.ID == userID {
			perms = perms&^o.Deny | o.Allow
		}
	}
	return perms
}

// wireRoles is the guild's roles, @everyone first. Call it with s.mu held.
func (s *Server) wireRoles() []any {
	out := make([]any, 0, len(s.roles))
	for _, r := range s.roles {
		out = append(out, wireRole(r))
	}
	return out
}

// wireOverwrites is a channel's permission_overwrites.
func wireOverwrites(ows []Overwrite) []any {
	out := make([]any, 0, len(ows))
	for _, o := range ows {
		out = append(out, map[string]any{"id": o.ID, "type": o.Type,
			"allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10)})
	}
	return out
}

// Left reports whether the bot has left the guild (DELETE /users/@me/guilds/{id}).
func (s *Server) Left() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.left
}

// leaveGuild is DELETE /users/@me/guilds/{id} (Leave Guild): the bot leaves, connected clients
// hear GUILD_DELETE without "unavailable", and from then on the guild and its channels are
// closed to the bot and its messages are no longer dispatched. Call it with s.mu held.
func (s *Server) leaveGuild(id string) (int, any, *restError) {
	if id != s.cfg.guildID || s.left {
		return 0, nil, &restError{status: http.StatusNotFound, code: 10004, msg: "Unknown Guild"}
	}
	s.dispatch("GUILD_DELETE", IntentGuilds, func(int64) any { return map[string]any{"id": s.cfg.guildID} })
	s.left = true
	s.Notify()
	return http.StatusNoContent, nil, nil
}

// outside answers a request about the guild, or one of its channels, after the bot has left
// it: 404 Unknown Guild, 403 Missing Access. Call it with s.mu held.
func (s *Server) outside(seg []string) *restError {
	if !s.left || len(seg) < 2 {
		return nil
	}
	switch seg[0] {
	case "guilds":
		return &restError{status: http.StatusNotFound, code: 10004, msg: "Unknown Guild"}
	case "channels":
		if ch := s.channels[seg[1]]; ch != nil && ch.Kind != KindDM {
			return missingAccess
		}
	}
	return nil
}
