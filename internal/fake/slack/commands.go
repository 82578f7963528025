package fakeslack

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Slash commands, as Slack delivers them over Socket Mode
// (https://api.slack.com/interactivity/slash-commands): an app gets only the commands its
// manifest declares (WithSlashCommands). A person's "/mom cost" becomes a "slash_commands"
// envelope with accepts_response_payload true, whose payload carries what Slack would post to
// a Request URL (token, team_id, team_domain, channel_id, channel_name, user_id, user_name,
// command, text, api_app_id, is_enterprise_install as the string "false", response_url,
// trigger_id). The app must acknowledge it within three seconds, or the person sees
// "operation_timeout" (Slack does not send it again). The ack may carry a response,
// {"text", "blocks", "response_type": "ephemeral" (the default, shown to the person alone) or
// "in_channel" (posted for everyone)}.

// CommandResponse is what an app's ack of a slash command said back.
type CommandResponse struct {
	EnvelopeID, Command, Channel, User string
	// ResponseType is "ephemeral" or "in_channel".
	ResponseType, Text string
}

// WithSlashCommands declares the app's slash commands ("/mom"), as the features.slash_commands
// of its manifest do.
func WithSlashCommands(commands ...string) Option {
	return func(c *config) { c.slashCommands = append(c.slashCommands, commands...) }
}

// SlashCommand has userID type command (one of WithSlashCommands) with text in channelID and
// delivers the slash_commands envelope. It returns the envelope's id, or an error where Slack
// would not send it: the app has no such command, or the person is not in the conversation.
func (s *Server) SlashCommand(userID, channelID, command, text string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.cfg.slashCommands, command) {
		return "", fmt.Errorf("fakeslack: the app has no slash command %s (it has %q)", command, s.cfg.slashCommands)
	}
	ch := s.lookupChannel(channelID)
	if ch == nil {
		return "", fmt.Errorf("fakeslack: no channel %s", channelID)
	}
	u := s.user(userID)
	if u == nil {
		return "", fmt.Errorf("fakeslack: no user %s", userID)
	}
	if ch.Kind != KindChannel && ch.User != userID && !slices.Contains(ch.Members, userID) {
		return "", fmt.Errorf("fakeslack: %s is not in %s", userID, channelID)
	}
	name := ch.Name
	switch ch.Kind {
	case KindIM:
		name = "directmessage"
	case KindPrivate:
		name = "privategroup"
	}
	trigger := s.id("", 13) + "." + s.id("", 13) + "." + strings.ToLower(s.id("", 32))
	payload := map[string]any{
		"token": s.cfg.verificationToken, "team_id": s.cfg.teamID, "team_domain": "acme",
		"channel_id": ch.ID, "channel_name": name, "user_id": u.ID, "user_name": u.Name,
		"command": command, "text": text, "api_app_id": s.cfg.appID, "is_enterprise_install": "false",
		"response_url": s.ts.URL + "/commands/" + s.cfg.teamID + "/" + s.id("", 13) + "/" + s.id("", 24),
		"trigger_id":   trigger,
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return "", err
	}
	e := &envelope{eventType: command, payload: raw, nextID: uuid(), kind: "slash_commands", once: true,
		command: &CommandResponse{Command: command, Channel: ch.ID, User: u.ID}}
	s.queue = append(s.queue, e)
	s.wake()
	s.Notify()
	return e.nextID, nil
}

// commandAck takes the response an ack of a slash command carries. Call it with s.mu held.
func (s *Server) commandAck(id string, e *envelope, payload json.RawMessage) {
	if len(payload) == 0 || string(payload) == "null" {
		return
	}
	var p struct {
		Text         string          `json:"text"`
		Blocks       json.RawMessage `json:"blocks"`
		ResponseType string          `json:"response_type"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		s.Violate("socket: the ack of slash command envelope %s carries a payload that is not a message: %s", id, payload)
		return
	}
	if p.ResponseType == "" {
		p.ResponseType = "ephemeral"
	}
	if p.ResponseType != "ephemeral" && p.ResponseType != "in_channel" {
		s.Violate("socket: the ack of slash command envelope %s has response_type %q (ephemeral or in_channel)", id, p.ResponseType)
		return
	}
	if p.Text == "" && len(p.Blocks) == 0 {
		s.Violate("socket: the ack of slash command envelope %s carries a response with no text or blocks", id)
		return
	}
	r := *e.command
	r.EnvelopeID, r.ResponseType, r.Text = id, p.ResponseType, p.Text
	s.commandResponses = append(s.commandResponses, r)
	if r.ResponseType == "ephemeral" {
		s.ephemerals = append(s.ephemerals, Ephemeral{Channel: r.Channel, User: r.User, Text: r.Text})
		return
	}
	if ch := s.lookupChannel(r.Channel); ch != nil {
		s.botMessage(ch, "", r.Text, p.Blocks, nil)
	}
}

// CommandResponses returns the responses the app's acks of slash commands carried, in order.
func (s *Server) CommandResponses() []CommandResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commandResponses)
}
