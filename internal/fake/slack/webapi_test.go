package fakeslack_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

func TestAuthTest(t *testing.T) {
	srv := start(t, fakeslack.WithBot("U0MOM", "momo"), fakeslack.WithTeam("T9", "Acme"))
	res, err := client(srv).AuthTestContext(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.UserID != "U0MOM" || res.User != "momo" || res.BotID != "B0BOT" || res.TeamID != "T9" || res.Team != "Acme" {
		t.Errorf("auth.test = %+v", res)
	}
	noViolations(t, srv)

	_, err = slack.New("xoxb-wrong", slack.OptionAPIURL(srv.URL())).AuthTestContext(ctxT(t))
	if got := slackErr(err); got != "invalid_auth" {
		t.Errorf("wrong token: error %q, want invalid_auth", got)
	}
	_, err = slack.New("", slack.OptionAPIURL(srv.URL())).AuthTestContext(ctxT(t))
	if got := slackErr(err); got != "not_authed" {
		t.Errorf("no token: error %q, want not_authed", got)
	}
	_, err = slack.New(srv.AppToken(), slack.OptionAPIURL(srv.URL())).AuthTestContext(ctxT(t))
	if got := slackErr(err); got != "not_allowed_token_type" {
		t.Errorf("app token: error %q, want not_allowed_token_type", got)
	}
	if v := srv.Violations(); len(v) != 3 {
		t.Errorf("violations = %q, want three token problems", v)
	}
	if calls := srv.Calls("auth.test"); len(calls) != 4 || calls[1].Error != "invalid_auth" {
		t.Errorf("calls = %+v", calls)
	}
}

func TestUsersPagination(t *testing.T) {
	srv := start(t, fakeslack.WithPageSize(2))
	srv.AddUser(fakeslack.User{ID: "U3", Name: "gone", Deleted: true})
	srv.AddUser(fakeslack.User{ID: "U4", Name: "hook", IsBot: true, BotID: "B4"})
	api := client(srv)
	var got []slack.User
	p := api.GetUsersPaginated()
	var err error
	for {
		if p, err = p.Next(ctxT(t)); err != nil {
			break
		}
		if len(p.Users) > 2 {
			t.Errorf("page of %d users, page size is 2", len(p.Users))
		}
		got = append(got, p.Users...)
	}
	if err := p.Failure(err); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range got {
		ids = append(ids, u.ID)
	}
	slices.Sort(ids)
	if want := []string{"U0BOT", "U1", "U2", "U3", "U4", "USLACKBOT"}; !slices.Equal(ids, want) {
		t.Errorf("users = %v, want %v", ids, want)
	}
	if n := len(srv.Calls("users.list")); n != 3 {
		t.Errorf("%d users.list calls, want 3 pages", n)
	}
	for _, u := range got {
		switch u.ID {
		case "U0BOT":
			if !u.IsBot || u.Profile.BotID != "B0BOT" {
				t.Errorf("bot user = %+v", u)
			}
		case "U2":
			if u.RealName != "Bob Example" || u.Profile.DisplayName != "bobby" || u.Name != "bob" {
				t.Errorf("U2 = %+v", u)
			}
		case "U3":
			if !u.Deleted {
				t.Error("U3 is not deleted")
			}
		}
	}
	u, err := api.GetUserInfoContext(ctxT(t), "U1")
	if err != nil || u.Name != "ann" {
		t.Errorf("users.info = %+v, %v", u, err)
	}
	if _, err := api.GetUserInfoContext(ctxT(t), "U404"); slackErr(err) != "user_not_found" {
		t.Errorf("users.info of a stranger: %v", err)
	}
	noViolations(t, srv)
}

func TestConversationsListPagination(t *testing.T) {
	srv := start(t, fakeslack.WithPageSize(2))
	srv.AddChannel(fakeslack.Channel{ID: "C3", Name: "old", Archived: true})
	srv.AddChannel(fakeslack.Channel{ID: "C4", Name: "secret", Kind: fakeslack.KindPrivate, BotMember: true})
	srv.AddChannel(fakeslack.Channel{ID: "C5", Name: "hidden", Kind: fakeslack.KindPrivate})
	srv.AddChannel(fakeslack.Channel{ID: "G6", Name: "mpdm-ann--bob--mom-1", Kind: fakeslack.KindMPIM, BotMember: true})
	api := client(srv)
	list := func(types []string, excludeArchived bool) map[string]slack.Channel {
		got := map[string]slack.Channel{}
		cursor := ""
		for {
			chs, next, err := api.GetConversationsContext(ctxT(t), &slack.GetConversationsParameters{
				Types: types, Cursor: cursor, ExcludeArchived: excludeArchived, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			if len(chs) > 2 {
				t.Errorf("page of %d channels, page size is 2", len(chs))
			}
			for _, c := range chs {
				got[c.ID] = c
			}
			if next == "" {
				return got
			}
			cursor = next
		}
	}
	all := list([]string{"public_channel", "private_channel", "im", "mpim"}, false)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{"C1", "C2", "C3", "C4", "D1", "G6"}; !slices.Equal(ids, want) {
		t.Errorf("channels = %v, want %v (C5 is private without the bot)", ids, want)
	}
	if c := all["C1"]; !c.IsChannel || c.IsPrivate || !c.IsMember || c.Name != "general" {
		t.Errorf("C1 = %+v", c)
	}
	if c := all["C2"]; c.IsMember {
		t.Error("C2 says the bot is a member")
	}
	if c := all["C4"]; !c.IsPrivate || !c.IsMember {
		t.Errorf("C4 = %+v", c)
	}
	if c := all["D1"]; !c.IsIM || c.User != "U1" {
		t.Errorf("D1 = %+v", c)
	}
	if c := all["G6"]; !c.IsMpIM {
		t.Errorf("G6 = %+v", c)
	}
	public := list(nil, true)
	if _, ok := public["C3"]; ok || len(public) != 2 {
		t.Errorf("public, not archived = %v", public)
	}
	info, err := api.GetConversationInfoContext(ctxT(t), &slack.GetConversationInfoInput{ChannelID: "C4"})
	if err != nil || info.Name != "secret" {
		t.Errorf("conversations.info = %+v, %v", info, err)
	}
	if _, err := api.GetConversationInfoContext(ctxT(t), &slack.GetConversationInfoInput{ChannelID: "C5"}); slackErr(err) != "channel_not_found" {
		t.Errorf("info of a private channel without the bot: %v", err)
	}
	noViolations(t, srv)
}

func TestHistoryAndReplies(t *testing.T) {
	srv := start(t, fakeslack.WithPageSize(2))
	base := time.Now().Add(-time.Hour)
	t1 := srv.Say("C1", "U1", "one", fakeslack.Silently(), fakeslack.At(base))
	t2 := srv.Say("C1", "U2", "two", fakeslack.Silently(), fakeslack.At(base.Add(time.Minute)))
	r1 := srv.Say("C1", "U1", "reply one", fakeslack.InThread(t2), fakeslack.Silently())
	r2 := srv.Say("C1", "U2", "reply two", fakeslack.InThread(r1), fakeslack.Silently())
	t3 := srv.Say("C1", "U1", "three", fakeslack.Silently())
	api := client(srv)

	var got []slack.Message
	cursor := ""
	for {
		res, err := api.GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{
			ChannelID: "C1", Cursor: cursor, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Messages...)
		if !res.HasMore {
			break
		}
		cursor = res.ResponseMetaData.NextCursor
	}
	var order []string
	for _, m := range got {
		order = append(order, m.Timestamp)
	}
	if want := []string{t3, t2, t1}; !slices.Equal(order, want) {
		t.Fatalf("history = %v, want %v (newest first, no replies)", order, want)
	}
	if p := got[1]; p.ReplyCount != 2 || p.ThreadTimestamp != t2 || p.LatestReply != r2 {
		t.Errorf("thread parent = %+v", p.Msg)
	}

	res, err := api.GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{
		ChannelID: "C1", Oldest: t1, Latest: t3, Inclusive: false})
	if err != nil || len(res.Messages) != 1 || res.Messages[0].Timestamp != t2 {
		t.Errorf("history between t1 and t3 = %+v, %v", res, err)
	}

	msgs, _, _, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{ChannelID: "C1", Timestamp: t2})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || msgs[0].Timestamp != t2 || msgs[1].Timestamp != r1 || msgs[2].Timestamp != r2 {
		t.Errorf("replies = %+v", msgs)
	}
	if msgs[1].ThreadTimestamp != t2 || msgs[2].Text != "reply two" {
		t.Errorf("reply = %+v", msgs[1].Msg)
	}
	if rs := srv.Replies("C1", t2); len(rs) != 2 || rs[1].ThreadTS != t2 {
		t.Errorf("Replies = %+v", rs)
	}
	if ms := srv.Messages("C1"); len(ms) != 3 || ms[1].ReplyCount != 2 || ms[1].ThreadTS != t2 || ms[0].ThreadTS != "" {
		t.Errorf("Messages = %+v", ms)
	}

	_, err = api.GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{ChannelID: "C2"})
	if slackErr(err) != "not_in_channel" {
		t.Errorf("history without membership: %v", err)
	}
	_, err = api.GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{ChannelID: "C404"})
	if slackErr(err) != "channel_not_found" {
		t.Errorf("history of an unknown channel: %v", err)
	}
	noViolations(t, srv)
}

