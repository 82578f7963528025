package fakediscord

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
)

// missingAccess is Discord's answer to a request about a channel the bot cannot view.
var missingAccess = &restError{status: http.StatusForbidden, code: 50001, msg: "Missing Access"}

// HideChannel takes the View Channel permission away from the bot in a channel, as a server
// admin can: reading the channel or its messages answers 403 Missing Access, and its new
// messages are no longer dispatched to the bot.
func (s *Server) HideChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustChannel(id).hidden = true
	s.Notify()
}

// listMessages is GET /channels/{id}/messages (Get Channel Messages): at most limit (1–100,
// default 50) messages, newest first, before, after or around a message id (one of them at
// most), or the newest when none is given. Call it with s.mu held.
func (s *Server) listMessages(q url.Values, cid string) (int, any, *restError) {
	const route = "GET /channels/{id}/messages"
	ch, rerr := s.channelFor(cid)
	if rerr != nil {
		return 0, nil, rerr
	}
	if ch.hidden {
		return 0, nil, missingAccess
	}
	limit := 50
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			s.Violate("%s with limit %q, which is not a number", route, v)
			return 0, nil, fieldError("limit", "NUMBER_TYPE_COERCE", "Value \""+v+"\" is not int.")
		case n < 1:
			s.Violate("%s with limit %d; Discord takes 1 to 100", route, n)
			return 0, nil, fieldError("limit", "NUMBER_TYPE_MIN", "int value should be greater than or equal to 1.")
		case n > 100:
			s.Violate("%s with limit %d; Discord takes 1 to 100", route, n)
			return 0, nil, fieldError("limit", "NUMBER_TYPE_MAX", "int value should be less than or equal to 100.")
		}
		limit = n
	}
	var key string
	var at uint64
	for _, k := range []string{"around", "before", "after"} {
		v := q.Get(k)
		if v == "" {
			continue
		}
		if key != "" {
			s.Violate("%s with both %s and %s; Discord takes one of around, before and after", route, key, k)
			return 0, nil, fieldError(k, "BASE_TYPE_CHOICES", "Only one of around, before and after may be given.")
		}
		id, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.Violate("%s with %s=%q, which is not a snowflake", route, k, v)
			return 0, nil, fieldError(k, "NUMBER_TYPE_COERCE", "Value \""+v+"\" is not snowflake.")
		}
		key, at = k, id
	}
	msgs := ch.live() // oldest first
	i, found := position(msgs, at)
	switch key {
	case "after":
		if found {
			i++
		}
		msgs = msgs[i:min(len(msgs), i+limit)]
	case "before":
		msgs = msgs[max(0, i-limit):i]
	case "around":
		from := max(0, min(i-limit/2, len(msgs)-limit))
		msgs = msgs[from:min(len(msgs), from+limit)]
	default:
		msgs = msgs[max(0, len(msgs)-limit):]
	}
	out := make([]any, 0, len(msgs))
	for _, m := range slices.Backward(msgs) {
		out = append(out, s.restMessage(ch, m))
	}
	return http.StatusOK, out, nil
}

// restMessage is a message object as the REST API returns it: without the guild_id and member
// that only the gateway's MESSAGE_CREATE adds, and with content only if the application has
// the MESSAGE_CONTENT intent enabled (or the message is one a bot may always read). Call it
// with s.mu held.
func (s *Server) restMessage(ch *channel, m *message) map[string]any {
	w := s.wireMessage(ch, m, s.showsContent(ch, m, s.cfg.privileged))
	delete(w, "guild_id")
	delete(w, "member")
	return w
}

// live returns the channel's messages that were not deleted, oldest first.
func (ch *channel) live() []*message {
	var out []*message
	for _, m := range ch.msgs {
		if !m.deleted {
			out = append(out, m)
		}
	}
	return out
}

// position finds id among msgs (oldest first; ids grow with time): the index of the message
// with that id, or of the first newer one.
func position(msgs []*message, id uint64) (int, bool) {
	return slices.BinarySearchFunc(msgs, id, func(m *message, id uint64) int {
		n, _ := strconv.ParseUint(m.ID, 10, 64)
		return cmp.Compare(n, id)
	})
}
