package fakeslack

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Interactive components, as Slack delivers them over Socket Mode: a person's tap on a button
// of a Block Kit actions block becomes an "interactive" envelope whose payload is a
// block_actions interaction, which the app must acknowledge within three seconds (Slack
// shows the person a warning otherwise, and does not send it again). Ephemeral messages
// (chat.postEphemeral) are seen only by the person they are for.

// Button is a button of a Block Kit actions block in a message.
type Button struct {
	BlockID, ActionID, Value, Text, Style string
}

// Ephemeral is a message the bot showed one person with chat.postEphemeral.
type Ephemeral struct {
	Channel, User, Text, ThreadTS string
}

// wireBlock is as much of a Block Kit block as the fake reads.
type wireBlock struct {
	Type     string `json:"type"`
	BlockID  string `json:"block_id"`
	Elements []struct {
		Type     string          `json:"type"`
		ActionID string          `json:"action_id"`
		Value    string          `json:"value"`
		Style    string          `json:"style"`
		Text     json.RawMessage `json:"text"`
	} `json:"elements"`
}

// buttons lists the buttons of the actions blocks in blocks.
func buttons(blocks json.RawMessage) []Button {
	var bs []wireBlock
	if json.Unmarshal(blocks, &bs) != nil {
		return nil
	}
	var out []Button
	for _, b := range bs {
		if b.Type != "actions" {
			continue
		}
		for _, e := range b.Elements {
			if e.Type != "button" {
				continue
			}
			var t struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(e.Text, &t)
			out = append(out, Button{BlockID: b.BlockID, ActionID: e.ActionID, Value: e.Value, Text: t.Text, Style: e.Style})
		}
	}
	return out
}

// Click has userID tap the button with actionID on the message ts in channelID, and delivers
// the block_actions interaction to the app. It returns the envelope id, or an error when the
// message has no such button (a person can tap only what is there).
func (s *Server) Click(userID, channelID, ts, actionID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.lookupChannel(channelID)
	if ch == nil {
		return "", fmt.Errorf("fakeslack: no channel %s", channelID)
	}
	m := ch.find(ts)
	if m == nil || m.deleted {
		return "", fmt.Errorf("fakeslack: no message %s in %s", ts, channelID)
	}
	bs := buttons(m.blocks)
	i := slices.IndexFunc(bs, func(b Button) bool { return b.ActionID == actionID })
	if i < 0 {
		return "", fmt.Errorf("fakeslack: message %s has no button %q (it has %+v)", ts, actionID, bs)
	}
	u := s.user(userID)
	if u == nil {
		return "", fmt.Errorf("fakeslack: no user %s", userID)
	}
	b := bs[i]
	wire := s.wire(ch, m)
	payload := map[string]any{
		"type": "block_actions", "token": s.cfg.verificationToken, "api_app_id": s.cfg.appID,
		"user":      map[string]any{"id": u.ID, "username": u.Name, "name": u.Name, "team_id": s.cfg.teamID},
		"team":      map[string]any{"id": s.cfg.teamID, "domain": "acme"},
		"container": map[string]any{"type": "message", "message_ts": m.ts, "channel_id": ch.ID, "is_ephemeral": false},
		"channel":   map[string]any{"id": ch.ID, "name": ch.Name},
		"message":   wire, "trigger_id": s.id("", 10) + "." + s.id("", 10),
		"response_url": s.ts.URL + "/actions/" + s.id("T", 8),
		"state":        map[string]any{"values": map[string]any{}},
		"actions": []map[string]any{{
			"type": "button", "action_id": b.ActionID, "block_id": b.BlockID, "value": b.Value, "style": b.Style,
			"text": map[string]any{"type": "plain_text", "text": b.Text, "emoji": true},
		}},
	}
	actionTS, _ := s.stamp()
	payload["actions"].([]map[string]any)[0]["action_ts"] = actionTS
	raw, err := json.Marshal(payload)
	if err != nil {
		return "", err
	}
	e := &envelope{eventType: "block_actions", payload: raw, nextID: uuid(), kind: "interactive", once: true}
	s.queue = append(s.queue, e)
	s.wake()
	s.Notify()
	return e.nextID, nil
}

// Buttons returns the buttons the message ts in channelID shows now.
func (s *Server) Buttons(channelID, ts string) []Button {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.lookupChannel(channelID)
	if ch == nil {
		return nil
	}
	if m := ch.find(ts); m != nil {
		return buttons(m.blocks)
	}
	return nil
}

// chatPostEphemeral takes channel, user, text or blocks, thread_ts.
func (s *Server) chatPostEphemeral(q *apiReq) (obj, *apiError) {
	ch, e := s.writable(q, "channel")
	if e != nil {
		return nil, e
	}
	if e := q.need("user"); e != nil {
		return nil, e
	}
	if s.user(q.form.Get("user")) == nil {
		return nil, fail("user_not_found")
	}
	text, _, e := q.content()
	if e != nil {
		return nil, e
	}
	s.ephemerals = append(s.ephemerals, Ephemeral{Channel: ch.ID, User: q.form.Get("user"), Text: text, ThreadTS: q.form.Get("thread_ts")})
	s.Notify()
	ts, _ := s.stamp()
	return obj{"message_ts": ts}, nil
}

// Ephemerals returns the ephemeral messages the bot showed, in order.
func (s *Server) Ephemerals() []Ephemeral {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ephemerals)
}
