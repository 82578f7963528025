package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// BenchmarkBroadcast measures one streamed text delta reaching 10 connected browsers' queues.
func BenchmarkBroadcast(b *testing.B) {
	l := newLive()
	done := make(chan struct{})
	defer close(done)
	for range 10 {
		c := l.subscribe()
		go func() {
			for {
				select {
				case <-c.send:
				case <-done:
					return
				}
			}
		}()
	}
	l.broadcast(frame{Type: "run_start", Channel: "general", Run: "r1"})
	b.ReportAllocs()
	for b.Loop() {
		l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: "a few words "})
	}
}

// BenchmarkHistory measures loading a channel's last 200 messages from a 5,000-line log.
func BenchmarkHistory(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ch, _ := st.Channel("web", "general")
	now := time.Now()
	for i := range 5000 {
		ch.AppendLog(chat.Message{ID: strconv.Itoa(i), TS: now, Sender: chat.User{ID: "web:ada", Username: "ada"},
			Text: "a message of a typical length, about as long as people write in a chat"})
	}
	a := New(Options{Name: "web", Store: st})
	h := http.HandlerFunc(a.history)
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest("GET", "/api/channels/general/messages", nil)
		r.SetPathValue("channel", "general")
		w := httptest.NewRecorder()
		h(w, r)
		if w.Code != 200 {
			b.Fatal(w.Code, w.Body)
		}
	}
}
