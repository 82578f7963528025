package discord

import (
	"context"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
)

// TestRepliesAndRolesAddressTheBot: a reply to the bot addresses it with or without the
// reply's ping, a reply to someone else does not; a mention of the bot's managed role is the
// bot's mention, removed from the text, and other roles read as @name.
func TestRepliesAndRolesAddressTheBot(t *testing.T) {
	a, s, in := startAdapter(t)
	oncall := s.AddRole(fakediscord.Role{Name: "on call"})
	answer, err := a.Post(context.Background(), chat.Place{ChannelID: general}, "the answer")
	if err != nil {
		t.Fatal(err)
	}
	chatter := s.Say(general, bea, "chatter")
	s.Say(general, ada, "quiet reply", fakediscord.InReplyTo(answer), fakediscord.NoPing())
	s.Say(general, ada, "reply to bea", fakediscord.InReplyTo(chatter), fakediscord.NoPing())
	s.Say(general, ada, "<@&"+s.BotRoleID()+"> which role?")
	s.Say(general, bea, "page <@&"+oncall+"> now")
	eventually(t, "five messages", func() bool { return len(in.All()) == 5 })
	for i, want := range []struct {
		text    string
		mention bool
	}{
		{"chatter", false}, {"quiet reply", true}, {"reply to bea", false},
		{"which role?", true}, {"page @on call now", false},
	} {
		if m := in.All()[i]; m.Text != want.text || m.IsMention != want.mention {
			t.Errorf("message %d = %q (mention %v); want %q (mention %v)", i, m.Text, m.IsMention, want.text, want.mention)
		}
	}
	if n := len(s.Calls("GET /guilds/{id}/roles")); n != 2 {
		t.Errorf("%d role lookups; want one for each message with a role mention", n)
	}
}

// TestThreadRefusedRepliesBelow: where Discord refuses to start a thread (403 Missing
// Permissions), a post "in the thread" of a message replies below that message instead.
func TestThreadRefusedRepliesBelow(t *testing.T) {
	a, s, _ := startAdapter(t)
	s.SetOwner(ada)
	s.SetOverwrites(general, fakediscord.Overwrite{ID: s.BotRoleID(), Type: fakediscord.OverwriteRole,
		Deny: fakediscord.PermCreatePublicThreads})
	ctx := context.Background()
	answer, err := a.Post(ctx, chat.Place{ChannelID: general}, "the answer")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Post(ctx, chat.Place{ChannelID: general, ThreadOf: answer}, "a detail"); err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages(general)
	if len(msgs) != 2 || msgs[0].Thread != "" || msgs[1].Content != "a detail" || msgs[1].Reference != answer {
		t.Errorf("channel = %+v; want the detail replying to the answer", msgs)
	}
	if calls := s.Calls("POST /channels/{id}/messages/{id}/threads"); len(calls) != 1 || calls[0].Status != 403 {
		t.Errorf("thread calls = %+v; want one refused", calls)
	}
}
