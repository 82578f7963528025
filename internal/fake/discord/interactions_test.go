package fakediscord

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/disgoorg/disgo/discord"
)

// question is a bot message's body with one action row of three buttons.
func question(content string, customIDs ...string) map[string]any {
	var bs []any
	for i, id := range customIDs {
		bs = append(bs, map[string]any{"type": 2, "style": []int{3, 2, 4}[i%3], "label": "Choice " + strconv.Itoa(i), "custom_id": id})
	}
	return map[string]any{"content": content, "components": []any{map[string]any{"type": 1, "components": bs}}}
}

// TestComponentsStoredAndChecked: buttons sent with a message are kept and sent back; an edit
// without components keeps them, one with [] takes them away; what Discord refuses (a
// custom_id over 100 characters, a label over 80, six buttons in a row, a custom_id twice)
// is answered with 400 Invalid Form Body naming the field, and recorded.
func TestComponentsStoredAndChecked(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	rc := restClient{t: t, s: s, token: s.Token()}
	code, msg := rc.json("POST", "/channels/"+general+"/messages", question("Allow?", "q:1:allow", "q:1:always", "q:1:deny"))
	if code != 200 {
		t.Fatalf("create = %d %v", code, msg)
	}
	id := msg["id"].(string)
	rows, _ := msg["components"].([]any)
	if len(rows) != 1 || !strings.Contains(toJSON(rows), `"custom_id":"q:1:deny"`) {
		t.Errorf("components sent back = %s", toJSON(rows))
	}
	if bs := s.Buttons(general, id); len(bs) != 3 || bs[0].Style != ButtonSuccess || bs[2].CustomID != "q:1:deny" {
		t.Errorf("Buttons = %+v", bs)
	}
	if code, _ := rc.json("PATCH", "/channels/"+general+"/messages/"+id, map[string]any{"content": "Still asking"}); code != 200 || len(s.Buttons(general, id)) != 3 {
		t.Errorf("an edit without components: %d, buttons %+v", code, s.Buttons(general, id))
	}
	if code, _ := rc.json("PATCH", "/channels/"+general+"/messages/"+id, map[string]any{"content": "Allowed", "components": []any{}}); code != 200 || len(s.Buttons(general, id)) != 0 {
		t.Errorf("an edit with components []: %d, buttons %+v", code, s.Buttons(general, id))
	}
	if v := s.Violations(); len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}

	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"custom_id of 101", question("x", "q:"+strings.Repeat("9", 99)), `"custom_id":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH"`},
		{"label of 81", map[string]any{"content": "x", "components": []any{map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 2, "style": 1, "label": strings.Repeat("a", 81), "custom_id": "a"}}}}}, `"label":{"_errors"`},
		{"six buttons", question("x", "a", "b", "c", "d", "e", "f"), `"components":{"0":{"components":{"_errors"`},
		{"a custom_id twice", question("x", "a", "a"), "COMPONENT_CUSTOM_ID_DUPLICATED"},
	} {
		before := len(s.Violations())
		code, _, out := rc.do("POST", "/channels/"+general+"/messages", "application/json", []byte(toJSON(c.body)))
		if code != 400 || out["code"] != float64(50035) || !strings.Contains(toJSON(out["errors"]), c.field) {
			t.Errorf("%s: %d %s; want 400 Invalid Form Body with %s", c.name, code, toJSON(out), c.field)
		}
		if len(s.Violations()) != before+1 {
			t.Errorf("%s was not recorded as a violation", c.name)
		}
	}
}

// TestPressDispatchesInteraction: a press becomes INTERACTION_CREATE, without any intent, in
// the shape disgo decodes as Discord's (member.user in a guild, user in a DM); the response
// goes to the callback endpoint with the interaction's token and no bot token, once.
func TestPressDispatchesInteraction(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	c := joined(t, s, IntentGuilds) // no message intents: interactions need none
	base := len(s.Violations())     // the fake holds mom to the message intents
	rc := restClient{t: t, s: s, token: s.Token()}
	_, msg := rc.json("POST", "/channels/"+general+"/messages", question("Allow?", "q:1:allow", "q:1:deny"))
	id := msg["id"].(string)
	_, dmMsg := rc.json("POST", "/channels/"+adaDM+"/messages", question("Allow?", "q:2:allow"))

	if _, err := s.Press(ada, general, id, "q:1:always"); err == nil {
		t.Error("pressed a button the message does not have")
	}
	iid, err := s.Press(ada, general, id, "q:1:allow")
	if err != nil {
		t.Fatal(err)
	}
	sent, raw := c.interaction()
	ci, ok := sent.(discord.ComponentInteraction)
	if !ok || ci.ID().String() != iid || ci.Data.CustomID() != "q:1:allow" || ci.Member() == nil ||
		ci.User().ID.String() != ada || ci.Channel().ID().String() != general || ci.Message.ID.String() != id ||
		ci.GuildID() == nil || ci.Version() != 1 || ci.AppPermissions() == nil {
		t.Fatalf("INTERACTION_CREATE = %s", raw)
	}

	// The endpoint takes the interaction's token and no Authorization header.
	anon := restClient{t: t, s: s}
	path := "/interactions/" + iid + "/" + ci.Token() + "/callback"
	if code, out := anon.json("POST", path, map[string]any{"type": 4, "data": map[string]any{"content": "No.", "flags": 64}}); code != 204 {
		t.Fatalf("callback = %d %v", code, out)
	}
	if v := s.Violations()[base:]; len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}
	if code, out := anon.json("POST", path, map[string]any{"type": 6}); code != 400 || out["code"] != float64(40060) {
		t.Errorf("a second response = %d %v; want 400 40060", code, out)
	}
	if code, out := anon.json("POST", "/interactions/"+iid+"/bm90LWl0/callback", map[string]any{"type": 6}); code != 404 || out["code"] != float64(10062) {
		t.Errorf("a wrong token = %d %v; want 404 10062", code, out)
	}
	if v := s.Violations()[base:]; len(v) != 2 {
		t.Errorf("violations = %q; want the second response and the wrong token", v)
	}
	in := s.Interactions()
	if len(in) != 1 || len(in[0].Responses) != 1 || in[0].Responses[0] != (InteractionResponse{Type: 4, Content: "No.", Flags: 64}) {
		t.Errorf("Interactions = %+v", in)
	}
	if n := len(s.Messages(general)); n != 1 {
		t.Errorf("the ephemeral response became one of %d messages everyone sees", n)
	}

	if _, err := s.Press(ada, adaDM, dmMsg["id"].(string), "q:2:allow"); err != nil {
		t.Fatal(err)
	}
	sent, raw = c.interaction()
	if ci, ok = sent.(discord.ComponentInteraction); !ok || ci.Member() != nil || ci.GuildID() != nil ||
		ci.User().ID.String() != ada || ci.Channel().ID().String() != adaDM {
		t.Errorf("a DM's INTERACTION_CREATE = %s", raw)
	}
}

func toJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
