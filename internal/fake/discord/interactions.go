package fakediscord

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Interactions, as Discord documents them
// (https://discord.com/developers/docs/interactions/receiving-and-responding): a person's
// press on a button of a bot's message is dispatched to the bot as INTERACTION_CREATE, which
// needs no gateway intent, with type 3 MESSAGE_COMPONENT. The bot responds once, within three
// seconds, with POST /interactions/{id}/{token}/callback; that endpoint is authorized by the
// interaction's token in its path, not by the bot token. A second response is refused with
// 40060 "Interaction has already been acknowledged", a late one or one to an unknown
// interaction with 10062 "Unknown interaction".

// interactionTypeComponent is the MESSAGE_COMPONENT interaction type.
const interactionTypeComponent = 3

// respondWithin is how long Discord waits for an interaction's response.
const respondWithin = 3 * time.Second

// Interaction callback types a component interaction may be answered with.
const (
	CallbackChannelMessage         = 4 // CHANNEL_MESSAGE_WITH_SOURCE
	CallbackDeferredChannelMessage = 5 // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
	CallbackDeferredUpdateMessage  = 6 // DEFERRED_UPDATE_MESSAGE
	CallbackUpdateMessage          = 7 // UPDATE_MESSAGE
	CallbackModal                  = 9 // MODAL
)

// FlagEphemeral is the message flag of a response only the person who pressed sees.
const FlagEphemeral = 1 << 6

// responseFlags are the flags an interaction's message may carry: SUPPRESS_EMBEDS, EPHEMERAL,
// SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2.
const responseFlags = 1<<2 | FlagEphemeral | 1<<12 | 1<<15

// Interaction is a press on a button (Press) or a use of a slash command (Invoke), and what
// the bot responded.
type Interaction struct {
	ID                                     string
	UserID, ChannelID, MessageID, CustomID string
	// Command is the slash command's name, "" for a button press; Options are the values
	// given for its options.
	Command string
	Options map[string]string
	// Responses are the callbacks Discord accepted, at most one.
	Responses []InteractionResponse
}

// InteractionResponse is a callback the bot sent for an interaction.
type InteractionResponse struct {
	// Type is one of the Callback… types.
	Type    int
	Content string
	Flags   int64
}

type interaction struct {
	Interaction
	kind  int // interactionTypeComponent or interactionTypeCommand
	token string
	at    time.Time
}

// seenBy returns channelID as userID sees it, or why they cannot act in it: no such channel
// or user, or a channel they cannot see. s.mu is held.
func (s *Server) seenBy(userID, channelID string) (*channel, error) {
	ch := s.channels[channelID]
	if ch == nil {
		return nil, fmt.Errorf("fakediscord: no channel %s", channelID)
	}
	if s.users[userID] == nil {
		return nil, fmt.Errorf("fakediscord: no user %s", userID)
	}
	if !s.canView(userID, ch) {
		return nil, fmt.Errorf("fakediscord: %s cannot see channel %s", userID, channelID)
	}
	return ch, nil
}

// Press has userID press the button with customID on the bot's message messageID in
// channelID, and dispatches the MESSAGE_COMPONENT interaction. It returns the interaction's
// id, or an error when the person could not press it: no such message or button, a message
// that is not the bot's, or a channel they cannot see.
func (s *Server) Press(userID, channelID, messageID, customID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, err := s.seenBy(userID, channelID)
	if err != nil {
		return "", err
	}
	m := ch.find(messageID)
	if m == nil {
		return "", fmt.Errorf("fakediscord: no message %s in %s", messageID, channelID)
	}
	if m.Author != s.cfg.botID {
		return "", fmt.Errorf("fakediscord: message %s is not the bot's; its buttons are not the bot's to hear about", messageID)
	}
	b, ok := button(m.rows, customID)
	if !ok || b.Disabled {
		return "", errNoButton(m, customID)
	}
	id := s.snowflake()
	in := &interaction{Interaction: Interaction{ID: id, UserID: userID, ChannelID: channelID, MessageID: messageID, CustomID: customID},
		kind: interactionTypeComponent, token: interactionToken(id), at: time.Now()}
	s.interactions = append(s.interactions, in)
	d := s.wireInteraction(in, ch)
	d["data"] = map[string]any{"custom_id": in.CustomID, "component_type": componentButton}
	d["message"] = s.wireMessage(ch, m, true)
	// No intent guards interactions: every session hears them.
	s.dispatch("INTERACTION_CREATE", 0, func(int64) any { return d })
	return id, nil
}

