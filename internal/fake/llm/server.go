package fakellm

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Server is a running fake model server on 127.0.0.1. It is safe for concurrent use.
type Server struct {
	ts            *httptest.Server
	apiKey        string
	acceptNoKey   bool
	contextWindow int
	closing       chan struct{}
	closeOnce     sync.Once

	mu      sync.Mutex
	queue   []Reply
	handler func(*Request) (Reply, bool)
	def     *Reply
	reqs    []*Request
	changed chan struct{} // closed and replaced whenever a request is recorded
	seq     int
}

// Option configures a Server.
type Option func(*Server)

// WithAPIKey makes the server accept only this key (x-api-key or Authorization: Bearer for
// Anthropic, Authorization: Bearer for OpenAI). Without it any non-empty key is accepted.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// AcceptNoKey makes the server accept requests without a key, as local OpenAI-compatible
// servers do. A key that is sent must still match WithAPIKey when that is set.
func AcceptNoKey() Option { return func(s *Server) { s.acceptNoKey = true } }

// WithContextWindow makes the server answer with the protocol's context-overflow error,
// by itself, whenever a request's estimated size (characters of its text / 4) exceeds tokens.
func WithContextWindow(tokens int) Option { return func(s *Server) { s.contextWindow = tokens } }

// New starts a server. Close it when done.
func New(opts ...Option) *Server {
	s := &Server{closing: make(chan struct{}), changed: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL is the server's root, e.g. http://127.0.0.1:41234. It is the base URL for the
// Anthropic SDK, which appends "v1/messages".
func (s *Server) URL() string { return s.ts.URL }

// OpenAIURL is the base URL for an OpenAI client, which appends "chat/completions": URL()+"/v1",
// the same shape as https://api.openai.com/v1.
func (s *Server) OpenAIURL() string { return s.ts.URL + "/v1" }

// Close stops the server. Held and delayed answers end at once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closing) })
	s.ts.Close()
}

// Enqueue adds replies that answer the next valid requests, first in first out.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Handle sets a rule that answers valid requests when the queue is empty. It returns false
// to leave a request to the default reply. It runs on the server's goroutine for that request
// and must be safe for concurrent use.
func (s *Server) Handle(fn func(*Request) (Reply, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = fn
}

// Default sets the reply for valid requests that neither the queue nor the handler answers.
// Without one, such a request gets a 500 error that says no reply was scripted.
func (s *Server) Default(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = &r
}

// Pending returns how many enqueued replies have not been used yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns every request received so far, valid or not, in arrival order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// LastRequest returns the latest request, or nil when there was none.
func (s *Server) LastRequest() *Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		return nil
	}
	return s.reqs[len(s.reqs)-1]
}

// WaitRequests waits until at least n requests arrived and returns them all; requests are
// recorded before they are answered, so this also tells when a held answer has started.
func (s *Server) WaitRequests(ctx context.Context, n int) ([]*Request, error) {
	for {
		s.mu.Lock()
		if len(s.reqs) >= n {
			out := append([]*Request(nil), s.reqs...)
			s.mu.Unlock()
			return out, nil
		}
		changed := s.changed
		got := len(s.reqs)
		s.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("fakellm: waited for %d requests, got %d: %w", n, got, ctx.Err())
		}
	}
}

func (s *Server) record(r *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
	close(s.changed)
	s.changed = make(chan struct{})
}

// next picks the reply for a valid request: the queue, then the handler, then the default.
func (s *Server) next(r *Request) (Reply, bool) {
	s.mu.Lock()
	if len(s.queue) > 0 {
		rep := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return rep, true
	}
	handler, def := s.handler, s.def
	s.mu.Unlock()
	if handler != nil {
		if rep, ok := handler(r); ok {
			return rep, true
		}
	}
	if def != nil {
		return *def, true
	}
	return Reply{}, false
}

// id returns a fresh id with a prefix, unique within the server.
func (s *Server) id(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("%sfake%020d", prefix, s.seq)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	req := &Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	if err != nil {
		req.Rejected = "could not read the request body: " + err.Error()
		s.record(req)
		return
	}
	switch {
	case r.URL.Path == "/v1/messages" && r.Method == http.MethodPost:
		req.Protocol = Anthropic
		s.serveAnthropic(w, r, req)
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		req.Protocol = OpenAI
		s.serveOpenAI(w, r, req)
	default:
		req.Rejected = fmt.Sprintf("fakellm has no endpoint %s %s: configure the Anthropic base URL as %s and the OpenAI base URL as %s",
			r.Method, r.URL.Path, s.URL(), s.OpenAIURL())
		s.record(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"not_found_error","message":%q}}`, req.Rejected)
	}
}

// bearer returns the token of an Authorization: Bearer header.
func bearer(h http.Header) string {
	v := h.Get("Authorization")
	if t, ok := strings.CutPrefix(v, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// checkKey returns what is wrong with the key a request carries, or "".
func (s *Server) checkKey(key, missing, wrong string) string {
	switch {
	case key == "" && !s.acceptNoKey:
		return missing
	case key != "" && s.apiKey != "" && key != s.apiKey:
		return wrong
	}
	return ""
}

// overflows reports whether the request is larger than the configured context window.
func (s *Server) overflows(r *Request) (tokens int, over bool) {
	tokens = estimateTokens(r.Body)
	return tokens, s.contextWindow > 0 && tokens > s.contextWindow
}

// window is the context window named in overflow messages.
func (s *Server) window(def int) int {
	if s.contextWindow > 0 {
		return s.contextWindow
	}
	return def
}
