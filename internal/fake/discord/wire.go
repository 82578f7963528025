package fakediscord

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// The JSON shapes Discord sends, as maps and small structs: only fields Discord documents, with
// Discord's names.

type wireAttachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
	ContentType string `json:"content_type,omitempty"`
}

// wireUser is a user object. Call it with s.mu held.
func (s *Server) wireUser(id string) map[string]any {
	u := s.users[id]
	if u == nil {
		return map[string]any{"id": id, "username": id, "discriminator": "0", "global_name": nil, "avatar": nil, "bot": false}
	}
	var global any
	if u.GlobalName != "" {
		global = u.GlobalName
	}
	return map[string]any{"id": u.ID, "username": u.Username, "discriminator": "0", "global_name": global,
		"avatar": nil, "bot": u.Bot, "public_flags": 0}
}

// wireMember is a guild member object, with its user unless the object goes inside a message
// (whose author is the user already).
func (s *Server) wireMember(id string, withUser bool) map[string]any {
	u := s.users[id]
	var nick any
	if u != nil && u.Nick != "" {
		nick = u.Nick
	}
	roles := []string{}
	if u != nil && u.Roles != nil {
		roles = u.Roles
	}
	m := map[string]any{"nick": nick, "roles": roles, "joined_at": "2024-01-01T00:00:00.000000+00:00",
		"deaf": false, "mute": false, "flags": 0, "pending": false}
	if withUser {
		m["user"] = s.wireUser(id)
	}
	return m
}

// wireChannel is a channel object. Call it with s.mu held.
func (s *Server) wireChannel(ch *channel) map[string]any {
	c := map[string]any{"id": ch.ID, "type": ch.Kind, "flags": 0}
	switch ch.Kind {
	case KindDM:
		c["recipients"] = []any{s.wireUser(ch.Recipient)}
		c["last_message_id"] = nil
	case KindThread:
		c["guild_id"] = s.cfg.guildID
		c["parent_id"] = ch.Parent
		c["name"] = ch.Name
		c["owner_id"] = s.cfg.botID
		c["message_count"] = len(ch.msgs)
		c["member_count"] = 1
		c["rate_limit_per_user"] = 0
		c["thread_metadata"] = map[string]any{"archived": false, "auto_archive_duration": 1440,
			"archive_timestamp": time.Now().UTC().Format(time.RFC3339Nano), "locked": false}
	default:
		c["guild_id"] = s.cfg.guildID
		c["name"] = ch.Name
		c["position"] = 0
		c["permission_overwrites"] = wireOverwrites(ch.Overwrites)
		c["nsfw"] = false
		c["topic"] = nil
		c["parent_id"] = nil
		c["rate_limit_per_user"] = 0
	}
	return c
}

// wireMessage is a message object; withContent false withholds what the MESSAGE_CONTENT
// intent guards. A reply carries the message it replies to as referenced_message (null when
// that was deleted), itself without its own referenced_message. Call it with s.mu held.
func (s *Server) wireMessage(ch *channel, m *message, withContent bool) map[string]any {
	return s.wireMessageAt(ch, m, withContent, true)
}

func (s *Server) wireMessageAt(ch *channel, m *message, withContent, withReferenced bool) map[string]any {
	mentions := []any{}
	for _, id := range s.mentionsOf(ch, m) {
		mentions = append(mentions, s.wireUser(id))
	}
	roles := []any{}
	for _, id := range markupIDs(m.Content, "@&") {
		if _, ok := s.role(id); ok && !slices.Contains(roles, any(id)) {
			roles = append(roles, id)
		}
	}
	var edited any
	if m.Edits > 0 {
		edited = time.Now().UTC().Format(time.RFC3339Nano)
	}
	w := map[string]any{
		"id": m.ID, "channel_id": ch.ID, "author": s.wireUser(m.Author), "content": m.Content,
		"timestamp": m.at.UTC().Format("2006-01-02T15:04:05.000000+00:00"), "edited_timestamp": edited,
		"tts": false, "mention_everyone": false, "mentions": mentions, "mention_roles": roles,
		"attachments": m.atts, "embeds": []any{}, "pinned": false, "type": 0, "flags": 0,
		"components": wireComponents(m.rows),
	}
	if m.atts == nil {
		w["attachments"] = []any{}
	}
	if ch.Kind != KindDM {
		w["guild_id"] = s.cfg.guildID
		if u := s.users[m.Author]; u != nil && !u.Bot && !u.NotMember {
			w["member"] = s.wireMember(m.Author, false)
		}
	}
	if m.Reference != "" {
		w["type"] = 19 // REPLY
		w["message_reference"] = map[string]any{"type": 0, "message_id": m.Reference, "channel_id": ch.ID,
			"guild_id": w["guild_id"]}
		if withReferenced {
			w["referenced_message"] = nil
			if ref := ch.find(m.Reference); ref != nil {
				w["referenced_message"] = s.wireMessageAt(ch, ref, withContent, false)
			}
		}
	}
	if in := m.via; in != nil && in.kind == interactionTypeCommand {
		// The response to a slash command: Discord shows who used which command above it.
		w["type"] = 20 // CHAT_INPUT_COMMAND
		owners := map[string]any{"1": in.UserID}
		if ch.Kind != KindDM {
			owners = map[string]any{"0": s.cfg.guildID}
		}
		w["interaction_metadata"] = map[string]any{"id": in.ID, "type": interactionTypeCommand, "name": in.Command,
			"user": s.wireUser(in.UserID), "authorizing_integration_owners": owners}
		w["interaction"] = map[string]any{"id": in.ID, "type": interactionTypeCommand, "name": in.Command, "user": s.wireUser(in.UserID)}
	}
	if !withContent {
		w["content"] = ""
		w["attachments"] = []any{}
		w["embeds"] = []any{}
	}
	return w
}