func TestPostUpdateDelete(t *testing.T) {
	srv := start(t)
	api := client(srv)
	ctx := ctxT(t)
	human := srv.Say("C1", "U1", "hello <@U0BOT>", fakeslack.Silently())
	ch, ts, err := api.PostMessageContext(ctx, "C1", slack.MsgOptionText("hi there", false))
	if err != nil || ch != "C1" || ts == "" {
		t.Fatalf("postMessage = %q %q %v", ch, ts, err)
	}
	_, reply, err := api.PostMessageContext(ctx, "C1", slack.MsgOptionText("in thread", false), slack.MsgOptionTS(human))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := api.UpdateMessageContext(ctx, "C1", ts, slack.MsgOptionText("hi again", false)); err != nil {
		t.Fatal(err)
	}
	ms := srv.Messages("C1")
	if len(ms) != 2 || ms[1].Text != "hi again" || ms[1].Edits != 1 || ms[1].User != "U0BOT" || ms[1].BotID != "B0BOT" {
		t.Errorf("Messages = %+v", ms)
	}
	if rs := srv.Replies("C1", human); len(rs) != 1 || rs[0].TS != reply || rs[0].Text != "in thread" {
		t.Errorf("Replies = %+v", rs)
	}
	if _, _, err := api.DeleteMessageContext(ctx, "C1", reply); err != nil {
		t.Fatal(err)
	}
	if rs := srv.Replies("C1", human); len(rs) != 0 {
		t.Errorf("Replies after delete = %+v", rs)
	}
	// The IM is addressed by the user id too.
	if ch, _, err := api.PostMessageContext(ctx, "U1", slack.MsgOptionText("dm", false)); err != nil || ch != "D1" {
		t.Errorf("post to U1 = %q, %v", ch, err)
	}
	noViolations(t, srv)

	for _, tc := range []struct {
		name string
		do   func() error
		want string
	}{
		{"empty", func() error { _, _, err := api.PostMessageContext(ctx, "C1"); return err }, "no_text"},
		{"too long", func() error {
			_, _, err := api.PostMessageContext(ctx, "C1", slack.MsgOptionText(strings.Repeat("x", 40001), false))
			return err
		}, "msg_too_long"},
		{"unknown channel", func() error {
			_, _, err := api.PostMessageContext(ctx, "C404", slack.MsgOptionText("x", false))
			return err
		}, "channel_not_found"},
		{"not a member", func() error {
			_, _, err := api.PostMessageContext(ctx, "C2", slack.MsgOptionText("x", false))
			return err
		}, "not_in_channel"},
		{"someone else's", func() error {
			_, _, _, err := api.UpdateMessageContext(ctx, "C1", human, slack.MsgOptionText("x", false))
			return err
		}, "cant_update_message"},
		{"delete someone else's", func() error { _, _, err := api.DeleteMessageContext(ctx, "C1", human); return err }, "cant_delete_message"},
		{"deleted", func() error {
			_, _, _, err := api.UpdateMessageContext(ctx, "C1", reply, slack.MsgOptionText("x", false))
			return err
		}, "message_not_found"},
	} {
		if got := slackErr(tc.do()); got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
	noViolations(t, srv)
}

func TestRateLimit(t *testing.T) {
	srv := start(t)
	srv.RateLimit("chat.postMessage", 1, 1500*time.Millisecond)
	api := client(srv)
	_, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("hi", false))
	var rl *slack.RateLimitedError
	if !errors.As(err, &rl) || rl.RetryAfter != 2*time.Second {
		t.Fatalf("error = %v, want a RateLimitedError with RetryAfter 2s", err)
	}
	time.Sleep(rl.RetryAfter) // as Slack asked
	if _, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("hi", false)); err != nil {
		t.Fatalf("second call: %v", err)
	}
	calls := srv.Calls("chat.postMessage")
	if len(calls) != 2 || calls[0].Error != "ratelimited" || calls[1].Error != "" || calls[1].Form.Get("text") != "hi" {
		t.Errorf("calls = %+v", calls)
	}
	noViolations(t, srv)
}

