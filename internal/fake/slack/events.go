package fakeslack

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// MaxRetries is how many times an unacked envelope is redelivered before it is lost.
const MaxRetries = 3

// RetryReasonTimeout is the retry_reason of an envelope redelivered because it was not acked
// within the ack timeout.
const RetryReasonTimeout = "timeout"

// envelope is one Events API event on its way to the client, across its deliveries.
type envelope struct {
	eventID   string
	eventType string
	payload   json.RawMessage
	attempt   int
	reason    string
	nextID    string // envelope id of the next delivery
	current   string // envelope id of the latest delivery, "" before the first
	sent      bool   // the latest delivery is out and its ack is awaited
	deadline  time.Time
	// kind is the envelope's type: "events_api" when empty, "interactive" or "slash_commands";
	// once says
	// Slack does not send it again when its ack is late (interactions are not retried).
	kind string
	once bool
	// command is the slash command a "slash_commands" envelope carries, for its ack's response.
	command *CommandResponse
}

// Delivery is one envelope the server sent over a socket.
type Delivery struct {
	EnvelopeID   string
	EventID      string
	EventType    string // the inner event's type: "message", "app_mention", …
	RetryAttempt int
	RetryReason  string
	Connection   int // which socket carried it: 1 for the first one opened, and so on
	At           time.Time
	Acked        bool
}

type delivery struct {
	Delivery
	env *envelope
}

type wirePayload struct {
	Token               string              `json:"token"`
	TeamID              string              `json:"team_id"`
	ContextTeamID       string              `json:"context_team_id"`
	ContextEnterpriseID *string             `json:"context_enterprise_id"`
	APIAppID            string              `json:"api_app_id"`
	Event               json.RawMessage     `json:"event"`
	Type                string              `json:"type"`
	EventID             string              `json:"event_id"`
	EventTime           int64               `json:"event_time"`
	Authorizations      []wireAuthorization `json:"authorizations"`
	IsExtSharedChannel  bool                `json:"is_ext_shared_channel"`
	EventContext        string              `json:"event_context"`
}

type wireAuthorization struct {
	EnterpriseID        *string `json:"enterprise_id"`
	TeamID              string  `json:"team_id"`
	UserID              string  `json:"user_id"`
	IsBot               bool    `json:"is_bot"`
	IsEnterpriseInstall bool    `json:"is_enterprise_install"`
}

type wireEnvelope struct {
	EnvelopeID             string          `json:"envelope_id"`
	Payload                json.RawMessage `json:"payload"`
	Type                   string          `json:"type"`
	AcceptsResponsePayload bool            `json:"accepts_response_payload"`
	RetryAttempt           int             `json:"retry_attempt"`
	RetryReason            string          `json:"retry_reason"`
}

// enqueue wraps an inner event in an event_callback payload and queues it for delivery. It
// returns the envelope id of the first delivery. Call it with s.mu held.
func (s *Server) enqueue(event any) string {
	raw, err := json.Marshal(event)
	if err != nil {
		panic(fmt.Sprintf("fakeslack: event does not marshal: %v", err))
	}
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &head)
	evID := s.id("Ev0", 8)
	ctx := fmt.Sprintf(`{"id":"%s","tid":"%s","aid":"%s"}`, evID, s.cfg.teamID, s.cfg.appID)
	p, _ := json.Marshal(wirePayload{
		Token: s.cfg.verificationToken, TeamID: s.cfg.teamID, ContextTeamID: s.cfg.teamID,
		APIAppID: s.cfg.appID, Event: raw, Type: "event_callback", EventID: evID, EventTime: s.now().Unix(),
		Authorizations: []wireAuthorization{{TeamID: s.cfg.teamID, UserID: s.cfg.botUser, IsBot: true}},
		EventContext:   "4-" + base64.RawURLEncoding.EncodeToString([]byte(ctx)),
	})
	e := &envelope{eventID: evID, eventType: head.Type, payload: p, nextID: uuid()}
	s.queue = append(s.queue, e)
	s.wake()
	return e.nextID
}

// Deliver sends any inner event (the "event" object of an event_callback) to the client in
// an events_api envelope, as Slack would, and returns the envelope id of its first delivery.
// It is for events the other helpers do not make; the event is sent as given.
func (s *Server) Deliver(event map[string]any) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.enqueue(event)
	s.Notify()
	return id
}

// Unacked returns the envelope ids that were delivered and are still awaiting their ack.
func (s *Server) Unacked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, e := range s.queue {
		if e.sent {
			out = append(out, e.current)
		}
	}
	return out
}

// Pending returns how many events are queued and not yet delivered (no socket was open, or a
// redelivery is due).
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.queue {
		if !e.sent {
			n++
		}
	}
	return n
}

// Lost returns how many events were dropped after MaxRetries redeliveries went unacked.
func (s *Server) Lost() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// Deliveries returns every envelope sent so far, in sending order, with whether it was acked.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Delivery, len(s.sent))
	for i, d := range s.sent {
		out[i] = d.Delivery
	}
	return out
}

// mentions reports whether text mentions the user: <@U123> or <@U123|name>.
func mentions(text, user string) bool {
	return strings.Contains(text, "<@"+user+">") || strings.Contains(text, "<@"+user+"|")
}

func (s *Server) ownMessage(m *message) bool {
	return m.user == s.cfg.botUser && m.botID == s.cfg.botID
}

