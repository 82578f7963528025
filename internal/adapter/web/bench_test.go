package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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

// BenchmarkHistory measures loading a channel's last 200 messages from a 5,000-line log:
// all of them, and without the answers of a run of 20 lines at the end that the page draws
// from frames (runsFrom).
func BenchmarkHistory(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ch, _ := st.ChannelDir("web", "general")
	now := time.Now()
	var from int64
	for i := range 5000 {
		if i == 4980 {
			from, _ = ch.LogSize()
		}
		sender := chat.User{ID: "web:ada", Username: "ada"}
		if i >= 4980 && i%2 == 1 {
			sender = chat.User{ID: "mom", Username: "mom", IsBot: true}
		}
		ch.AppendLog(chat.Message{ID: strconv.Itoa(i), TS: now, Sender: sender,
			Text: "a message of a typical length, about as long as people write in a chat"})
	}
	a := New(Options{Name: "web", Store: st})
	h := http.HandlerFunc(a.history)
	for _, c := range []struct{ name, query string }{{"all", ""}, {"runsFrom", "?runsFrom=" + strconv.FormatInt(from, 10)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest("GET", "/api/channels/general/messages"+c.query, nil)
				r.SetPathValue("channel", "general")
				w := httptest.NewRecorder()
				h(w, r)
				if w.Code != 200 || (c.query != "" && strings.Count(w.Body.String(), `"isBot":true`) != 0) {
					b.Fatal(w.Code, w.Body)
				}
			}
		})
	}
}