// TestRateLimitCatchesAnEarlyRetry: a client that calls again before the Retry-After of a 429
// has passed is refused again, and its mistake is recorded.
func TestRateLimitCatchesAnEarlyRetry(t *testing.T) {
	srv := start(t)
	srv.RateLimit("chat.update", 1, 30*time.Second)
	api := client(srv)
	_, ts, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("hi", false))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		_, _, _, err := api.UpdateMessageContext(ctxT(t), "C1", ts, slack.MsgOptionText("edited", false))
		var rl *slack.RateLimitedError
		if !errors.As(err, &rl) || rl.RetryAfter != 30*time.Second {
			t.Fatalf("call %d: error = %v, want a RateLimitedError with RetryAfter 30s", i+1, err)
		}
	}
	v := srv.Violations()
	if len(v) != 1 || !strings.Contains(v[0], "chat.update: called again") || !strings.Contains(v[0], "before the Retry-After") {
		t.Errorf("violations = %q; want the early retry named", v)
	}
	if _, _, err := api.PostMessageContext(ctxT(t), "C1", slack.MsgOptionText("other methods are not limited", false)); err != nil {
		t.Errorf("chat.postMessage: %v", err)
	}
}

// apiRes is the part of a Web API answer the raw tests read.
type apiRes struct {
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Warning  string `json:"warning"`
	Channel  string `json:"channel"`
	TS       string `json:"ts"`
	Message  struct{ Text, User, BotID string }
	Metadata struct {
		Messages []string `json:"messages"`
	} `json:"response_metadata"`
	ReqMethod string `json:"req_method"`
}

