package discord

import (
	"context"
	"testing"
	"time"

	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// TestFindPostFindsTheBotsOwnMessage: FindPost finds the oldest of the bot's messages since a
// moment with exactly the text asked for, in a channel or in the thread Post put a message
// into; not an older one, not a person's, not one that says something else.
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

	for _, c := range []struct {
		at         chat.Place
		text, want string
	}{
		{top, "*Thinking…*", want},
		{thread, "*Thinking…*", inThread},
		{top, "*Restarted*", ""},
	} {
		got, err := a.FindPost(ctx, c.at, since, c.text)
		if err != nil || got != c.want {
			t.Errorf("FindPost(%+v, %q) = %q, %v; want %q", c.at, c.text, got, err, c.want)
		}
	}
	if got, err := a.FindPost(ctx, top, time.Now().Add(time.Minute), "*Thinking…*"); err != nil || got != "" {
		t.Errorf("FindPost after the last message = %q, %v; want none", got, err)
	}
}
