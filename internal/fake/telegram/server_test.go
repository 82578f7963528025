package faketelegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

const (
	ada   = int64(1001)
	group = int64(-1002000000001)
	forum = int64(-1002000000002)
)

// newServer starts a fake with one person, ada, her private chat, a group and a forum.
func newServer(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s := New(opts...)
	t.Cleanup(s.Close)
	s.AddUser(User{ID: ada, FirstName: "Ada", Username: "ada"})
	s.AddChat(Chat{ID: ada, Type: Private})
	s.AddChat(Chat{ID: group, Type: Supergroup, Title: "Team"})
	s.AddChat(Chat{ID: forum, Type: Supergroup, Title: "Forum", IsForum: true})
	return s
}

// client is the real go-telegram/bot library pointed at s.
func client(t *testing.T, s *Server) *bot.Bot {
	t.Helper()
	b, err := bot.New(s.Token(), bot.WithServerURL(s.URL()), bot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// call makes a raw API call with a JSON body and returns the decoded answer.
func call(t *testing.T, s *Server, method string, params map[string]any) (status int, answer map[string]any) {
	t.Helper()
	body, _ := json.Marshal(params)
	resp, err := http.Post(s.URL()+"/bot"+s.Token()+"/"+method, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, answer
}

func noViolations(t *testing.T, s *Server) {
	t.Helper()
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}

func TestTokens(t *testing.T) {
	s := newServer(t)
	me, err := client(t, s).GetMe(context.Background())
	if err != nil || me.Username != "mom_bot" || !me.IsBot {
		t.Fatalf("getMe = %+v, %v", me, err)
	}
	wrong, _ := bot.New("123:wrong", bot.WithServerURL(s.URL()), bot.WithSkipGetMe())
	if _, err := wrong.GetMe(context.Background()); !errors.Is(err, bot.ErrorUnauthorized) {
		t.Errorf("a wrong token got %v, want 401 Unauthorized", err)
	}
	resp, _ := http.Get(s.URL() + "/botnot-a-token/getMe")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a malformed token got HTTP %d, want 404", resp.StatusCode)
	}
	if status, ans := call(t, s, "sendMagic", nil); status != 404 || ans["description"] != "Not Found" {
		t.Errorf("unknown method: %d %v", status, ans)
	}
	if n := len(s.Violations()); n != 3 {
		t.Errorf("%d violations recorded, want 3 (wrong token, malformed token, unknown method): %q", n, s.Violations())
	}
}

func TestGetUpdatesOffsetsAndLongPoll(t *testing.T) {
	s := newServer(t)
	s.Say(ada, ada, "one")
	s.Say(ada, ada, "two")
	_, ans := call(t, s, "getUpdates", nil)
	ups := ans["result"].([]any)
	if len(ups) != 2 {
		t.Fatalf("got %d updates, want 2", len(ups))
	}
	first := int64(ups[0].(map[string]any)["update_id"].(float64))
	msg := ups[0].(map[string]any)["message"].(map[string]any)
	if msg["text"] != "one" || msg["chat"].(map[string]any)["type"] != "private" {
		t.Errorf("first message = %v", msg)
	}
	// Without a higher offset nothing is confirmed.
	if _, ans = call(t, s, "getUpdates", map[string]any{"offset": first}); len(ans["result"].([]any)) != 2 {
		t.Errorf("updates were forgotten before an offset confirmed them")
	}
	if _, ans = call(t, s, "getUpdates", map[string]any{"offset": first + 1}); len(ans["result"].([]any)) != 1 || s.Pending() != 1 {
		t.Errorf("offset first+1 should confirm only the first update")
	}
	// A long poll waits for the next message.
	done := make(chan []any)
	go func() {
		_, ans := call(t, s, "getUpdates", map[string]any{"offset": first + 2, "timeout": 10})
		done <- ans["result"].([]any)
	}()
	s.WaitFor(t, "the long poll", s.Polling)
	s.Say(ada, ada, "three")
	if got := <-done; len(got) != 1 || got[0].(map[string]any)["message"].(map[string]any)["text"] != "three" {
		t.Errorf("the long poll returned %v", got)
	}
	if s.Pending() != 1 {
		t.Errorf("%d pending; the offset should have confirmed all but the new update", s.Pending())
	}
	noViolations(t, s)
}

func TestGetUpdatesConflictAndWebhook(t *testing.T) {
	s := newServer(t, WithWebhook("https://example.com/hook"))
	status, ans := call(t, s, "getUpdates", nil)
	if status != 409 || !strings.Contains(ans["description"].(string), "webhook is active") {
		t.Errorf("with a webhook: %d %v", status, ans)
	}
	call(t, s, "deleteWebhook", nil)
	first := make(chan map[string]any)
	go func() {
		status, ans := call(t, s, "getUpdates", map[string]any{"timeout": 10})
		ans["status"] = status
		first <- ans
	}()
	s.WaitFor(t, "the first poll", s.Polling)
	second := make(chan struct{})
	go func() { call(t, s, "getUpdates", map[string]any{"timeout": 1}); close(second) }()
	got := <-first
	<-second
	if got["status"] != 409 || got["description"] != "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" {
		t.Errorf("the older poll got %v, want 409 terminated by other getUpdates request", got)
	}
	if s.Conflicts() != 1 {
		t.Errorf("conflicts = %d", s.Conflicts())
	}
}

func TestAllowedUpdatesPersist(t *testing.T) {
	s := newServer(t)
	call(t, s, "getUpdates", map[string]any{"allowed_updates": []string{"callback_query"}})
	s.Say(ada, ada, "not wanted")
	if _, ans := call(t, s, "getUpdates", nil); len(ans["result"].([]any)) != 0 {
		t.Errorf("a message was delivered although allowed_updates left messages out")
	}
	call(t, s, "getUpdates", map[string]any{"allowed_updates": []string{"message"}})
	s.Say(ada, ada, "wanted")
	if _, ans := call(t, s, "getUpdates", nil); len(ans["result"].([]any)) != 1 {
		t.Errorf("a message was not delivered after allowed_updates took messages in")
	}
}

func TestSendMessageHTML(t *testing.T) {
	s := newServer(t)
	b := client(t, s)
	ctx := context.Background()
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ada, ParseMode: models.ParseModeHTML,
		Text: `<b>bold</b> &amp; <a href="https://x.io">link</a> <pre><code class="language-go">x := 1</code></pre>`})
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "bold & link x := 1" || len(m.Entities) != 3 || m.Entities[2].Type != "pre" || m.Entities[2].Language != "go" {
		t.Errorf("parsed message = %q %+v", m.Text, m.Entities)
	}
	for _, tt := range []struct{ markup, want string }{
		{"<div>x</div>", `Unsupported start tag "div" at byte offset 0`},
		{"a <b>x", `Can't find end tag corresponding to start tag "b"`},
		{"<b>x</i>", `Unmatched end tag at byte offset 4, expected "</b>", found "</i>"`},
		{"x</b>", "Unexpected end tag at byte offset 1"},
		{"1 < 2", `Unsupported start tag "" at byte offset 2`},
		{"x <b", "Unclosed start tag at byte offset 2"},
		{"<span>x</span>", `Tag "span" must have class "tg-spoiler" at byte offset 0`},
	} {
		_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ada, ParseMode: models.ParseModeHTML, Text: tt.markup})
		if err == nil || !strings.Contains(err.Error(), "can't parse entities: "+tt.want) {
			t.Errorf("%q: %v, want %q", tt.markup, err, tt.want)
		}
	}
	if n := len(s.Violations()); n != 7 {
		t.Errorf("%d violations, want one per bad markup", n)
	}
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ada, Text: strings.Repeat("😀", 2049)})
	if err == nil || !strings.Contains(err.Error(), "message is too long") {
		t.Errorf("4098 UTF-16 units: %v", err)
	}
	if _, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ada, Text: strings.Repeat("😀", 2048)}); err != nil {
		t.Errorf("4096 UTF-16 units were refused: %v", err)
	}
	s.RejectMarkup(1)
	if _, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ada, ParseMode: models.ParseModeHTML, Text: "<b>ok</b>"}); err == nil {
		t.Errorf("RejectMarkup did not reject")
	}
}