func TestRawProtocol(t *testing.T) {
	srv := start(t)
	tok := srv.BotToken()

	// A JSON body with the bearer token; no charset draws Slack's warning.
	status, hdr, body := post(t, srv.URL()+"chat.postMessage", "application/json", tok, `{"channel":"C1","text":"json","unfurl_links":false}`)
	var res apiRes
	decode := func(body string) {
		t.Helper()
		res = apiRes{}
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
	}
	decode(body)
	if status != 200 || !res.OK || res.Warning != "missing_charset" || res.Channel != "C1" || res.Message.Text != "json" ||
		!strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
		t.Errorf("JSON post: %d %s", status, body)
	}
	if c := srv.Calls("chat.postMessage"); len(c) != 1 || c[0].Form.Get("unfurl_links") != "false" {
		t.Errorf("recorded call = %+v", c)
	}
	noViolations(t, srv)

	_, _, body = post(t, srv.URL()+"chat.postMessage", "application/x-www-form-urlencoded", "", form(url.Values{"token": {tok}, "text": {"x"}}))
	decode(body)
	if res.OK || res.Error != "invalid_arguments" || len(res.Metadata.Messages) != 1 {
		t.Errorf("missing channel: %s", body)
	}
	_, _, body = post(t, srv.URL()+"chat.postMesage", "application/x-www-form-urlencoded", tok, "channel=C1")
	decode(body)
	if res.Error != "unknown_method" || res.ReqMethod != "chat.postMesage" {
		t.Errorf("unknown method: %s", body)
	}
	_, _, body = post(t, srv.URL()+"chat.postMessage", "application/json; charset=utf-8", tok, `{"channel":`)
	decode(body)
	if res.Error != "invalid_json" {
		t.Errorf("bad JSON: %s", body)
	}
	_, _, body = post(t, srv.URL()+"conversations.history", "application/json; charset=utf-8", tok, `{"channel":"C1"}`)
	decode(body)
	if res.OK {
		t.Errorf("conversations.history took a JSON body: %s", body)
	}
	_, _, body = post(t, srv.URL()+"auth.test", "application/x-www-form-urlencoded; charset=utf-8", tok, "a=b")
	decode(body)
	if !res.OK || res.Warning != "superfluous_charset" {
		t.Errorf("form with a charset: %s", body)
	}
	_, _, body = post(t, srv.URL()+"auth.test", "", tok, "a=b")
	decode(body)
	if res.Error != "missing_post_type" {
		t.Errorf("body without Content-Type: %s", body)
	}
	_, _, body = post(t, srv.URL()+"apps.connections.open", "application/json", tok, "")
	decode(body)
	if res.Error != "not_allowed_token_type" {
		t.Errorf("apps.connections.open with the bot token: %s", body)
	}
	// The last but one makes two: a JSON body where Slack takes none, and so no channel.
	if v := srv.Violations(); len(v) != 7 {
		t.Errorf("violations = %q, want 7", v)
	}
}

