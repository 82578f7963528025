package faketelegram

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"
)

// update is one update waiting to be confirmed.
type update struct {
	id   int64
	kind string // "message", …
	body obj
}

// poll is a getUpdates call that is waiting.
type poll struct {
	end chan *apiError // receives 409 when a newer call takes over
	cut chan struct{}  // closed by DropPoll: the connection is to be cut without an answer
}

// defaultAllowed are the update kinds sent when allowed_updates was never set (or set to []):
// all but chat_member, message_reaction and message_reaction_count.
func kindAllowed(allowed []string, kind string) bool {
	if len(allowed) == 0 {
		return kind != "chat_member" && kind != "message_reaction" && kind != "message_reaction_count"
	}
	return slices.Contains(allowed, kind)
}

// queue adds an update of kind unless allowed_updates leaves that kind out; s.mu is held.
func (s *Server) queue(kind string, body obj) {
	if !kindAllowed(s.allowed, kind) {
		return
	}
	s.updates = append(s.updates, update{id: s.nextUpdate, kind: kind, body: body})
	s.nextUpdate++
}

// getUpdates answers a long poll.
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, req *request, call *Call) {
	s.mu.Lock()
	fail := func(e *apiError) {
		s.finish(call, e)
		s.mu.Unlock()
		writeError(w, e)
	}
	offset, _, err := req.intParam("offset")
	if err != nil {
		fail(err)
		return
	}
	limit, hasLimit, err := req.intParam("limit")
	if err != nil {
		fail(err)
		return
	}
	if !hasLimit || limit < 1 || limit > 100 {
		limit = 100
	}
	timeout, _, err := req.intParam("timeout")
	if err != nil {
		fail(err)
		return
	}
	if a, ok := req.params["allowed_updates"]; ok {
		var kinds []string
		if jerr := json.Unmarshal([]byte(a), &kinds); jerr != nil {
			fail(&apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse allowed updates",
				violation: "allowed_updates is not a JSON array of strings: " + a})
			return
		}
		s.allowed = kinds
	}
	if s.webhook != "" {
		fail(&apiError{code: http.StatusConflict,
			desc: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"})
		return
	}
	s.confirm(offset)
	if old := s.poll; old != nil {
		old.end <- &apiError{code: http.StatusConflict,
			desc: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}
		s.conflicts++
	}
	p := &poll{end: make(chan *apiError, 1), cut: make(chan struct{})}
	s.poll = p
	s.Notify()
	deadline := time.NewTimer(time.Duration(max(timeout, 0)) * time.Second)
	defer deadline.Stop()
	for {
		batch := s.batch(offset, int(limit))
		if len(batch) > 0 || timeout <= 0 || s.closed {
			s.answerPoll(w, p, call, batch)
			return
		}
		changed := s.Changed()
		s.mu.Unlock()
		select {
		case <-changed:
			s.mu.Lock()
		case <-deadline.C:
			s.mu.Lock()
			timeout = 0
		case e := <-p.end:
			s.mu.Lock()
			fail(e)
			return
		case <-p.cut:
			s.mu.Lock()
			s.endPoll(p)
			s.mu.Unlock()
			cutConnection(w)
			return
		case <-r.Context().Done():
			s.mu.Lock()
			s.endPoll(p)
			s.mu.Unlock()
			return
		}
	}
}

// answerPoll sends a batch of updates; s.mu is held and released.
func (s *Server) answerPoll(w http.ResponseWriter, p *poll, call *Call, batch []update) {
	s.endPoll(p)
	out := make([]obj, len(batch))
	for i, u := range batch {
		s.delivered[u.id]++
		body := obj{"update_id": u.id, u.kind: u.body}
		out[i] = body
	}
	s.polls++
	s.finish(call, nil)
	s.mu.Unlock()
	writeOK(w, out)
}

func (s *Server) endPoll(p *poll) {
	if s.poll == p {
		s.poll = nil
		s.Notify()
	}
}

// confirm forgets the updates an offset confirms: with a positive offset, those with a lower
// id; with a negative one, all but the last -offset. s.mu is held.
func (s *Server) confirm(offset int64) {
	n := 0
	switch {
	case offset > 0:
		for n < len(s.updates) && s.updates[n].id < offset {
			n++
		}
	case offset < 0:
		n = max(len(s.updates)+int(offset), 0)
	}
	if n > 0 {
		s.confirmed += n
		s.updates = s.updates[n:]
		s.Notify()
	}
}

// batch returns the updates a call with offset may get now.
func (s *Server) batch(offset int64, limit int) []update {
	var out []update
	for _, u := range s.updates {
		if u.id >= offset && len(out) < limit {
			out = append(out, u)
		}
	}
	return out
}

// cutConnection closes the client's connection without an answer, like a network drop.
func cutConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
		}
	}
}

func (s *Server) deleteWebhook(r *request) (any, *apiError) {
	s.webhook = ""
	if d := r.params["drop_pending_updates"]; d == "true" || d == "True" || d == "1" {
		s.confirmed += len(s.updates)
		s.updates = nil
	}
	return true, nil
}

func (s *Server) getWebhookInfo(*request) (any, *apiError) {
	return obj{"url": s.webhook, "has_custom_certificate": false, "pending_update_count": len(s.updates)}, nil
}

func (s *Server) getMe(*request) (any, *apiError) { return s.wireMe(), nil }

// Polling reports whether a getUpdates call is waiting for updates now.
func (s *Server) Polling() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.poll != nil
}

// Polls counts the getUpdates calls answered with updates or after their timeout.
func (s *Server) Polls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polls
}

// Conflicts counts the getUpdates calls ended by a newer one with 409.
func (s *Server) Conflicts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conflicts
}

// Pending counts the updates not confirmed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// Webhook is the webhook URL set, "" after deleteWebhook.
func (s *Server) Webhook() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.webhook
}

// Deliveries says how often each update (by id) was sent in a getUpdates answer.
func (s *Server) Deliveries() map[int64]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int64]int, len(s.delivered))
	for k, v := range s.delivered {
		out[k] = v
	}
	return out
}

// DropPoll cuts the connection of the getUpdates call that is waiting, without an answer, as
// a network drop would; it reports whether there was one.
func (s *Server) DropPoll() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.poll == nil {
		return false
	}
	close(s.poll.cut)
	s.poll = nil
	s.Notify()
	return true
}

// StartRival makes another program poll the bot's updates (without confirming any), which
// ends the client's waiting getUpdates calls with 409 Conflict, as a second instance of a
// bot does. stop ends it.
func (s *Server) StartRival() (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		client := &http.Client{Timeout: 10 * time.Second}
		for {
			select {
			case <-done:
				return
			default:
			}
			resp, err := client.Post(s.URL()+"/bot"+s.tok+"/getUpdates?timeout=1", "application/json", strings.NewReader("{}"))
			if err == nil {
				resp.Body.Close()
			}
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }
}