func TestEditDeleteReplyTopics(t *testing.T) {
	s := newServer(t)
	b := client(t, s)
	ctx := context.Background()
	topic := s.CreateTopic(forum, ada, "Builds")
	asked := s.Say(forum, ada, "@mom_bot status?", InTopic(topic))
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: forum, MessageThreadID: topic, Text: "Thinking…",
		ReplyParameters: &models.ReplyParameters{MessageID: asked}})
	if err != nil {
		t.Fatal(err)
	}
	if m.MessageThreadID != topic || !m.IsTopicMessage || m.ReplyToMessage == nil || m.ReplyToMessage.ID != asked {
		t.Errorf("sent message = %+v", m)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: forum, MessageID: m.ID, Text: "Thinking…"}); err == nil ||
		!strings.Contains(err.Error(), "message is not modified") {
		t.Errorf("an edit that changes nothing: %v", err)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: forum, MessageID: m.ID, Text: "All green."}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: forum, MessageID: asked, Text: "hijack"}); err == nil ||
		!strings.Contains(err.Error(), "message can't be edited") {
		t.Errorf("editing someone else's message: %v", err)
	}
	got := s.Messages(forum, topic)
	if len(got) != 2 || got[1].Text != "All green." || got[1].Edits != 1 {
		t.Errorf("topic shows %+v", got)
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: group, MessageThreadID: 99, Text: "x"}); err == nil ||
		!strings.Contains(err.Error(), "message thread not found") {
		t.Errorf("a topic in a chat without topics: %v", err)
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ada, Text: "x", ReplyParameters: &models.ReplyParameters{MessageID: 999}}); err == nil ||
		!strings.Contains(err.Error(), "message to be replied not found") {
		t.Errorf("a reply to nothing: %v", err)
	}
	if ok, err := b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: forum, MessageID: m.ID}); !ok || err != nil {
		t.Errorf("delete: %v %v", ok, err)
	}
	if _, err := b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: forum, MessageID: m.ID}); err == nil ||
		!strings.Contains(err.Error(), "message to delete not found") {
		t.Errorf("deleting twice: %v", err)
	}
	if _, err := b.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: forum, MessageThreadID: topic, Action: models.ChatActionTyping}); err != nil {
		t.Error(err)
	}
	if a := s.Actions(); len(a) != 1 || a[0].Thread != topic || a[0].Action != "typing" {
		t.Errorf("actions = %+v", a)
	}
	// Messages in a topic reply to the message that opened it, as Telegram sends them.
	_, ans := call(t, s, "getUpdates", nil)
	msg := ans["result"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if msg["is_topic_message"] != true || msg["reply_to_message"].(map[string]any)["forum_topic_created"] == nil {
		t.Errorf("topic message = %v", msg)
	}
	if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "message_thread_id 99") {
		t.Errorf("violations = %q, want the one for the topic that does not exist", v)
	}
}