// mentionsOf lists the users a message mentions: <@id> and <@!id> in its content, and the
// author of the message it replies to unless the reply was sent without its ping (replies
// ping by default; a person can switch that off, a bot's allowed_mentions decides). Call it
// with s.mu held.
func (s *Server) mentionsOf(ch *channel, m *message) []string {
	var ids []string
	add := func(id string) {
		if s.users[id] != nil && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range markupIDs(m.Content, "@!", "@") {
		add(id)
	}
	if m.Reference != "" && !m.noPing {
		if ref := ch.find(m.Reference); ref != nil && ref.Author != m.Author {
			add(ref.Author)
		}
	}
	return ids
}

// markupIDs returns the ids of the markup "<" + prefix + id + ">" in text, in order, for the
// first of prefixes that fits each: markupIDs(text, "@!", "@") finds user mentions,
// markupIDs(text, "@&") role mentions.
func markupIDs(text string, prefixes ...string) []string {
	var ids []string
	for {
		i := strings.IndexByte(text, '<')
		if i < 0 {
			return ids
		}
		text = text[i+1:]
		for _, p := range prefixes {
			rest, ok := strings.CutPrefix(text, p)
			if !ok {
				continue
			}
			id, _, closed := strings.Cut(rest, ">")
			if closed && id != "" && strings.Trim(id, "0123456789") == "" {
				ids = append(ids, id)
			}
			break
		}
	}
}

// wireGuild is the GUILD_CREATE payload: the guild object with its text channels, active
// threads and members. Without the GUILD_MEMBERS intent Discord sends only the bot's own
// member. The channels and threads come without guild_id, as Discord sends them inside a
// guild. Call it with s.mu held.
func (s *Server) wireGuild(intents int64) map[string]any {
	channels, threads, members, count := []any{}, []any{}, []any{}, 0
	for _, id := range s.chOrder {
		ch := s.channels[id]
		c := s.wireChannel(ch)
		delete(c, "guild_id")
		switch ch.Kind {
		case KindText:
			channels = append(channels, c)
		case KindThread:
			threads = append(threads, c)
		}
	}
	for _, id := range s.order {
		if !s.isMember(id) {
			continue
		}
		count++
		if id == s.cfg.botID || intents&IntentGuildMembers != 0 {
			members = append(members, s.wireMember(id, true))
		}
	}
	g := s.wireGuildObject()
	for k, v := range map[string]any{
		"unavailable": false, "large": false, "member_count": count,
		"joined_at": "2024-01-01T00:00:00.000000+00:00", "channels": channels, "threads": threads,
		"members": members, "voice_states": []any{}, "presences": []any{}, "stage_instances": []any{},
		"guild_scheduled_events": []any{}, "soundboard_sounds": []any{},
	} {
		g[k] = v
	}
	return g
}

// wireGuildObject is the guild object, as Get Guild answers it: its owner and roles among
// the rest. Call it with s.mu held.
func (s *Server) wireGuildObject() map[string]any {
	return map[string]any{
		"id": s.cfg.guildID, "name": s.cfg.guild, "icon": nil, "splash": nil, "discovery_splash": nil,
		"owner_id": s.owner, "afk_channel_id": nil, "afk_timeout": 300, "verification_level": 0,
		"default_message_notifications": 0, "explicit_content_filter": 0, "roles": s.wireRoles(),
		"emojis": []any{}, "features": []any{}, "mfa_level": 0, "application_id": nil,
		"system_channel_id": nil, "system_channel_flags": 0, "rules_channel_id": nil,
		"vanity_url_code": nil, "description": nil, "banner": nil, "premium_tier": 0,
		"preferred_locale": "en-US", "public_updates_channel_id": nil, "nsfw_level": 0,
		"stickers": []any{}, "premium_progress_bar_enabled": false,
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
