package discord

import (
	"context"
	"testing"
	"time"

	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// TestFindPostFindsTheBotsOwnMessage: FindPost finds the oldest of the bot's messages between
// two moments with exactly the text asked for, in a channel or in the thread Post put a
// message into; not an older one, not a newer one, not a person's, not one that says
// something else.
func TestFindPostFindsTheBotsOwnMessage(t *testing.T) {
	a, s, _ := startAdapter(t)
	ctx := context.Background()
	top := chat.Place{ChannelID: general}
	post := func(at chat.Place, text string) string {
		t.Helper()
		id, err := a.Post(ctx, at, text)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	post(top, "*Thinking…*") // before the question: not the one
	q := s.Say(general, ada, "<@"+s.BotID()+"> a question")
	id, _ := snowflake.Parse(q)
	since := id.Time()
	s.Say(general, bea, "*Thinking…*")
	want := post(top, "*Thinking…*")
	post(top, "*Thinking…*")
	post(top, "an answer")
	thread := chat.Place{ChannelID: general, ThreadOf: q, Topic: "a question"}
	inThread := post(thread, "*Thinking…*")

	later := time.Now().Add(time.Minute)
	wantID, _ := snowflake.Parse(want)
	for _, c := range []struct {
		at           chat.Place
		since, until time.Time
		text, want   string
	}{
		{top, since, later, "*Thinking…*", want},
		{thread, since, later, "*Thinking…*", inThread},
		{top, since, later, "*Restarted*", ""},
		{top, since, wantID.Time(), "*Thinking…*", ""}, // posted from until on: a newer mom's
		{top, later, later.Add(time.Minute), "*Thinking…*", ""},
	} {
		got, err := a.FindPost(ctx, c.at, c.since, c.until, c.text)
		if err != nil || got != c.want {
			t.Errorf("FindPost(%+v, %v–%v, %q) = %q, %v; want %q", c.at, c.since, c.until, c.text, got, err, c.want)
		}
	}
}
