package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// guildWire is the part of a guild, channel and member the permission tests read.
type guildWire struct {
	OwnerID  string `json:"owner_id"`
	Code     int    `json:"code"`
	Roles    []any  `json:"roles"`
	Channels []struct {
		ID         string           `json:"id"`
		GuildID    *string          `json:"guild_id"`
		Overwrites []map[string]any `json:"permission_overwrites"`
	} `json:"channels"`
	Members []struct {
		User  struct{ ID string } `json:"user"`
		Roles []string            `json:"roles"`
	} `json:"members"`
}

// getJSON sends an authorized GET to the REST API and decodes the answer into v.
func getJSON(t *testing.T, s *Server, path string, v any) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/v10"+path, nil)
	req.Header.Set("Authorization", "Bot "+s.Token())
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("GET %s: %v in %s", path, err, data)
	}
	return resp.StatusCode
}

// TestGuildPermissionsOnTheWire: roles, owner and overwrites reach the client as Discord
// sends them, over REST and in GUILD_CREATE; someone outside the guild is an Unknown Member.
func TestGuildPermissionsOnTheWire(t *testing.T) {
	s := newTestServer(t)
	const bea, staff, secret = "1400000000000000002", "1600000000000000001", "1300000000000000002"
	s.AddUser(User{ID: bea, Username: "bea", NotMember: true})
	s.AddRole(Role{ID: staff, Name: "staff", Permissions: PermViewChannel})
	s.SetRoles(ada, staff)
	s.SetOwner(ada)
	s.AddChannel(Channel{ID: secret, Name: "secret", Overwrites: []Overwrite{
		{ID: s.GuildID(), Type: OverwriteRole, Deny: PermViewChannel},
		{ID: staff, Type: OverwriteRole, Allow: PermViewChannel | PermSendMessages},
	}})

	var m struct {
		User  struct{ ID string } `json:"user"`
		Roles []string            `json:"roles"`
	}
	if code := getJSON(t, s, "/guilds/"+s.GuildID()+"/members/"+ada, &m); code != 200 || m.User.ID != ada || len(m.Roles) != 1 || m.Roles[0] != staff {
		t.Errorf("ada's member = %d %+v", code, m)
	}
	var e guildWire
	if code := getJSON(t, s, "/guilds/"+s.GuildID()+"/members/"+bea, &e); code != 404 || e.Code != 10007 {
		t.Errorf("bea, outside the guild, = %d %+v; want 404 Unknown Member", code, e)
	}
	if code := getJSON(t, s, "/guilds/1200000000000000099/members/"+ada, &e); code != 404 || e.Code != 10004 {
		t.Errorf("another guild = %d %+v; want 404 Unknown Guild", code, e)
	}
	var g guildWire
	if code := getJSON(t, s, "/guilds/"+s.GuildID(), &g); code != 200 || g.OwnerID != ada || len(g.Roles) != 3 {
		t.Errorf("guild = %d %+v", code, g)
	}
	everyone := g.Roles[0].(map[string]any)
	if everyone["id"] != s.GuildID() || everyone["permissions"] != "309304872001" {
		t.Errorf("@everyone = %v; want the guild's id and the default permissions as a string", everyone)
	}
	botRole := g.Roles[1].(map[string]any)
	if tags, _ := botRole["tags"].(map[string]any); botRole["id"] != s.BotRoleID() || botRole["name"] != "mom" ||
		botRole["managed"] != true || botRole["permissions"] != "309237746688" || tags["bot_id"] != s.BotID() {
		t.Errorf("the bot's role = %v; want a managed role named after the bot, with tags.bot_id and the invite's permissions", botRole)
	}
	if _, tagged := g.Roles[2].(map[string]any)["tags"]; tagged {
		t.Errorf("staff has tags: %v", g.Roles[2])
	}
	var chans []struct {
		ID         string           `json:"id"`
		Overwrites []map[string]any `json:"permission_overwrites"`
	}
	if code := getJSON(t, s, "/guilds/"+s.GuildID()+"/channels", &chans); code != 200 || len(chans) != 2 || chans[1].ID != secret {
		t.Fatalf("channels = %d %+v", code, chans)
	}
	if ow := chans[1].Overwrites; len(ow) != 2 || ow[0]["deny"] != "1024" || ow[0]["allow"] != "0" || ow[1]["allow"] != "3072" || ow[1]["type"] != float64(OverwriteRole) {
		t.Errorf("secret's overwrites = %v", ow)
	}

	c := dial(t, s, "?v=10&encoding=json")
	c.must()
	identify(c, s.Token(), allIntents)
	var gc guildWire
	json.Unmarshal(c.dispatch("GUILD_CREATE").D, &gc)
	if gc.OwnerID != ada || len(gc.Roles) != 3 || len(gc.Channels) != 2 || len(gc.Channels[1].Overwrites) != 2 {
		t.Errorf("GUILD_CREATE lacks the owner, roles or overwrites: %+v", gc)
	}
	if gc.Channels[0].GuildID != nil {
		t.Errorf("a channel inside GUILD_CREATE has guild_id %q; Discord leaves it out", *gc.Channels[0].GuildID)
	}
	for _, mb := range gc.Members {
		if mb.User.ID == bea {
			t.Error("GUILD_CREATE lists bea, who is not in the guild")
		}
		if mb.User.ID == s.BotID() && (len(mb.Roles) != 1 || mb.Roles[0] != s.BotRoleID()) {
			t.Errorf("the bot's member has roles %q; want its managed role", mb.Roles)
		}
	}
	s.SetRoles(ada)
	var upd struct {
		GuildID string   `json:"guild_id"`
		Roles   []string `json:"roles"`
	}
	if json.Unmarshal(c.dispatch("GUILD_MEMBER_UPDATE").D, &upd); upd.GuildID != s.GuildID() || len(upd.Roles) != 0 {
		t.Errorf("GUILD_MEMBER_UPDATE = %+v", upd)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}

// TestLeaveGuild: after DELETE /users/@me/guilds/{id} the bot hears GUILD_DELETE, the guild's
// messages are no longer dispatched (DMs still are), and its routes answer as Discord does to
// a bot outside the guild; a new session is not told of the guild at all.
func TestLeaveGuild(t *testing.T) {
	s := newTestServer(t)
	c := joined(t, s, allIntents)
	req, _ := http.NewRequest("DELETE", s.URL()+"/v10/users/@me/guilds/"+s.GuildID(), nil)
	req.Header.Set("Authorization", "Bot "+s.Token())
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || !s.Left() {
		t.Fatalf("leave = %d, Left() = %v; want 204 and true", resp.StatusCode, s.Left())
	}
	var gone struct {
		ID          string `json:"id"`
		Unavailable *bool  `json:"unavailable"`
	}
	if json.Unmarshal(c.dispatch("GUILD_DELETE").D, &gone); gone.ID != s.GuildID() || gone.Unavailable != nil {
		t.Errorf("GUILD_DELETE = %+v; want the guild's id without unavailable", gone)
	}
	s.Say(general, ada, "anyone?")
	s.Say(adaDM, ada, "just us")
	var m struct {
		ChannelID string `json:"channel_id"`
	}
	if json.Unmarshal(c.dispatch("MESSAGE_CREATE").D, &m); m.ChannelID != adaDM {
		t.Errorf("the first message dispatched after leaving is in %s; want the DM, not the guild", m.ChannelID)
	}
	var e guildWire
	if code := getJSON(t, s, "/guilds/"+s.GuildID()+"/members/"+ada, &e); code != 404 || e.Code != 10004 {
		t.Errorf("the guild after leaving = %d %+v; want 404 Unknown Guild", code, e)
	}
	if code := getJSON(t, s, "/channels/"+general, &e); code != 403 || e.Code != 50001 {
		t.Errorf("a guild channel after leaving = %d %+v; want 403 Missing Access", code, e)
	}
	c2 := dial(t, s, "?v=10&encoding=json")
	c2.must()
	identify(c2, s.Token(), allIntents)
	var ready struct {
		Guilds []any `json:"guilds"`
	}
	if json.Unmarshal(c2.dispatch("READY").D, &ready); len(ready.Guilds) != 0 {
		t.Errorf("READY after leaving lists %v", ready.Guilds)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}