// canView says whether a person can see a channel: their DM, or a guild channel (a thread's
// parent) where they have View Channel. Call it with s.mu held.
func (s *Server) canView(userID string, ch *channel) bool {
	switch ch.Kind {
	case KindDM:
		return ch.Recipient == userID
	case KindThread:
		if p := s.channels[ch.Parent]; p != nil {
			ch = p
		}
	}
	return !s.left && s.isMember(userID) && s.permissions(userID, ch)&PermViewChannel != 0
}

// dmPermissions are what anyone may do in a DM, as an interaction's permissions say.
const dmPermissions = PermViewChannel | PermSendMessages | PermEmbedLinks | PermAttachFiles |
	PermReadMessageHistory | PermAddReactions

// wireInteraction is the INTERACTION_CREATE payload of an interaction in ch, field by field
// as Discord's interaction object has it, but for data (and a button's message), which the
// caller adds. Call it with s.mu held.
func (s *Server) wireInteraction(in *interaction, ch *channel) map[string]any {
	d := map[string]any{
		"id": in.ID, "application_id": s.cfg.appID, "type": in.kind, "token": in.token,
		"version": 1, "locale": "en-US", "entitlements": []any{}, "attachment_size_limit": 10 << 20,
		"channel_id": ch.ID,
	}
	channel := s.wireChannel(ch)
	if ch.Kind == KindDM {
		d["user"] = s.wireUser(in.UserID)
		d["context"] = 1 // BOT_DM
		d["authorizing_integration_owners"] = map[string]any{"0": "0"}
		d["app_permissions"] = strconv.FormatInt(dmPermissions, 10)
		channel["permissions"] = strconv.FormatInt(dmPermissions, 10)
	} else {
		perms := strconv.FormatInt(s.permissions(in.UserID, s.permissionChannel(ch)), 10)
		member := s.wireMember(in.UserID, true)
		member["permissions"] = perms
		d["member"] = member
		d["guild_id"] = s.cfg.guildID
		d["guild"] = map[string]any{"id": s.cfg.guildID, "locale": "en-US", "features": []any{}}
		d["guild_locale"] = "en-US"
		d["context"] = 0 // GUILD
		d["authorizing_integration_owners"] = map[string]any{"0": s.cfg.guildID}
		d["app_permissions"] = strconv.FormatInt(s.permissions(s.cfg.botID, s.permissionChannel(ch)), 10)
		channel["permissions"] = perms
	}
	d["channel"] = channel
	return d
}

// permissionChannel is the channel whose overwrites decide permissions in ch: a thread's
// parent, else ch. Call it with s.mu held.
func (s *Server) permissionChannel(ch *channel) *channel {
	if ch.Kind == KindThread {
		if p := s.channels[ch.Parent]; p != nil {
			return p
		}
	}
	return ch
}

// callbackBody is the part of an interaction response the fake reads.
type callbackBody struct {
	Type *int `json:"type"`
	Data *struct {
		Content    *string           `json:"content"`
		Flags      int64             `json:"flags"`
		Components json.RawMessage   `json:"components"`
		Embeds     []json.RawMessage `json:"embeds"`
	} `json:"data"`
}

