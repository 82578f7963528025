package fakeslack_test

import (
	"slices"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// TestRepliesAfterOldestInPages: conversations.replies with oldest answers the parent first,
// then only the newer replies, oldest first, a page at a time with next_cursor.
func TestRepliesAfterOldestInPages(t *testing.T) {
	srv := start(t, fakeslack.WithPageSize(2))
	base := time.Now().Add(-time.Hour)
	parent := srv.Say("C1", "U1", "parent", fakeslack.Silently(), fakeslack.At(base))
	old := srv.Say("C1", "U2", "old reply", fakeslack.InThread(parent), fakeslack.Silently(), fakeslack.At(base.Add(time.Minute)))
	var newer []string
	for i := range 5 {
		newer = append(newer, srv.Say("C1", "U1", "new reply", fakeslack.InThread(parent), fakeslack.Silently(),
			fakeslack.At(base.Add(time.Duration(2+i)*time.Minute))))
	}
	api := client(srv)

	var got []string
	pages, cursor := 0, ""
	for {
		msgs, more, next, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{
			ChannelID: "C1", Timestamp: parent, Oldest: old, Limit: 100, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(msgs) == 0 || msgs[0].Timestamp != parent || msgs[0].ReplyCount != 6 || msgs[0].LatestReply != newer[4] {
			t.Fatalf("page %d does not start with the parent: %+v", pages, msgs)
		}
		for _, m := range msgs[1:] {
			if m.ThreadTimestamp != parent {
				t.Errorf("reply %s has thread_ts %q; want %s", m.Timestamp, m.ThreadTimestamp, parent)
			}
			got = append(got, m.Timestamp)
		}
		if more != (next != "") {
			t.Errorf("has_more %v with next_cursor %q", more, next)
		}
		if !more {
			break
		}
		cursor = next
	}
	if !slices.Equal(got, newer) || pages != 3 {
		t.Errorf("replies after oldest = %v in %d pages; want %v in 3 (2 a page)", got, pages, newer)
	}

	msgs, _, _, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{
		ChannelID: "C1", Timestamp: parent, Oldest: old, Inclusive: true, Latest: newer[0], Limit: 10})
	if err != nil || len(msgs) != 3 || msgs[1].Timestamp != old || msgs[2].Timestamp != newer[0] {
		t.Errorf("inclusive window = %+v, %v; want the parent, %s and %s", msgs, err, old, newer[0])
	}
	if _, _, _, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{
		ChannelID: "C1", Timestamp: "1.000001"}); slackErr(err) != "thread_not_found" {
		t.Errorf("replies of an unknown ts: %v; want thread_not_found", err)
	}
	noViolations(t, srv)
}

// TestReplyAlsoSentToChannel: a reply also sent to the channel is a thread_broadcast with its
// thread's parent as root, in history and Messages as well as in the thread, and is delivered
// as an event.
func TestReplyAlsoSentToChannel(t *testing.T) {
	srv := start(t)
	parent := srv.Say("C1", "U1", "parent", fakeslack.Silently())
	bc := srv.Say("C1", "U2", "for everyone", fakeslack.InThread(parent), fakeslack.AlsoToChannel(), fakeslack.Silently())
	quiet := srv.Say("C1", "U1", "just the thread", fakeslack.InThread(parent), fakeslack.Silently())
	api := client(srv)

	res, err := api.GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{ChannelID: "C1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 2 || res.Messages[0].Timestamp != bc || res.Messages[1].Timestamp != parent {
		t.Fatalf("history = %+v; want the broadcast reply and the parent", res.Messages)
	}
	b := res.Messages[0]
	if b.SubType != "thread_broadcast" || b.ThreadTimestamp != parent || b.Root == nil || b.Root.Timestamp != parent {
		t.Errorf("broadcast reply in history = %+v", b.Msg)
	}
	if p := res.Messages[1]; p.ReplyCount != 2 || p.LatestReply != quiet {
		t.Errorf("parent = %+v; want 2 replies, the latest %s", p.Msg, quiet)
	}
	msgs, _, _, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{ChannelID: "C1", Timestamp: parent})
	if err != nil || len(msgs) != 3 || msgs[1].Timestamp != bc || msgs[1].SubType != "thread_broadcast" {
		t.Errorf("replies = %+v, %v", msgs, err)
	}
	if ms := srv.Messages("C1"); len(ms) != 2 || ms[1].TS != bc || ms[1].Subtype != "thread_broadcast" {
		t.Errorf("Messages = %+v", ms)
	}

	c := runSocket(t, srv)
	live := srv.Say("C1", "U1", "live", fakeslack.InThread(parent), fakeslack.AlsoToChannel())
	e, data := c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if m, ok := data.(*slackevents.MessageEvent); !ok || m.TimeStamp != live || m.SubType != "thread_broadcast" || m.ThreadTimeStamp != parent {
		t.Errorf("broadcast reply event = %#v", data)
	}
	noViolations(t, srv)
}
