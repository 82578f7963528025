package fakeslack_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	coderws "github.com/coder/websocket"
	gorillaws "github.com/gorilla/websocket"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

func TestSocketModeDelivery(t *testing.T) {
	srv := start(t)
	c := runSocket(t, srv)
	hello := c.next(t, socketmode.EventTypeHello)
	if hello.Request.NumConnections != 1 || hello.Request.ConnectionInfo.AppID != "A0MOM" {
		t.Errorf("hello = %+v", hello.Request)
	}

	ts := srv.Say("C1", "U1", "hey <@U0BOT> look")
	e, data := c.nextAPI(t)
	outer := eventsAPI(t, e)
	if outer.Type != slackevents.CallbackEvent || outer.TeamID != "T0TEAM" || outer.APIAppID != "A0MOM" {
		t.Errorf("outer event = %+v", outer)
	}
	msg, ok := data.(*slackevents.MessageEvent)
	if !ok || msg.TimeStamp != ts || msg.User != "U1" || msg.Channel != "C1" || msg.ChannelType != "channel" ||
		msg.Text != "hey <@U0BOT> look" || msg.EventTimeStamp != ts || msg.ClientMsgID == "" {
		t.Fatalf("message event = %#v", data)
	}
	if e.Request.RetryAttempt != 0 || e.Request.EnvelopeID == "" {
		t.Errorf("envelope = %+v", e.Request)
	}
	c.sm.Ack(*e.Request)
	e2, data := c.nextAPI(t)
	am, ok := data.(*slackevents.AppMentionEvent)
	if !ok || am.TimeStamp != ts || am.User != "U1" || am.Channel != "C1" {
		t.Fatalf("app_mention event = %#v", data)
	}
	c.sm.Ack(*e2.Request)

	// A thread reply in the IM: message.im, thread_ts, no app_mention.
	thread := srv.Say("D1", "U1", "<@U0BOT> in a DM", fakeslack.InThread(srv.Say("D1", "U1", "first", fakeslack.Silently())))
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if msg, ok := data.(*slackevents.MessageEvent); !ok || msg.ChannelType != "im" || msg.TimeStamp != thread || msg.ThreadTimeStamp == "" {
		t.Fatalf("IM reply event = %#v", data)
	}

	// No events from a channel without the bot.
	srv.Say("C2", "U1", "<@U0BOT> over here")

	// The bot's own post comes back, and so do its edit and deletion.
	api := client(srv)
	_, own, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("answer", false))
	if err != nil {
		t.Fatal(err)
	}
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if msg, ok := data.(*slackevents.MessageEvent); !ok || msg.TimeStamp != own || msg.BotID != "B0BOT" || msg.User != "U0BOT" || msg.SubType != "" {
		t.Fatalf("echo of the bot's post = %#v", data)
	}
	if _, _, _, err := api.UpdateMessageContext(ctxT(t), "C1", own, slack.MsgOptionText("better answer", false)); err != nil {
		t.Fatal(err)
	}
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if msg, ok := data.(*slackevents.MessageEvent); !ok || msg.SubType != "message_changed" || msg.Message == nil ||
		msg.Message.Text != "better answer" || msg.Message.Timestamp != own || msg.PreviousMessage.Text != "answer" {
		t.Fatalf("message_changed = %#v", data)
	}
	if _, _, err := api.DeleteMessageContext(ctxT(t), "C1", own); err != nil {
		t.Fatal(err)
	}
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if msg, ok := data.(*slackevents.MessageEvent); !ok || msg.SubType != "message_deleted" || msg.DeletedTimeStamp != own {
		t.Fatalf("message_deleted = %#v", data)
	}

	srv.WaitFor(t, "every envelope acked", func() bool { return len(srv.Unacked()) == 0 && srv.Pending() == 0 })
	for _, d := range srv.Deliveries() {
		if !d.Acked || d.RetryAttempt != 0 || d.Connection != 1 {
			t.Errorf("delivery = %+v", d)
		}
	}
	if n := len(srv.Deliveries()); n != 6 {
		t.Errorf("%d deliveries, want 6", n)
	}
	noViolations(t, srv)
}

