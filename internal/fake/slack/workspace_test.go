package fakeslack_test

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// TestWorkspaceEvents: a new member, a new channel and an archived one reach the client as
// Slack's events, which slack-go reads into its own types, and the Web API agrees with them.
func TestWorkspaceEvents(t *testing.T) {
	srv := start(t)
	srv.AddChannel(fakeslack.Channel{ID: "G1", Name: "secret", Kind: fakeslack.KindPrivate, BotMember: true})
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)
	api := client(srv)

	srv.JoinTeam(fakeslack.User{ID: "U3", Name: "cyd", RealName: "Cyd Example"})
	e, data := c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if j, ok := data.(*slackevents.TeamJoinEvent); !ok || j.User == nil || j.User.ID != "U3" || j.User.Name != "cyd" || j.User.RealName != "Cyd Example" {
		t.Fatalf("team_join = %#v", data)
	}
	if u, err := api.GetUserInfoContext(ctxT(t), "U3"); err != nil || u.Name != "cyd" {
		t.Errorf("users.info U3 = %+v, %v", u, err)
	}

	srv.CreateChannel("C3", "launch", "U1")
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if cc, ok := data.(*slackevents.ChannelCreatedEvent); !ok || cc.Channel.ID != "C3" || cc.Channel.Name != "launch" || cc.Channel.Creator != "U1" || !cc.Channel.IsChannel {
		t.Fatalf("channel_created = %#v", data)
	}
	if ch, err := api.GetConversationInfoContext(ctxT(t), &slack.GetConversationInfoInput{ChannelID: "C3"}); err != nil || ch.Name != "launch" || ch.IsMember {
		t.Errorf("conversations.info C3 = %+v, %v; want it without the bot", ch, err)
	}

	srv.ArchiveChannel("C1", "U1")
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if a, ok := data.(*slackevents.ChannelArchiveEvent); !ok || a.Channel != "C1" || a.User != "U1" {
		t.Fatalf("channel_archive = %#v", data)
	}
	if _, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("hi", false)); slackErr(err) != "is_archived" {
		t.Errorf("posting into an archived channel: %v, want is_archived", err)
	}
	chans, _, err := api.GetConversationsContext(ctxT(t), &slack.GetConversationsParameters{ExcludeArchived: true})
	for _, ch := range chans {
		if ch.ID == "C1" || err != nil {
			t.Errorf("conversations.list excluding archived channels lists %s (%v)", ch.ID, err)
		}
	}
	srv.UnarchiveChannel("C1", "U2")
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if a, ok := data.(*slackevents.ChannelUnarchiveEvent); !ok || a.Channel != "C1" || a.User != "U2" {
		t.Fatalf("channel_unarchive = %#v", data)
	}

	srv.ArchiveChannel("G1", "U1")
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if a, ok := data.(*slackevents.GroupArchiveEvent); !ok || a.Channel != "G1" {
		t.Fatalf("group_archive = %#v", data)
	}
	srv.WaitFor(t, "acks", func() bool { return len(srv.Unacked()) == 0 })
	noViolations(t, srv)
}
