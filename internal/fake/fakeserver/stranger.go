package fakeserver

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
)

// StrangerContent is what a Stranger answers every request with.
const StrangerContent = "a file from a server that is not the platform's\n"

// Stranger is a loopback server that belongs to no platform: the server a forged file
// address points to, or a redirect leads to. It answers every request with StrangerContent
// and records every request it received, so a test can assert that no credential reached it.
type Stranger struct {
	*httptest.Server

	mu     sync.Mutex
	visits []Visit
}

// Visit is a request as it reached a Stranger.
type Visit struct {
	Method string
	// Target is the request target: path and query.
	Target string
	Header http.Header
}

// Dump is the whole request as text (request line and headers), to search for a secret.
func (v Visit) Dump() string {
	var b strings.Builder
	b.WriteString(v.Method + " " + v.Target + "\n")
	_ = v.Header.Write(&b)
	return b.String()
}

// NewStranger starts a Stranger; Close stops it.
func NewStranger() *Stranger {
	s := &Stranger{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.visits = append(s.visits, Visit{Method: r.Method, Target: r.RequestURI, Header: r.Header.Clone()})
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(StrangerContent))
	}))
	return s
}

// Visits returns the requests received so far, oldest first.
func (s *Stranger) Visits() []Visit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.visits)
}
