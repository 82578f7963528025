package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
)

// TestCardButtonsDecideOnce: a card with buttons goes to every browser and into the history
// of its channel while it waits; a press calls its function with the person and the button,
// the card is done for every browser, and a second press (or one from another channel, or
// of a button it does not have) changes nothing. A press the function refuses leaves the
// card waiting.
func TestCardButtonsDecideOnce(t *testing.T) {
	t.Parallel()
	var a *Adapter
	base := startChatWith(t, 0, func(x *Adapter) { a = x })
	c := a.live.subscribe()
	drain(t, c)
	var pressed []string
	refuse := true
	id := a.showCard("general", card{Title: "Run `rm -rf build`?", Text: "mom wants to run **this**", Detail: "rm -rf build",
		Buttons: []button{{ID: "allow", Label: "Allow", Style: "primary"}, {ID: "always", Label: "Allow always"}, {ID: "deny", Label: "Deny", Style: "danger"}}},
		func(who chat.User, b string) (string, error) {
			if refuse {
				refuse = false
				return "", errors.New("not now")
			}
			pressed = append(pressed, who.DisplayName+":"+b)
			return "Allowed by " + who.DisplayName, nil
		})
	got := drain(t, c)
	if len(got) != 1 || got[0].Type != "card" || got[0].Card.HTML != "<p>mom wants to run <strong>this</strong></p>" || len(got[0].Card.Buttons) != 3 {
		t.Fatalf("the card's frames: %+v", got)
	}
	history := func() []frame {
		resp := call(t, base, "GET", "/api/channels/general/messages", "")
		var h struct{ Frames []frame }
		if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
			t.Fatal(err)
		}
		return h.Frames
	}
	if h := history(); len(h) != 1 || h[0].ID != id {
		t.Errorf("the waiting card is not in the history: %+v", h)
	}
	press := func(channel, button string) (int, string) {
		resp := call(t, base, "POST", "/api/channels/"+channel+"/cards/"+id, `{"name": "Ada", "button": "`+button+`"}`)
		var body map[string]string
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body["done"] + body["error"]
	}
	for _, c := range []struct {
		channel, button string
		status          int
		says            string
	}{
		{"ops", "allow", http.StatusGone, "answered already"},
		{"general", "explode", http.StatusBadRequest, "no button explode"},
		{"general", "allow", http.StatusConflict, "not now"},
		{"general", "allow", http.StatusOK, "Allowed by Ada"},
		{"general", "deny", http.StatusGone, "answered already"},
	} {
		if status, says := press(c.channel, c.button); status != c.status || !strings.Contains(says, c.says) {
			t.Errorf("pressing %s in %s: %d %q, want %d %q", c.button, c.channel, status, says, c.status, c.says)
		}
	}
	if strings.Join(pressed, ",") != "Ada:allow" {
		t.Errorf("pressed: %v", pressed)
	}
	if got := drain(t, c); len(got) != 1 || got[0].Type != "card_done" || got[0].Text != "Allowed by Ada" {
		t.Errorf("after the press: %+v", got)
	}
	if h := history(); len(h) != 0 {
		t.Errorf("the answered card is still in the history: %+v", h)
	}
}

// call sends a request with the test token to the chat at base (host:port).
func call(t *testing.T, base, method, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer test-token-0123456789abcdef")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
