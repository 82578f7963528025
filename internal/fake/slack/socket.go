package fakeslack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/coder/websocket"
)

// refreshGrace is how long a socket stays open after its disconnect message before the
// server closes it, as Slack keeps an old connection briefly while the client reconnects.
const refreshGrace = 2 * time.Second

// writeTimeout bounds one write to a socket; a client that does not read is cut off.
const writeTimeout = 5 * time.Second

type socket struct {
	n    int // 1 for the first socket opened
	host string
	conn *websocket.Conn
	done chan struct{} // closed when the socket is gone

	// Guarded by Server.mu.
	ready      bool   // hello was sent; events and disconnects may follow
	draining   bool   // told to disconnect: no more events
	disconnect string // a disconnect reason waiting to be sent
	timer      *time.Timer
}

type outgoing struct {
	so   *socket
	data []byte
}

// closeLater closes the socket with a close frame after d. Call it with s.mu held.
func (so *socket) closeLater(d time.Duration) {
	if so.timer != nil {
		return
	}
	so.timer = time.AfterFunc(d, func() {
		_ = so.conn.Close(websocket.StatusNormalClosure, "refresh")
	})
}

func (so *socket) stopTimer() {
	if so.timer != nil {
		so.timer.Stop()
	}
}

type wireHello struct {
	Type           string `json:"type"`
	NumConnections int    `json:"num_connections"`
	DebugInfo      struct {
		Host                      string `json:"host"`
		BuildNumber               int    `json:"build_number"`
		ApproximateConnectionTime int    `json:"approximate_connection_time"`
	} `json:"debug_info"`
	ConnectionInfo struct {
		AppID string `json:"app_id"`
	} `json:"connection_info"`
}

// openTicket registers a one-time WebSocket URL, as apps.connections.open hands out. Call it
// with s.mu held.
func (s *Server) openTicket() string {
	t := uuid()
	s.tickets[t] = true
	u := "ws" + s.ts.URL[len("http"):] + "/link/?" + url.Values{"ticket": {t}, "app_id": {s.cfg.appID}}.Encode()
	return u
}

func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	ticket := r.URL.Query().Get("ticket")
	s.mu.Lock()
	ok := s.tickets[ticket]
	delete(s.tickets, ticket)
	if !ok {
		s.Violate("socket: connection with an unknown or used ticket %q (call apps.connections.open for each connection)", ticket)
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "invalid ticket", http.StatusUnauthorized)
		return
	}
	// slack-go sends Origin: https://api.slack.com, which is not this host.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.Violate("socket: WebSocket handshake failed: %v", err)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = conn.CloseNow()
		return
	}
	s.connections++
	so := &socket{n: s.connections, conn: conn, done: make(chan struct{}),
		host: fmt.Sprintf("applink-fakeslack-%d", s.connections)}
	hello := wireHello{Type: "hello", NumConnections: len(s.sockets) + 1}
	hello.DebugInfo.Host, hello.DebugInfo.BuildNumber, hello.DebugInfo.ApproximateConnectionTime = so.host, 1, 18060
	hello.ConnectionInfo.AppID = s.cfg.appID
	// Registered before hello goes out, so that a Refresh or DropSocket right after the
	// client saw hello finds it; it gets nothing else until hello is written.
	s.sockets = append(s.sockets, so)
	s.Notify()
	s.mu.Unlock()
	defer close(so.done)

	b, _ := json.Marshal(hello)
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	err = conn.Write(ctx, websocket.MessageText, b)
	cancel()
	s.mu.Lock()
	if err == nil {
		so.ready = true
	} else {
		s.forget(so)
	}
	s.Notify()
	s.mu.Unlock()
	if err != nil {
		_ = conn.CloseNow()
		return
	}
	s.wake()
	go s.ping(so)

	s.readAcks(so)

	s.mu.Lock()
	s.forget(so)
	s.mu.Unlock()
	_ = conn.CloseNow()
}

// forget removes a socket from the open ones. Call it with s.mu held.
func (s *Server) forget(so *socket) {
	if i := slices.Index(s.sockets, so); i >= 0 {
		s.sockets = slices.Delete(s.sockets, i, i+1)
		so.stopTimer()
		s.Notify()
	}
}

// readAcks reads what the client sends until the socket closes.
func (s *Server) readAcks(so *socket) {
	for {
		typ, data, err := so.conn.Read(context.Background())
		if err != nil {
			return
		}
		var a struct {
			EnvelopeID *string         `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		s.mu.Lock()
		switch {
		case typ != websocket.MessageText:
			s.Violate("socket: binary message from the client (acks are JSON text)")
		case json.Unmarshal(data, &a) != nil:
			s.Violate("socket: malformed message from the client: %q", data)
		case a.EnvelopeID == nil || *a.EnvelopeID == "":
			s.Violate("socket: message without envelope_id from the client: %s", data)
		default:
			s.ack(*a.EnvelopeID, a.Payload)
		}
		s.mu.Unlock()
	}
}

// ping sends a WebSocket ping every ping interval, as Slack does, until the socket closes.
func (s *Server) ping(so *socket) {
	t := time.NewTicker(s.cfg.pingInterval)
	defer t.Stop()
	for {
		select {
		case <-so.done:
			return
		case <-s.closing:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.pingInterval)
			_ = so.conn.Ping(ctx)
			cancel()
		}
	}
}

// target is the newest socket that may receive events. Call it with s.mu held.
func (s *Server) target() *socket {
	for i := len(s.sockets) - 1; i >= 0; i-- {
		if so := s.sockets[i]; so.ready && !so.draining {
			return s.sockets[i]
		}
	}
	return nil
}

// dispatch writes envelopes and disconnect messages, and redelivers unacked envelopes on
// time. It is the only goroutine that writes events, so they keep their order.
func (s *Server) dispatch() {
	defer close(s.dispatchDone)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		s.mu.Lock()
		writes, next := s.plan(s.now())
		s.mu.Unlock()
		for _, w := range writes {
			ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
			if err := w.so.conn.Write(ctx, websocket.MessageText, w.data); err != nil {
				_ = w.so.conn.CloseNow()
			}
			cancel()
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(time.Until(next), 0)
		}
		timer.Reset(wait)
		select {
		case <-s.closing:
			return
		case <-s.kick:
		case <-timer.C:
		}
	}
}

// Connections returns how many sockets were opened so far.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connections
}

// Connected reports whether a socket that may receive events is open: one that was not told
// to disconnect.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.target() != nil
}

// DropSocket cuts every open socket abruptly, without a close frame, as a network failure
// would. Unacked envelopes are redelivered when their ack is overdue, on the next socket.
func (s *Server) DropSocket() {
	s.mu.Lock()
	socks := slices.Clone(s.sockets)
	for _, so := range socks {
		s.forget(so)
	}
	s.mu.Unlock()
	for _, so := range socks {
		_ = so.conn.CloseNow()
	}
}

// Refresh sends {"type":"disconnect","reason":"refresh_requested"} on every open socket, as
// Slack does every few hours. The client is expected to open a new connection; no events go
// to the old one, which the server closes a little later.
func (s *Server) Refresh() { s.Disconnect("refresh_requested") }

// Disconnect sends a disconnect message with the given reason on every open socket. With
// reason "warning" (Slack's notice that a refresh is coming) the socket keeps receiving
// events; with any other reason it gets no more events and is closed a little later.
func (s *Server) Disconnect(reason string) {
	s.mu.Lock()
	for _, so := range s.sockets {
		if !so.draining {
			so.disconnect = reason
		}
	}
	s.mu.Unlock()
	s.wake()
}
