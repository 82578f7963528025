package discord

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
)

// The people and places of the permission tests, beside ada, bea, #general and ada's DM.
const (
	oli     = "1400000000000000010" // owns the guild
	cat     = "1400000000000000011" // staff, but shut out of #private by her own overwrite
	dan     = "1400000000000000012" // an administrator by role
	eve     = "1400000000000000013" // not in the guild; she only DMs the bot
	staff   = "1600000000000000001" // the role #private lets in
	admins  = "1600000000000000002" // a role with Administrator
	private = "1300000000000000002" // @everyone denied View Channel, staff allowed
	closed  = "1300000000000000003" // @everyone denied View Channel, nobody allowed
	eveDM   = "1500000000000000002"
)

// TestMemberChannels: under user isolation a run sees the channels the person who asked may
// view, as Discord computes it: the owner and administrators see every channel, others what
// @everyone, their roles and their own overwrites leave them; someone outside the guild sees
// none of it; each sees only their own DM with the bot.
func TestMemberChannels(t *testing.T) {
	s, st := newGuild(t)
	s.AddUser(fakediscord.User{ID: oli, Username: "oli"})
	s.SetOwner(oli)
	s.AddUser(fakediscord.User{ID: cat, Username: "cat", Roles: []string{staff}})
	s.AddUser(fakediscord.User{ID: dan, Username: "dan", Roles: []string{admins}})
	s.AddUser(fakediscord.User{ID: eve, Username: "eve", NotMember: true})
	s.AddRole(fakediscord.Role{ID: staff, Name: "staff", Position: 1})
	s.AddRole(fakediscord.Role{ID: admins, Name: "admins", Permissions: fakediscord.PermAdministrator, Position: 2})
	s.SetRoles(ada, staff)
	view := fakediscord.PermViewChannel
	s.AddChannel(fakediscord.Channel{ID: private, Name: "private", Overwrites: []fakediscord.Overwrite{
		{ID: s.GuildID(), Type: fakediscord.OverwriteRole, Deny: view},
		{ID: staff, Type: fakediscord.OverwriteRole, Allow: view},
		{ID: cat, Type: fakediscord.OverwriteMember, Deny: view},
	}})
	s.AddChannel(fakediscord.Channel{ID: closed, Name: "closed", Overwrites: []fakediscord.Overwrite{
		{ID: s.GuildID(), Type: fakediscord.OverwriteRole, Deny: view},
	}})
	root := s.Say(private, ada, "plans")
	s.AddChannel(fakediscord.Channel{ID: root, Name: "plans", Kind: fakediscord.KindThread, Parent: private})
	s.AddChannel(fakediscord.Channel{ID: eveDM, Kind: fakediscord.KindDM, Recipient: eve})
	// Eve's DM is known from its log (mom learns whom it is with at start); ada's from her
	// message.
	logged(t, st, eveDM, chat.Message{ID: s.Say(eveDM, eve, "hello"), TS: time.Now(), Text: "hello"})
	a, _ := startOn(t, s, st)
	s.Say(adaDM, ada, "psst")
	eventually(t, "both DMs known", func() bool { return a.dir.isDM(adaDM) && a.dir.isDM(eveDM) })

	ctx := context.Background()
	everything := []string{general, private, closed}
	for _, tt := range []struct {
		who  string
		user string
		want []string
	}{
		{"the owner", oli, everything},
		{"a staff member", ada, []string{general, private, adaDM}},
		{"a member without roles", bea, []string{general}},
		{"a staff member denied by her own overwrite", cat, []string{general}},
		{"an administrator", dan, everything},
		{"someone outside the guild", eve, []string{eveDM}},
	} {
		got, err := a.MemberChannels(ctx, tt.user)
		want := slices.Sorted(slices.Values(tt.want))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s sees %q, %v; want %q", tt.who, got, err, want)
		}
	}
	// A non-member costs one lookup; nothing was remembered from one call to the next.
	if n := len(s.Calls("GET /guilds/{id}/members/{id}")); n != 6 {
		t.Errorf("%d member lookups for 6 calls; want one each", n)
	}
	if n := len(s.Calls("GET /guilds/{id}")); n != 5 {
		t.Errorf("%d guild lookups for 5 members; want one each", n)
	}

	// What changes in Discord counts at once: ada loses staff, #general closes to bea.
	s.SetRoles(ada)
	s.SetOverwrites(general, fakediscord.Overwrite{ID: bea, Type: fakediscord.OverwriteMember, Deny: view})
	if got, err := a.MemberChannels(ctx, ada); err != nil || !slices.Equal(got, []string{general, adaDM}) {
		t.Errorf("ada without staff sees %q, %v", got, err)
	}
	if got, err := a.MemberChannels(ctx, bea); err != nil || len(got) != 0 {
		t.Errorf("bea shut out of #general sees %q, %v", got, err)
	}
}

// TestMemberChannelsFailures: a rate limit is waited out; a guild that cannot be asked about
// is left out, and only when no guild could be asked is it an error.
func TestMemberChannelsFailures(t *testing.T) {
	a, s, _ := startAdapter(t)
	ctx := context.Background()
	s.RateLimit("GET /guilds/{id}/members/{id}", 1, 50*time.Millisecond)
	if got, err := a.MemberChannels(ctx, bea); err != nil || !slices.Equal(got, []string{general}) {
		t.Errorf("after a 429 bea sees %q, %v", got, err)
	}

	// A guild the bot was removed from answers Unknown Guild.
	const gone, goneGuild = "1300000000000000099", "1200000000000000099"
	a.dir.mu.Lock()
	a.dir.chans[gone] = chat.Channel{ID: gone, Name: "gone", Kind: chat.KindChannel}
	a.dir.guilds[gone] = goneGuild
	a.dir.mu.Unlock()
	if got, err := a.MemberChannels(ctx, bea); err != nil || !slices.Equal(got, []string{general}) {
		t.Errorf("with one guild failing bea sees %q, %v; want the other guild's channels", got, err)
	}

	// With #general gone too, no guild can be asked about: that is an error, not "none".
	a.dir.removeChannel(general)
	if got, err := a.MemberChannels(ctx, bea); err == nil || !strings.Contains(err.Error(), "Unknown Guild") {
		t.Errorf("with every guild failing bea got %q, %v; want the lookup's error", got, err)
	}
	if _, err := a.MemberChannels(ctx, "bea"); err == nil || !strings.Contains(err.Error(), `"bea"`) {
		t.Errorf("a user id that is no snowflake got %v", err)
	}
}