// announce queues the events a new message causes, as Slack does for an app subscribed to
// message.* and app_mention: nothing unless the bot is in the channel; a message event; and
// an app_mention event when someone else's message mentions the bot outside an IM. Call it with s.mu
// held.
func (s *Server) announce(ch *channel, m *message) {
	if !ch.botMember() {
		return
	}
	ev := s.wire(ch, m)
	ev.Channel, ev.EventTS, ev.ChannelType = ch.ID, m.ts, ch.channelType()
	s.enqueue(ev)
	switch {
	case ch.Kind == KindIM, m.user == s.cfg.botUser, !mentions(m.text, s.cfg.botUser):
		return
	case m.subtype != "" && m.subtype != "file_share" && m.subtype != "bot_message" && m.subtype != "thread_broadcast":
		return // channel_join and other notices mention without calling
	}
	am := *s.wire(ch, m)
	am.Type, am.Subtype, am.BotProfile, am.DisplayAsBot = "app_mention", "", nil, nil
	am.Channel, am.EventTS = ch.ID, m.ts
	s.enqueue(&am)
}

// announceEdit queues the message_changed event of an edit; prev is the message before it.
func (s *Server) announceEdit(ch *channel, m *message, prev *wireMsg) {
	if !ch.botMember() {
		return
	}
	s.enqueue(wireChanged{Type: "message", Subtype: "message_changed", Hidden: true, Message: s.wire(ch, m),
		PreviousMessage: prev, Channel: ch.ID, TS: m.editedTS, EventTS: m.editedTS, ChannelType: ch.channelType()})
}

// announceDelete queues the message_deleted event of a deletion made at ts.
func (s *Server) announceDelete(ch *channel, m *message, prev *wireMsg, ts string) {
	if !ch.botMember() {
		return
	}
	s.enqueue(wireDeleted{Type: "message", Subtype: "message_deleted", Hidden: true, Channel: ch.ID, TS: ts,
		DeletedTS: m.ts, EventTS: ts, PreviousMessage: prev, ChannelType: ch.channelType()})
}

// plan runs the envelope state machine at now and returns what to write: redeliveries of
// envelopes whose ack is overdue, disconnect messages, and queued envelopes for the newest
// socket that may receive events. It also returns when it must run again. Call it with s.mu
// held.
func (s *Server) plan(now time.Time) (writes []outgoing, next time.Time) {
	changed := false
	kept := s.queue[:0]
	for _, e := range s.queue {
		if e.sent && !now.Before(e.deadline) {
			changed = true
			if e.once {
				continue
			}
			if e.attempt >= MaxRetries {
				s.lost++
				continue
			}
			e.sent, e.attempt, e.reason, e.nextID = false, e.attempt+1, RetryReasonTimeout, uuid()
		}
		kept = append(kept, e)
	}
	clear(s.queue[len(kept):])
	s.queue = kept

	for _, so := range s.sockets {
		if so.disconnect == "" || !so.ready {
			continue
		}
		b, _ := json.Marshal(map[string]any{"type": "disconnect", "reason": so.disconnect,
			"debug_info": map[string]any{"host": so.host}})
		writes = append(writes, outgoing{so, b})
		if so.disconnect != "warning" {
			so.draining = true
			so.closeLater(refreshGrace)
			changed = true
		}
		so.disconnect = ""
	}

	if target := s.target(); target != nil {
		for _, e := range s.queue {
			if e.sent {
				continue
			}
			id := e.nextID
			e.current, e.sent, e.deadline = id, true, now.Add(s.cfg.ackTimeout)
			kind := e.kind
			if kind == "" {
				kind = "events_api"
			}
			b, _ := json.Marshal(wireEnvelope{EnvelopeID: id, Payload: e.payload, Type: kind,
				AcceptsResponsePayload: e.command != nil, RetryAttempt: e.attempt, RetryReason: e.reason})
			d := &delivery{Delivery: Delivery{EnvelopeID: id, EventID: e.eventID, EventType: e.eventType,
				RetryAttempt: e.attempt, RetryReason: e.reason, Connection: target.n, At: now}, env: e}
			s.deliveries[id] = d
			s.sent = append(s.sent, d)
			writes = append(writes, outgoing{target, b})
			changed = true
		}
	}

	for _, e := range s.queue {
		if e.sent && (next.IsZero() || e.deadline.Before(next)) {
			next = e.deadline
		}
	}
	if changed {
		s.Notify()
	}
	return writes, next
}

// ack handles an acknowledgement from the client. Call it with s.mu held.
func (s *Server) ack(id string, payload json.RawMessage) {
	d := s.deliveries[id]
	switch {
	case d == nil:
		s.Violate("socket: ack for unknown envelope_id %q", id)
		return
	case d.Acked:
		s.Violate("socket: duplicate ack for envelope_id %q", id)
		return
	}
	d.Acked = true
	e := d.env
	if e.command != nil {
		if late := s.now().Sub(d.At); late > s.cfg.ackTimeout {
			s.Violate("socket: slash command envelope %s acked after %v; the person was told the command timed out", id, late.Round(time.Millisecond))
		}
		s.commandAck(id, e, payload)
	}
	// A late ack of the latest delivery settles the event even when its redelivery is
	// already scheduled; an ack of a superseded delivery settles nothing.
	if e.current == id {
		if i := slices.Index(s.queue, e); i >= 0 {
			s.queue = slices.Delete(s.queue, i, i+1)
		}
	}
	s.Notify()
	s.wake()
}