func TestFilesInAndOut(t *testing.T) {
	s := newServer(t)
	b := client(t, s)
	ctx := context.Background()
	s.Say(group, ada, "report", WithDocument("report.txt", []byte("numbers")))
	_, ans := call(t, s, "getUpdates", nil)
	doc := ans["result"].([]any)[0].(map[string]any)["message"].(map[string]any)["document"].(map[string]any)
	f, err := b.GetFile(ctx, &bot.GetFileParams{FileID: doc["file_id"].(string)})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(b.FileDownloadLink(f))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(data) != "numbers" {
		t.Errorf("downloaded %q", data)
	}
	_, err = b.SendDocument(ctx, &bot.SendDocumentParams{ChatID: group, Caption: "here",
		Document: &models.InputFileUpload{Filename: "out.txt", Data: strings.NewReader("result")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: group,
		Photo: &models.InputFileUpload{Filename: "x.png", Data: strings.NewReader("not an image")}})
	if err == nil || !strings.Contains(err.Error(), "IMAGE_PROCESS_FAILED") {
		t.Errorf("a photo that is no image: %v", err)
	}
	ups := s.Uploads()
	if len(ups) != 1 || ups[0].Filename != "out.txt" || string(ups[0].Content) != "result" || ups[0].Caption != "here" {
		t.Errorf("uploads = %+v", ups)
	}
	noViolations(t, s)
}

func TestRateLimitAndBodies(t *testing.T) {
	s := newServer(t)
	// Form bodies and query strings work as well as JSON and multipart.
	resp, err := http.PostForm(s.URL()+"/bot"+s.Token()+"/sendMessage", url.Values{"chat_id": {"1001"}, "text": {"form"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = http.Get(s.URL() + "/bot" + s.Token() + "/SENDMESSAGE?chat_id=1001&text=query")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := s.Messages(ada, 0); len(got) != 2 || got[0].Text != "form" || got[1].Text != "query" {
		t.Errorf("messages = %+v", got)
	}
	noViolations(t, s)

	s.RateLimit("sendMessage", 1, 2)
	b := client(t, s)
	_, err = b.SendMessage(context.Background(), &bot.SendMessageParams{ChatID: ada, Text: "x"})
	var tm *bot.TooManyRequestsError
	if !errors.As(err, &tm) || tm.RetryAfter != 2 {
		t.Errorf("rate limited call: %v", err)
	}
	// Calling again before retry_after has passed is refused again, and a violation.
	if _, err = b.SendMessage(context.Background(), &bot.SendMessageParams{ChatID: ada, Text: "x"}); !errors.As(err, &tm) {
		t.Errorf("an early retry got %v, want 429", err)
	}
	if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "before the retry_after") {
		t.Errorf("violations = %q", v)
	}
}

func TestDropPoll(t *testing.T) {
	s := newServer(t)
	errc := make(chan error)
	go func() {
		c := &http.Client{Timeout: 20 * time.Second}
		resp, err := c.Post(s.URL()+"/bot"+s.Token()+"/getUpdates?timeout=15", "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	s.WaitFor(t, "the poll", s.Polling)
	if !s.DropPoll() {
		t.Fatal("no poll to drop")
	}
	if err := <-errc; err == nil {
		t.Error("the dropped poll got an answer")
	}
}

func TestGetChatMember(t *testing.T) {
	s := newServer(t)
	b, ctx := client(t, s), context.Background()
	const bea, cy, dan, eve, fay = int64(1002), int64(1003), int64(1004), int64(1005), int64(1006)
	for _, id := range []int64{bea, cy, dan, eve, fay} {
		s.AddUser(User{ID: id, FirstName: "P"})
	}
	s.SetMember(group, ada, Creator)
	s.SetMember(group, bea, Administrator)
	s.Say(group, cy, "hi") // speaking makes a member
	s.SetRestricted(group, dan, true)
	s.SetRestricted(group, eve, false)
	s.SetMember(group, fay, Kicked)
	s.SetMember(forum, ada, Left)
	tests := []struct {
		chat, user int64
		status     models.ChatMemberType
		isMember   bool
	}{
		{group, ada, models.ChatMemberTypeOwner, false},
		{group, bea, models.ChatMemberTypeAdministrator, false},
		{group, cy, models.ChatMemberTypeMember, false},
		{group, dan, models.ChatMemberTypeRestricted, true},
		{group, eve, models.ChatMemberTypeRestricted, false},
		{group, fay, models.ChatMemberTypeBanned, false},
		{forum, ada, models.ChatMemberTypeLeft, false},
		{forum, bea, models.ChatMemberTypeLeft, false}, // never in it
		{group, s.Bot().ID, models.ChatMemberTypeMember, false},
		{ada, ada, models.ChatMemberTypeMember, false}, // her private chat
		{ada, bea, models.ChatMemberTypeLeft, false},
	}
	for _, tt := range tests {
		m, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: tt.chat, UserID: tt.user})
		if err != nil {
			t.Errorf("getChatMember(%d, %d): %v", tt.chat, tt.user, err)
			continue
		}
		if m.Type != tt.status {
			t.Errorf("getChatMember(%d, %d) status = %q, want %q", tt.chat, tt.user, m.Type, tt.status)
		}
		if m.Type == models.ChatMemberTypeRestricted && m.Restricted.IsMember != tt.isMember {
			t.Errorf("getChatMember(%d, %d) is_member = %v, want %v", tt.chat, tt.user, m.Restricted.IsMember, tt.isMember)
		}
	}
	if m, _ := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: group, UserID: bea}); m.Administrator == nil || m.Administrator.User.ID != bea {
		t.Errorf("the administrator's object lacks the user: %+v", m.Administrator)
	}
	if _, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: group, UserID: 999}); !errors.Is(err, bot.ErrorBadRequest) || !strings.Contains(err.Error(), "user not found") {
		t.Errorf("an unknown user got %v, want 400 user not found", err)
	}
	if _, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: int64(-100999), UserID: ada}); !errors.Is(err, bot.ErrorBadRequest) || !strings.Contains(err.Error(), "chat not found") {
		t.Errorf("an unknown chat got %v, want 400 chat not found", err)
	}
	noViolations(t, s)
	if status, ans := call(t, s, "getChatMember", map[string]any{"chat_id": group}); status != http.StatusBadRequest || ans["description"] != "Bad Request: user_id is empty" {
		t.Errorf("a call without user_id got %d %v", status, ans)
	}
	if len(s.Violations()) != 1 {
		t.Errorf("a call without user_id is not a violation: %q", s.Violations())
	}
}

