package fakediscord

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// Call is one REST request the server received.
type Call struct {
	// Route is the method and the path with ids as {id}: "POST /channels/{id}/messages".
	Route string
	// Path is the path after /api/v10, ids included.
	Path   string
	Status int
	At     time.Time
}

// Calls returns the calls of a route (every call when route is ""), in arrival order.
func (s *Server) Calls(route string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fakeserver.Select(s.calls, route, func(c Call) string { return c.Route })
}

type rateLimit struct {
	left  int           // 429s still to answer
	after time.Duration // the retry_after of each
	until time.Time     // when the last 429's wait ends
}

// RateLimit makes the next n requests on route (as in Call.Route) answer 429 with
// retry_after. A request on the route before a 429's wait is over is a violation.
func (s *Server) RateLimit(route string, n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits[route] = &rateLimit{left: n, after: retryAfter}
}

// routeOf replaces the ids in a path with {id}, and the interaction or webhook token in one
// with {token}, so calls group by route as Discord's rate limits do.
func routeOf(method, path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			parts[i] = "{id}"
		}
	}
	if len(parts) > 3 && (parts[1] == "interactions" || parts[1] == "webhooks") {
		parts[3] = "{token}"
	}
	return method + " " + strings.Join(parts, "/")
}

// tokenAuthorized says whether a route is authorized by the token in its path (an
// interaction's or a webhook's) rather than by the bot token: Discord asks for no
// Authorization header there.
func tokenAuthorized(route string) bool {
	_, path, _ := strings.Cut(route, " ")
	return strings.HasPrefix(path, "/interactions/{id}/{token}/") || strings.HasPrefix(path, "/webhooks/{id}/{token}")
}

// restError is Discord's error body.
type restError struct {
	status int
	code   int
	msg    string
	errors map[string]any
}