func TestMembershipEvents(t *testing.T) {
	srv := start(t)
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)
	srv.JoinBot("C2")
	e, data := c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if j, ok := data.(*slackevents.MemberJoinedChannelEvent); !ok || j.User != "U0BOT" || j.Channel != "C2" || j.ChannelType != "C" {
		t.Fatalf("member_joined_channel = %#v", data)
	}
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if m, ok := data.(*slackevents.MessageEvent); !ok || m.SubType != "channel_join" || m.User != "U0BOT" {
		t.Fatalf("channel_join = %#v", data)
	}
	srv.RenameChannel("C2", "watercooler")
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if r, ok := data.(*slackevents.ChannelRenameEvent); !ok || r.Channel.ID != "C2" || r.Channel.Name != "watercooler" {
		t.Fatalf("channel_rename = %#v", data)
	}
	srv.RenameUser("U2", "robert")
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if u, ok := data.(*slackevents.UserChangeEvent); !ok || u.User.ID != "U2" || u.User.Name != "robert" {
		t.Fatalf("user_change = %#v", data)
	}
	id := srv.Deliver(map[string]any{"type": "reaction_added", "user": "U1", "reaction": "thumbsup",
		"item": map[string]any{"type": "message", "channel": "C1", "ts": "1.000001"}, "event_ts": "1.000002"})
	e, data = c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if r, ok := data.(*slackevents.ReactionAddedEvent); !ok || r.Reaction != "thumbsup" || e.Request.EnvelopeID != id {
		t.Fatalf("reaction_added = %#v (envelope %s, want %s)", data, e.Request.EnvelopeID, id)
	}
	srv.WaitFor(t, "acks", func() bool { return len(srv.Unacked()) == 0 })
	noViolations(t, srv)
}

func TestRedelivery(t *testing.T) {
	srv := start(t, fakeslack.WithAckTimeout(200*time.Millisecond))
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)
	ts := srv.Say("C1", "U1", "hello")
	first, _ := c.nextAPI(t) // not acked
	retry, data := c.nextAPI(t)
	if retry.Request.RetryAttempt != 1 || retry.Request.RetryReason != "timeout" || retry.Request.EnvelopeID == first.Request.EnvelopeID {
		t.Errorf("redelivery = %+v after %+v", retry.Request, first.Request)
	}
	if m, ok := data.(*slackevents.MessageEvent); !ok || m.TimeStamp != ts {
		t.Errorf("redelivered event = %#v", data)
	}
	if callback(t, retry).EventID != callback(t, first).EventID {
		t.Error("a redelivery has a new event_id")
	}
	c.sm.Ack(*retry.Request)
	srv.WaitFor(t, "no envelope awaiting its ack", func() bool { return len(srv.Unacked()) == 0 && srv.Pending() == 0 })
	noViolations(t, srv)
}

func TestLoss(t *testing.T) {
	srv := start(t, fakeslack.WithAckTimeout(100*time.Millisecond))
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)
	srv.Say("C1", "U1", "nobody listens")
	// The first delivery and MaxRetries retries, then the event is lost.
	for i := 0; i <= fakeslack.MaxRetries; i++ {
		e, _ := c.nextAPI(t)
		if e.Request.RetryAttempt != i {
			t.Errorf("delivery %d has retry_attempt %d", i, e.Request.RetryAttempt)
		}
	}
	srv.WaitFor(t, "the event lost", func() bool { return srv.Lost() == 1 })
	if n := len(srv.Deliveries()); n != fakeslack.MaxRetries+1 {
		t.Errorf("%d deliveries", n)
	}
	noViolations(t, srv)
}

func callback(t *testing.T, e socketmode.Event) *slackevents.EventsAPICallbackEvent {
	t.Helper()
	cb, ok := eventsAPI(t, e).Data.(*slackevents.EventsAPICallbackEvent)
	if !ok {
		t.Fatalf("outer event data is %T", eventsAPI(t, e).Data)
	}
	return cb
}