// TestLeaveChat: after leaveChat the group sends the bot nothing and refuses its calls until
// someone adds it again; a private chat cannot be left.
func TestLeaveChat(t *testing.T) {
	s := newServer(t)
	b, ctx := client(t, s), context.Background()
	if ok, err := b.LeaveChat(ctx, &bot.LeaveChatParams{ChatID: group}); err != nil || !ok {
		t.Fatalf("leaveChat = %v, %v", ok, err)
	}
	if s.BotIn(group) || !s.BotIn(forum) {
		t.Errorf("BotIn(group) = %v, BotIn(forum) = %v; want false, true", s.BotIn(group), s.BotIn(forum))
	}
	s.Say(group, ada, "anyone here?")
	s.Say(forum, ada, "still here")
	_, ans := call(t, s, "getUpdates", nil)
	ups := ans["result"].([]any)
	if len(ups) != 1 || ups[0].(map[string]any)["message"].(map[string]any)["text"] != "still here" {
		t.Errorf("updates after leaving: %v; want only the forum's message", ups)
	}
	_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: group, Text: "hello"})
	if !errors.Is(err, bot.ErrorForbidden) || !strings.Contains(err.Error(), "bot is not a member of the supergroup chat") {
		t.Errorf("sending to a chat the bot left got %v, want 403", err)
	}
	noViolations(t, s)
	s.SetMember(group, s.Bot().ID, Member)
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: group, Text: "back"}); err != nil {
		t.Errorf("after being added again: %v", err)
	}
	if _, err := b.LeaveChat(ctx, &bot.LeaveChatParams{ChatID: ada}); !errors.Is(err, bot.ErrorBadRequest) {
		t.Errorf("leaving a private chat got %v, want 400", err)
	}
	if len(s.Violations()) != 1 {
		t.Errorf("leaving a private chat is a violation: %q", s.Violations())
	}
}
