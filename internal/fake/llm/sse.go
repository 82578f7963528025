package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// event is one server-sent event. Name is empty for OpenAI's data-only events; Data is
// marshalled to JSON unless it is a string, which is sent as it is ("[DONE]").
type event struct {
	Name string
	Data any
}

// sseWriter streams events with the pacing and failures a Reply asks for.
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	r       *http.Request
	closing <-chan struct{}
	reply   *Reply
	sent    int
}

func newSSEWriter(s *Server, w http.ResponseWriter, r *http.Request, reply *Reply) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w), r: r, closing: s.closing, reply: reply}
}

// start sends the response headers.
func (sw *sseWriter) start(h http.Header) bool {
	for k, v := range h {
		sw.w.Header()[k] = v
	}
	sw.w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	sw.w.Header().Set("Cache-Control", "no-cache")
	sw.w.WriteHeader(http.StatusOK)
	if sw.rc.Flush() != nil {
		return false
	}
	if sw.reply.CutAfter < 0 {
		panic(http.ErrAbortHandler)
	}
	return true
}

// send writes one event and flushes it. It returns false when the client is gone. When the
// Reply's CutAfter is reached it drops the connection: http.ErrAbortHandler makes net/http
// close it without the terminating chunk, which the client sees as an unexpected EOF.
func (sw *sseWriter) send(ev event) bool {
	if sw.sent > 0 && !sw.wait(sw.reply.EventDelay) {
		return false
	}
	data, ok := ev.Data.(string)
	if !ok {
		data = string(marshal(ev.Data))
	}
	var err error
	if ev.Name != "" {
		_, err = fmt.Fprintf(sw.w, "event: %s\ndata: %s\n\n", ev.Name, data)
	} else {
		_, err = fmt.Fprintf(sw.w, "data: %s\n\n", data)
	}
	if err != nil || sw.rc.Flush() != nil {
		return false
	}
	sw.sent++
	if sw.reply.CutAfter > 0 && sw.sent >= sw.reply.CutAfter {
		panic(http.ErrAbortHandler)
	}
	return true
}

// sendAll sends events in order and reports whether all went out.
func (sw *sseWriter) sendAll(evs []event) bool {
	for _, ev := range evs {
		if !sw.send(ev) {
			return false
		}
	}
	return true
}

// hold waits for the Reply's Hold channel; false means the client or the server went away.
func (sw *sseWriter) hold() bool {
	if sw.reply.Hold == nil {
		return true
	}
	select {
	case <-sw.reply.Hold:
		return true
	case <-sw.r.Context().Done():
	case <-sw.closing:
	}
	return false
}

// wait sleeps for d unless the client or the server goes away first.
func (sw *sseWriter) wait(d time.Duration) bool {
	return sleep(sw.r, sw.closing, d)
}

func sleep(r *http.Request, closing <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-closing:
	}
	return false
}

// marshal encodes v as the real services do, without escaping <, > and & (Go's default).
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("fakellm: a response does not marshal: %v", err))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// writeJSON writes v as a JSON body; the status and headers must be set already.
func writeJSON(w http.ResponseWriter, v any) {
	_, _ = w.Write(append(marshal(v), '\n'))
}

// stopReason returns the protocol's stop reason for a Reply: the neutral names are
// translated, anything else is sent as it is.
func stopReason(p Protocol, rep *Reply) string {
	s := rep.StopReason
	if s == "" {
		s = "stop"
		if len(rep.ToolCalls) > 0 {
			s = "toolUse"
		}
	}
	anthropic := p == Anthropic
	switch s {
	case "stop":
		return pick(anthropic, "end_turn", "stop")
	case "length":
		return pick(anthropic, "max_tokens", "length")
	case "toolUse":
		return pick(anthropic, "tool_use", "tool_calls")
	case "refusal":
		return pick(anthropic, "refusal", "content_filter")
	}
	return s
}

func pick(first bool, a, b string) string {
	if first {
		return a
	}
	return b
}

// usageOf returns the Reply's usage, or an estimate from the request and the answer.
func usageOf(rep *Reply, req *Request) Usage {
	if rep.Usage != nil {
		return *rep.Usage
	}
	out := len(rep.Text) + len(rep.Thinking)
	for _, c := range rep.ToolCalls {
		out += len(c.Name) + len(c.argsJSON())
	}
	return Usage{Input: max(1, estimateTokens(req.Body)), Output: max(1, (out+3)/4)}
}