func TestDropSocketReconnects(t *testing.T) {
	srv := start(t, fakeslack.WithAckTimeout(time.Second))
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)
	srv.Say("C1", "U1", "before the drop")
	first, _ := c.nextAPI(t) // not acked before the drop
	srv.DropSocket()
	queued := srv.Say("C1", "U1", "while away")
	c.next(t, socketmode.EventTypeHello)
	if n := srv.Connections(); n != 2 {
		t.Errorf("Connections() = %d, want 2", n)
	}
	seen := map[string]int{}
	for len(seen) < 2 {
		e, data := c.nextAPI(t)
		c.sm.Ack(*e.Request)
		m := data.(*slackevents.MessageEvent)
		seen[m.Text] = e.Request.RetryAttempt
	}
	if seen["before the drop"] < 1 || seen["while away"] != 0 {
		t.Errorf("retry attempts on the new socket = %v", seen)
	}
	srv.WaitFor(t, "acks", func() bool { return len(srv.Unacked()) == 0 })
	for _, d := range srv.Deliveries() {
		if d.Connection == 2 && !d.Acked {
			t.Errorf("unacked on the new socket: %+v", d)
		}
	}
	// A late ack of the first delivery is not a protocol error.
	c.sm.Ack(*first.Request)
	srv.WaitFor(t, "the late ack", func() bool { return srv.Deliveries()[0].Acked })
	if ms := srv.Messages("C1"); len(ms) != 2 || ms[1].TS != queued {
		t.Errorf("Messages = %+v", ms)
	}
	noViolations(t, srv)
}

func TestRefreshReconnects(t *testing.T) {
	srv := start(t)
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)
	srv.Refresh()
	c.next(t, socketmode.EventTypeHello)
	srv.WaitFor(t, "the second connection", func() bool { return srv.Connections() == 2 && srv.Connected() })
	ts := srv.Say("C1", "U2", "after refresh")
	e, data := c.nextAPI(t)
	c.sm.Ack(*e.Request)
	if m, ok := data.(*slackevents.MessageEvent); !ok || m.TimeStamp != ts {
		t.Fatalf("event = %#v", data)
	}
	ds := srv.Deliveries()
	if len(ds) != 1 || ds[0].Connection != 2 {
		t.Errorf("deliveries = %+v", ds)
	}
	if calls := srv.Calls("apps.connections.open"); len(calls) != 2 {
		t.Errorf("%d apps.connections.open calls, want 2", len(calls))
	}
	noViolations(t, srv)
}

// TestServerPings uses a plain WebSocket client to see the server's pings.
func TestServerPings(t *testing.T) {
	srv := start(t, fakeslack.WithPingInterval(20*time.Millisecond))
	_, _, body := post(t, srv.URL()+"apps.connections.open", "application/json; charset=utf-8", srv.AppToken(), "")
	var res struct{ URL string }
	if err := json.Unmarshal([]byte(body), &res); err != nil || !strings.HasPrefix(res.URL, "ws://127.0.0.1:") {
		t.Fatalf("apps.connections.open = %s", body)
	}
	conn, _, err := gorillaws.DefaultDialer.Dial(res.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pinged := make(chan struct{}, 10)
	conn.SetPingHandler(func(data string) error {
		select {
		case pinged <- struct{}{}:
		default:
		}
		return conn.WriteControl(gorillaws.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	go func() {
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	for range 2 {
		select {
		case <-pinged:
		case <-time.After(fakeslack.DefaultWait):
			t.Fatal("no ping from the server")
		}
	}
}

// TestAckViolations acks wrongly over a raw socket.
func TestAckViolations(t *testing.T) {
	srv := start(t)
	u := socketURL(t, srv)
	ctx := ctxT(t)
	conn, _, err := coderws.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	read := func() map[string]any {
		_, b, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := read(); m["type"] != "hello" {
		t.Fatalf("first message = %v", m)
	}
	srv.Say("C1", "U1", "hi")
	env := read()
	if env["type"] != "events_api" || env["accepts_response_payload"] != false {
		t.Fatalf("envelope = %v", env)
	}
	ack := `{"envelope_id":"` + env["envelope_id"].(string) + `"}`
	for _, msg := range []string{ack, ack, `{"envelope_id":"nope"}`, `not json`} {
		if err := conn.Write(ctx, coderws.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	srv.WaitFor(t, "three violations", func() bool { return len(srv.Violations()) == 3 })
	v := strings.Join(srv.Violations(), "\n")
	for _, want := range []string{"duplicate ack", "unknown envelope_id \"nope\"", "malformed message"} {
		if !strings.Contains(v, want) {
			t.Errorf("violations lack %q:\n%s", want, v)
		}
	}
	// A ticket is good for one connection.
	if _, _, err := coderws.Dial(ctx, u, nil); err == nil {
		t.Error("a used ticket connected again")
	}
}

func socketURL(t *testing.T, srv *fakeslack.Server) string {
	t.Helper()
	_, u, err := client(srv).StartSocketModeContext(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := url.Parse(u); err != nil {
		t.Fatal(err)
	}
	return u
}
