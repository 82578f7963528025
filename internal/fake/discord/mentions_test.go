package fakediscord

import (
	"encoding/json"
	"testing"
)

// wireMsg is the part of a MESSAGE_CREATE the mention tests read.
type wireMsg struct {
	ID       string `json:"id"`
	Type     int    `json:"type"`
	Content  string `json:"content"`
	Mentions []struct {
		ID string `json:"id"`
	} `json:"mentions"`
	MentionRoles []string `json:"mention_roles"`
	Reference    *struct {
		MessageID string `json:"message_id"`
	} `json:"message_reference"`
	Referenced json.RawMessage `json:"referenced_message"`
}

func (c *client) message() wireMsg {
	c.t.Helper()
	var m wireMsg
	if err := json.Unmarshal(c.dispatch("MESSAGE_CREATE").D, &m); err != nil {
		c.t.Fatal(err)
	}
	return m
}

func mentionIDs(m wireMsg) []string {
	var ids []string
	for _, u := range m.Mentions {
		ids = append(ids, u.ID)
	}
	return ids
}

// TestRepliesCarryTheRepliedToMessage: a reply is type 19 with message_reference and the
// replied-to message as referenced_message (one level deep); it mentions the replied-to author
// unless its ping was switched off, and a reply to a deleted message has referenced_message
// null.
func TestRepliesCarryTheRepliedToMessage(t *testing.T) {
	s := newTestServer(t)
	c := joined(t, s, allIntents)
	rc := restClient{t: t, s: s, token: s.Token()}
	_, answer := rc.json("POST", "/channels/"+general+"/messages", map[string]any{"content": "the answer"})
	c.message()

	s.Say(general, ada, "thanks", InReplyTo(answer["id"].(string)))
	pinged := c.message()
	if pinged.Type != 19 || pinged.Reference == nil || pinged.Reference.MessageID != answer["id"] {
		t.Errorf("reply = %+v; want type 19 referencing the answer", pinged)
	}
	if ids := mentionIDs(pinged); len(ids) != 1 || ids[0] != s.BotID() {
		t.Errorf("a reply with its ping mentions %q; want the bot", ids)
	}
	var ref struct {
		Author     struct{ ID string } `json:"author"`
		Content    string              `json:"content"`
		Referenced *json.RawMessage    `json:"referenced_message"`
	}
	if err := json.Unmarshal(pinged.Referenced, &ref); err != nil || ref.Author.ID != s.BotID() || ref.Content != "the answer" {
		t.Errorf("referenced_message = %s; want the answer", pinged.Referenced)
	}

	s.Say(general, ada, "and another thing", InReplyTo(pinged.ID), NoPing())
	quiet := c.message()
	if ids := mentionIDs(quiet); len(ids) != 0 || quiet.Reference == nil || quiet.Reference.MessageID != pinged.ID {
		t.Errorf("a reply without ping = %+v; want a reference and no mentions", quiet)
	}
	if json.Unmarshal(quiet.Referenced, &ref) != nil || ref.Content != "thanks" || ref.Referenced != nil {
		t.Errorf("referenced_message = %s; want the replied-to message without its own referenced_message", quiet.Referenced)
	}

	// The bot's own reply pings only when its allowed_mentions says replied_user.
	rc.json("POST", "/channels/"+general+"/messages", map[string]any{"content": "noted",
		"message_reference": map[string]any{"message_id": quiet.ID}, "allowed_mentions": map[string]any{"parse": []string{"users"}}})
	if ids := mentionIDs(c.message()); len(ids) != 0 {
		t.Errorf("the bot's reply with replied_user unset mentions %q", ids)
	}

	rc.json("DELETE", "/channels/"+general+"/messages/"+answer["id"].(string), nil)
	var objs []map[string]any // newest first: noted, and another thing, thanks
	if code := getJSON(t, s, "/channels/"+general+"/messages?limit=10", &objs); code != 200 || len(objs) != 3 {
		t.Fatalf("history = %d %v", code, objs)
	}
	if v, ok := objs[2]["referenced_message"]; !ok || v != nil {
		t.Errorf("a reply to a deleted message has referenced_message %v; want null", v)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}

// TestRoleMentions: <@&id> of a guild role lands in mention_roles, never in mentions; the
// bot's managed role is one such role.
func TestRoleMentions(t *testing.T) {
	s := newTestServer(t)
	oncall := s.AddRole(Role{Name: "oncall"})
	c := joined(t, s, allIntents)
	s.Say(general, ada, "<@&"+s.BotRoleID()+"> ask <@&"+oncall+"> and <@&"+oncall+">, not <@&999> or <@"+ada+">")
	m := c.message()
	if len(m.MentionRoles) != 2 || m.MentionRoles[0] != s.BotRoleID() || m.MentionRoles[1] != oncall {
		t.Errorf("mention_roles = %q; want the bot's role and oncall, once each", m.MentionRoles)
	}
	if ids := mentionIDs(m); len(ids) != 1 || ids[0] != ada {
		t.Errorf("mentions = %q; want ada alone", ids)
	}
}

// TestThreadNeedsCreatePublicThreads: starting a thread from a message needs Create Public
// Threads in the channel; without it Discord answers 403 Missing Permissions (50013), which
// is no protocol mistake.
func TestThreadNeedsCreatePublicThreads(t *testing.T) {
	s := newTestServer(t)
	rc := restClient{t: t, s: s, token: s.Token()}
	s.SetOwner(ada) // the owner may do everything
	s.SetOverwrites(general, Overwrite{ID: s.BotRoleID(), Type: OverwriteRole, Deny: PermCreatePublicThreads})
	_, msg := rc.json("POST", "/channels/"+general+"/messages", map[string]any{"content": "the answer"})
	code, out := rc.json("POST", "/channels/"+general+"/messages/"+msg["id"].(string)+"/threads", map[string]any{"name": "details"})
	if code != 403 || out["code"] != float64(50013) || out["message"] != "Missing Permissions" {
		t.Errorf("thread without the permission = %d %v; want 403 Missing Permissions", code, out)
	}
	// A member overwrite allowing it beats the role's deny.
	s.SetOverwrites(general, Overwrite{ID: s.BotRoleID(), Type: OverwriteRole, Deny: PermCreatePublicThreads},
		Overwrite{ID: s.BotID(), Type: OverwriteMember, Allow: PermCreatePublicThreads})
	if code, out := rc.json("POST", "/channels/"+general+"/messages/"+msg["id"].(string)+"/threads", map[string]any{"name": "details"}); code != 201 {
		t.Errorf("thread with the member's allow = %d %v", code, out)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}