// interactionCallback is POST /interactions/{id}/{token}/callback. Call it with s.mu held.
func (s *Server) interactionCallback(r *http.Request, id, token string, body []byte) (int, any, *restError) {
	const route = "POST /interactions/{id}/{token}/callback"
	unknown := &restError{status: http.StatusNotFound, code: 10062, msg: "Unknown interaction"}
	i := slices.IndexFunc(s.interactions, func(in *interaction) bool { return in.ID == id })
	if i < 0 || s.interactions[i].token != token {
		s.Violate("%s for interaction %s, which Discord did not send, or with another interaction's token", route, id)
		return 0, nil, unknown
	}
	in := s.interactions[i]
	if len(in.Responses) > 0 {
		s.Violate("%s: a second response to interaction %s", route, id)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 40060, msg: "Interaction has already been acknowledged."}
	}
	if late := time.Since(in.at); late > respondWithin {
		s.Violate("%s: interaction %s answered after %v; Discord waits %v", route, id, late.Round(time.Millisecond), respondWithin)
		return 0, nil, unknown
	}
	var p callbackBody
	if err := json.Unmarshal(body, &p); err != nil {
		s.Violate("%s body is not JSON: %v", route, err)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 50109, msg: "The request body contains invalid JSON."}
	}
	// A slash command's interaction has no message of the bot to update.
	allowed, what := []int{CallbackChannelMessage, CallbackDeferredChannelMessage,
		CallbackDeferredUpdateMessage, CallbackUpdateMessage, CallbackModal, 10, 12}, "a button press"
	if in.kind == interactionTypeCommand {
		allowed, what = []int{CallbackChannelMessage, CallbackDeferredChannelMessage, CallbackModal, 10, 12}, "a slash command"
	}
	if p.Type == nil || !slices.Contains(allowed, *p.Type) {
		kind := "none"
		if p.Type != nil {
			kind = strconv.Itoa(*p.Type)
		}
		s.Violate("%s with type %s, which does not answer %s", route, kind, what)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 40043, msg: "Interaction callback type is not valid for this interaction"}
	}
	resp := InteractionResponse{Type: *p.Type}
	if p.Data != nil {
		resp.Flags = p.Data.Flags
		if p.Data.Content != nil {
			resp.Content = *p.Data.Content
		}
		if resp.Flags&^responseFlags != 0 {
			s.Violate("%s with flags %d; a response may carry only SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2", route, resp.Flags)
			return 0, nil, formError([]string{"data", "flags"}, "MESSAGE_FLAGS_INVALID", "Invalid message flags")
		}
	}
	ch := s.channels[in.ChannelID]
	if ch == nil {
		return 0, nil, &restError{status: http.StatusNotFound, code: 10003, msg: "Unknown Channel"}
	}
	m := ch.find(in.MessageID)
	switch resp.Type {
	case CallbackChannelMessage:
		if p.Data == nil || resp.Content == "" && len(p.Data.Embeds) == 0 && p.Data.Components == nil {
			s.Violate("%s: a message response with nothing to send", route)
			return 0, nil, &restError{status: http.StatusBadRequest, code: 50006, msg: "Cannot send an empty message"}
		}
		if rerr := s.checkContent(route, resp.Content); rerr != nil {
			return 0, nil, rerr
		}
		if resp.Flags&FlagEphemeral == 0 {
			// Seen by everyone: a message of the bot in the channel. An ephemeral one only
			// the person who pressed sees, so it is in Interactions alone.
			s.post(ch, &message{Message: Message{Author: s.cfg.botID, Content: resp.Content}, via: in})
		}
	case CallbackUpdateMessage:
		if m == nil {
			return 0, nil, &restError{status: http.StatusNotFound, code: 10008, msg: "Unknown Message"}
		}
		var content *string
		var components json.RawMessage
		if p.Data != nil {
			content, components = p.Data.Content, p.Data.Components
		}
		if rerr := s.update(ch, m, route, content, components); rerr != nil {
			return 0, nil, rerr
		}
	}
	in.Responses = append(in.Responses, resp)
	if r.URL.Query().Get("with_response") == "true" {
		return http.StatusOK, map[string]any{"interaction": map[string]any{"id": in.ID, "type": in.kind,
			"response_message_loading": false, "response_message_ephemeral": resp.Flags&FlagEphemeral != 0}}, nil
	}
	return http.StatusNoContent, nil, nil
}

// Interactions returns the button presses and slash commands so far and what the bot
// responded to each, in the order they happened.
func (s *Server) Interactions() []Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Interaction, 0, len(s.interactions))
	for _, in := range s.interactions {
		c := in.Interaction
		c.Responses = slices.Clone(c.Responses)
		c.Options = maps.Clone(c.Options)
		out = append(out, c)
	}
	return out
}