func TestPeopleEditAndDelete(t *testing.T) {
	srv := start(t)
	parent := srv.Say("C1", "U1", "question", fakeslack.Silently())
	reply := srv.Say("C1", "U2", "answer", fakeslack.InThread(parent), fakeslack.Silently())
	srv.Edit("C1", reply, "better answer")
	srv.Delete("C1", parent)
	api := client(srv)
	res, err := api.GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{ChannelID: "C1"})
	if err != nil || len(res.Messages) != 1 {
		t.Fatalf("history = %+v, %v", res, err)
	}
	if m := res.Messages[0]; m.SubType != "tombstone" || m.ReplyCount != 1 || m.Timestamp != parent {
		t.Errorf("deleted parent with replies = %+v", m.Msg)
	}
	msgs, _, _, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{ChannelID: "C1", Timestamp: parent})
	if err != nil || len(msgs) != 2 || msgs[1].Text != "better answer" || msgs[1].Edited == nil || msgs[1].Edited.User != "U2" {
		t.Errorf("replies = %+v, %v", msgs, err)
	}
	if ms := srv.Messages("C1"); len(ms) != 0 {
		t.Errorf("Messages = %+v", ms)
	}
	if rs := srv.Replies("C1", parent); len(rs) != 1 || rs[0].Edits != 1 {
		t.Errorf("Replies = %+v", rs)
	}
	noViolations(t, srv)
}

// TestConversationsMembers: members page by page with the bot among them where it is one;
// a private conversation the bot is not in does not exist for it.
func TestConversationsMembers(t *testing.T) {
	srv := start(t, fakeslack.WithPageSize(2))
	srv.AddUser(fakeslack.User{ID: "U3", Name: "cy"})
	srv.AddChannel(fakeslack.Channel{ID: "C3", Name: "team", BotMember: true, Members: []string{"U1", "U2", "U3"}})
	srv.AddChannel(fakeslack.Channel{ID: "G1", Kind: fakeslack.KindMPIM, Members: []string{"U1", "U2"}})
	api, ctx := client(srv), ctxT(t)
	var all []string
	cursor := ""
	for pages := 0; ; pages++ {
		ids, next, err := api.GetUsersInConversationContext(ctx, &slack.GetUsersInConversationParameters{ChannelID: "C3", Cursor: cursor})
		if err != nil || pages > 3 {
			t.Fatalf("conversations.members: %v after %d pages", err, pages)
		}
		all = append(all, ids...)
		if next == "" {
			break
		}
		cursor = next
	}
	if strings.Join(all, ",") != "U1,U2,U3,"+srv.BotUserID() {
		t.Errorf("members of C3 = %v; want the three people and the bot", all)
	}
	if _, _, err := api.GetUsersInConversationContext(ctx, &slack.GetUsersInConversationParameters{ChannelID: "G1"}); slackErr(err) != "channel_not_found" {
		t.Errorf("a group DM without the bot: %v, want channel_not_found", err)
	}
	noViolations(t, srv)
}