func writeError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]any{"message": msg, "code": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// fieldError is a 50035 Invalid Form Body naming the field, as Discord reports them.
func fieldError(field, code, msg string) *restError {
	return &restError{status: http.StatusBadRequest, code: 50035, msg: "Invalid Form Body",
		errors: map[string]any{field: map[string]any{"_errors": []any{map[string]any{"code": code, "message": msg}}}}}
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, path string) {
	route := routeOf(r.Method, path)
	body, err := io.ReadAll(io.LimitReader(r.Body, 30<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, 0, "could not read the body")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{Route: route, Path: path, At: time.Now()}
	defer func() {
		s.calls = append(s.calls, call)
		s.Notify()
	}()
	if !tokenAuthorized(route) && r.Header.Get("Authorization") != "Bot "+s.cfg.token {
		s.Violate("%s without the bot token (Authorization: Bot <token>)", route)
		call.Status = http.StatusUnauthorized
		writeError(w, call.Status, 0, "401: Unauthorized")
		return
	}
	if !strings.HasPrefix(r.Header.Get("User-Agent"), "DiscordBot ") {
		s.Violate("%s with User-Agent %q; Discord wants \"DiscordBot ($url, $version)\"", route, r.Header.Get("User-Agent"))
	}
	bucket := sha1.Sum([]byte(route))
	h := w.Header()
	h.Set("Via", "1.1 google")
	h.Set("X-RateLimit-Bucket", hex.EncodeToString(bucket[:8]))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Scope", "user")
	if rl := s.limits[route]; rl != nil {
		if now := time.Now(); now.Before(rl.until.Add(-20 * time.Millisecond)) {
			s.Violate("%s sent %v before the end of the 429's retry_after", route, rl.until.Sub(now).Round(time.Millisecond))
		}
		if rl.left > 0 {
			rl.left--
			rl.until = time.Now().Add(rl.after)
			secs := rl.after.Seconds()
			h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
			h.Set("X-RateLimit-Remaining", "0")
			h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(rl.until.UnixMilli())/1000, 'f', 3, 64))
			h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
			call.Status = http.StatusTooManyRequests
			writeJSON(w, call.Status, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": false})
			return
		}
	}
	h.Set("X-RateLimit-Remaining", "4")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(time.Second).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", "1.000")

	status, resp, rerr := s.route(r, route, path, body)
	if rerr != nil {
		call.Status = rerr.status
		out := map[string]any{"message": rerr.msg, "code": rerr.code}
		if rerr.errors != nil {
			out["errors"] = rerr.errors
		}
		writeJSON(w, rerr.status, out)
		return
	}
	call.Status = status
	if s.lose[route] > 0 {
		s.lose[route]--
		s.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		s.mu.Lock() // for the deferred record and unlock
		return
	}
	if resp == nil {
		w.WriteHeader(status)
		return
	}
	writeJSON(w, status, resp)
}

// LoseAnswers makes the next n requests of route ("POST /channels/{id}/messages") that
// succeed do what they ask, and never answer: the caller waits until it hangs up, as when the
// connection dies after Discord has acted on a request. A message created so is in the
// channel, and the client never learns its id.
func (s *Server) LoseAnswers(route string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lose == nil {
		s.lose = map[string]int{}
	}
	s.lose[route] = n
}

// route runs the handler of one request. Call it with s.mu held.
func (s *Server) route(r *http.Request, route, path string, body []byte) (int, any, *restError) {
	seg := strings.Split(strings.Trim(path, "/"), "/")
	if rerr := s.outside(seg); rerr != nil {
		return 0, nil, rerr
	}
	switch route {
	case "GET /users/@me":
		return http.StatusOK, s.wireUser(s.cfg.botID), nil
	case "GET /gateway":
		return http.StatusOK, map[string]any{"url": s.GatewayURL()}, nil
	case "GET /gateway/bot":
		return http.StatusOK, map[string]any{"url": s.GatewayURL(), "shards": 1, "session_start_limit": map[string]any{
			"total": s.cfg.sessionStartLimit, "remaining": s.cfg.sessionStartLimit - s.identifies,
			"reset_after": 14400000, "max_concurrency": 1}}, nil
	case "GET /users/{id}":
		if s.users[seg[1]] == nil {
			return 0, nil, &restError{status: http.StatusNotFound, code: 10013, msg: "Unknown User"}
		}
		return http.StatusOK, s.wireUser(seg[1]), nil
	case "GET /channels/{id}":
		ch := s.channels[seg[1]]
		if ch == nil {
			return 0, nil, &restError{status: http.StatusNotFound, code: 10003, msg: "Unknown Channel"}
		}
		if ch.hidden {
			return 0, nil, missingAccess
		}
		return http.StatusOK, s.wireChannel(ch), nil
	case "GET /channels/{id}/messages":
		return s.listMessages(r.URL.Query(), seg[1])
	case "POST /channels/{id}/messages":
		return s.createMessage(r, seg[1], body)
	case "PATCH /channels/{id}/messages/{id}":
		return s.editMessage(seg[1], seg[3], body)
	case "DELETE /channels/{id}/messages/{id}":
		return s.deleteMessage(seg[1], seg[3])
	case "POST /channels/{id}/messages/{id}/threads":
		return s.createThread(seg[1], seg[3], body)
	case "GET /guilds/{id}", "GET /guilds/{id}/channels", "GET /guilds/{id}/roles", "GET /guilds/{id}/members/{id}":
		return s.guildRoute(route, seg)
	case "DELETE /users/@me/guilds/{id}":
		return s.leaveGuild(seg[3])
	case "PUT /applications/{id}/commands", "GET /applications/{id}/commands":
		return s.applicationRoute(route, seg[1], body)
	case "POST /interactions/{id}/{token}/callback":
		return s.interactionCallback(r, seg[1], seg[2], body)
	case "POST /channels/{id}/typing":
		if s.channels[seg[1]] == nil {
			return 0, nil, &restError{status: http.StatusNotFound, code: 10003, msg: "Unknown Channel"}
		}
		s.typing = append(s.typing, seg[1])
		return http.StatusNoContent, nil, nil
	}
	s.Violate("%s is not an endpoint the fake knows (%s %s)", route, r.Method, path)
	return 0, nil, &restError{status: http.StatusNotFound, code: 0, msg: "404: Not Found"}
}

// channelFor finds the channel of a message route. Call it with s.mu held.
func (s *Server) channelFor(id string) (*channel, *restError) {
	ch := s.channels[id]
	if ch == nil {
		return nil, &restError{status: http.StatusNotFound, code: 10003, msg: "Unknown Channel"}
	}
	return ch, nil
}

// messageIntent is the intent a channel's message events need.
func messageIntent(ch *channel) int64 {
	if ch.Kind == KindDM {
		return IntentDirectMessages
	}
	return IntentGuildMessages
}

// checkContent applies Discord's 2,000-character limit. Call it with s.mu held.
func (s *Server) checkContent(route, content string) *restError {
	if n := len([]rune(content)); n > 2000 {
		s.Violate("%s with content of %d characters; Discord takes at most 2,000", route, n)
		return fieldError("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
	}
	return nil
}

// botMessage finds the message a bot's edit or delete (what) addresses. A message someone
// else wrote is a violation, answered with denied, Discord's answer for that request. s.mu is
// held.
func (s *Server) botMessage(cid, mid, what string, denied *restError) (*channel, *message, *restError) {
	ch, rerr := s.channelFor(cid)
	if rerr != nil {
		return nil, nil, rerr
	}
	m := ch.find(mid)
	if m == nil {
		return nil, nil, &restError{status: http.StatusNotFound, code: 10008, msg: "Unknown Message"}
	}
	if m.Author != s.cfg.botID {
		s.Violate("%s of message %s, which the bot did not write", what, mid)
		return nil, nil, denied
	}
	return ch, m, nil
}

func (s *Server) editMessage(cid, mid string, body []byte) (int, any, *restError) {
	ch, m, rerr := s.botMessage(cid, mid, "edit",
		&restError{status: http.StatusForbidden, code: 50005, msg: "Cannot edit a message authored by another user"})
	if rerr != nil {
		return 0, nil, rerr
	}
	var p struct {
		Content    *string         `json:"content"`
		Components json.RawMessage `json:"components"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		s.Violate("PATCH message body is not JSON: %v", err)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 50109, msg: "The request body contains invalid JSON."}
	}
	if rerr := s.update(ch, m, "PATCH /channels/{id}/messages/{id}", p.Content, p.Components); rerr != nil {
		return 0, nil, rerr
	}
	return http.StatusOK, s.wireMessage(ch, m, true), nil
}

// update applies an edit of content and components (each nil when the edit leaves it; null
// components take them away, as [] does) and dispatches MESSAGE_UPDATE. Call it with s.mu
// held.
func (s *Server) update(ch *channel, m *message, route string, content *string, components json.RawMessage) *restError {
	if content != nil {
		if rerr := s.checkContent(route, *content); rerr != nil {
			return rerr
		}
	}
	var rows [][]Button
	if components != nil && string(components) != "null" {
		var rerr *restError
		if rows, rerr = s.readComponents(route, components); rerr != nil {
			return rerr
		}
	}
	if content != nil {
		m.Content = *content
	}
	if components != nil {
		m.rows = rows
	}
	m.Edits++
	s.dispatch("MESSAGE_UPDATE", messageIntent(ch), func(intents int64) any {
		return s.wireMessage(ch, m, true)
	})
	return nil
}

func (s *Server) deleteMessage(cid, mid string) (int, any, *restError) {
	ch, m, rerr := s.botMessage(cid, mid, "delete", missingPermissions)
	if rerr != nil {
		return 0, nil, rerr
	}
	m.deleted = true
	s.dispatch("MESSAGE_DELETE", messageIntent(ch), func(int64) any {
		d := map[string]any{"id": mid, "channel_id": cid}
		if ch.Kind != KindDM {
			d["guild_id"] = s.cfg.guildID
		}
		return d
	})
	return http.StatusNoContent, nil, nil
}

// missingPermissions is Discord's answer to a request the bot lacks a permission for.
var missingPermissions = &restError{status: http.StatusForbidden, code: 50013, msg: "Missing Permissions"}

// createThread is POST /channels/{id}/messages/{id}/threads (Start Thread from Message). It
// needs the bot's Create Public Threads permission in the channel. Call it with s.mu held.
func (s *Server) createThread(cid, mid string, body []byte) (int, any, *restError) {
	ch, rerr := s.channelFor(cid)
	if rerr != nil {
		return 0, nil, rerr
	}
	if ch.Kind != KindText {
		s.Violate("thread created from a message in channel %s, which is not a guild text channel (type %d)", cid, ch.Kind)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 50024, msg: "Cannot execute action on this channel type"}
	}
	m := ch.find(mid)
	if m == nil {
		return 0, nil, &restError{status: http.StatusNotFound, code: 10008, msg: "Unknown Message"}
	}
	if s.permissions(s.cfg.botID, ch)&PermCreatePublicThreads == 0 {
		// Not a violation: a bot learns it may not by asking, as mom does.
		return 0, nil, missingPermissions
	}
	if m.Thread != "" {
		s.Violate("second thread created from message %s", mid)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 160004, msg: "A thread has already been created for this message"}
	}
	var p struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.Name == "" || len([]rune(p.Name)) > 100 {
		s.Violate("thread name must be 1 to 100 characters, got %.120s", body)
		return 0, nil, fieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	th := s.addChannelLocked(Channel{ID: mid, Name: p.Name, Kind: KindThread, Parent: cid})
	m.Thread = mid
	s.dispatch("THREAD_CREATE", IntentGuilds, func(int64) any {
		d := s.wireChannel(th)
		d["newly_created"] = true
		return d
	})
	return http.StatusCreated, s.wireChannel(th), nil
}

// cdnURL is where a message attachment is served, with the signature parameters Discord's
// CDN links carry. Call it with s.mu held.
func (s *Server) cdnURL(cid, aid, name string, f File) string {
	path := fmt.Sprintf("/attachments/%s/%s/%s", cid, aid, name)
	s.files[path] = &f
	exp := strconv.FormatInt(time.Now().Add(24*time.Hour).Unix(), 16)
	return s.ts.URL + path + "?ex=" + exp + "&is=" + strconv.FormatInt(time.Now().Unix(), 16) + "&hm=" + randomHex(32) + "&"
}

func (s *Server) serveCDN(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if strings.Contains(r.Header.Get("Authorization"), s.cfg.token) {
		s.Violate("the bot token was sent to the CDN (%s); attachment URLs are signed and need none", r.URL.Path)
	}
	q := r.URL.Query()
	f := s.files[r.URL.Path]
	if f == nil || q.Get("ex") == "" || q.Get("is") == "" || q.Get("hm") == "" {
		http.Error(w, "This content is no longer available.", http.StatusNotFound)
		return
	}
	s.downloads = append(s.downloads, r.URL.Path)
	s.Notify()
	ct := f.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(f.Content)))
	_, _ = w.Write(slices.Clone(f.Content))
}
