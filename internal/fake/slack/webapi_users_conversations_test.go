package fakeslack_test

import (
	"slices"
	"testing"

	"github.com/slack-go/slack"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

func TestUsersConversations(t *testing.T) {
	srv := start(t)
	srv.AddChannel(fakeslack.Channel{ID: "G1", Name: "secret", Kind: fakeslack.KindPrivate, BotMember: true, Members: []string{"U1"}})
	srv.AddChannel(fakeslack.Channel{ID: "G2", Name: "hidden", Kind: fakeslack.KindPrivate, Members: []string{"U1"}})
	api := client(srv)
	ids := func(user string, types ...string) []string {
		t.Helper()
		var out []string
		cursor := ""
		for {
			page, next, err := api.GetConversationsForUserContext(ctxT(t), &slack.GetConversationsForUserParameters{
				UserID: user, Types: types, Cursor: cursor, Limit: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range page {
				out = append(out, c.ID)
			}
			if cursor = next; cursor == "" {
				return out
			}
		}
	}
	all := []string{"public_channel", "private_channel", "mpim", "im"}
	if got := ids("U1", all...); !slices.Equal(got, []string{"C1", "C2", "D1", "G1"}) {
		t.Errorf("U1 is in %v; want C1, C2, D1 and G1 (not G2, which the bot is not in)", got)
	}
	if got := ids("U2", all...); !slices.Equal(got, []string{"C1"}) {
		t.Errorf("U2 is in %v", got)
	}
	if got := ids("U1"); !slices.Equal(got, []string{"C1", "C2"}) {
		t.Errorf("default types: %v, want the public channels", got)
	}
	if _, _, err := api.GetConversationsForUserContext(ctxT(t), &slack.GetConversationsForUserParameters{UserID: "U9"}); slackErr(err) != "user_not_found" {
		t.Errorf("unknown user: %v", err)
	}
	if _, _, err := api.GetConversationsForUserContext(ctxT(t), &slack.GetConversationsForUserParameters{UserID: "U1", Types: []string{"dm"}}); slackErr(err) != "invalid_types" {
		t.Errorf("bad types: %v", err)
	}
	noViolations(t, srv)
}
