package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/disgoorg/disgo/gateway"
)

// The gateway connection is mom's own, on coder/websocket, rather than disgo's: disgo v0.19.6's
// gateway client has data races between its heartbeat and reading goroutines and waits a
// second before its first connection. Payloads are still decoded into disgo's types.

// Gateway opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opResume         = 6
	opReconnect      = 7
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
)

// fatalCloses are the close codes no reconnect can fix: a refused token, shard or API
// version, or intents the application may not ask for.
var fatalCloses = map[websocket.StatusCode]bool{4004: true, 4010: true, 4011: true, 4012: true, 4013: true, 4014: true}

// gatewayConn keeps one gateway session alive: it identifies, heartbeats, hands dispatches to
// handle on its reading goroutine, and after a drop reconnects and resumes (or identifies
// anew when Discord says the session is gone).
type gatewayConn struct {
	token   string
	url     string
	intents gateway.Intents
	log     *slog.Logger
	handle  func(t gateway.EventType, d gateway.EventData)

	seq   atomic.Int64 // the last dispatch's sequence number; 0 before the first
	ready atomic.Bool  // identified or resumed, and not dropped since

	mu        sync.Mutex
	sessionID string
	resumeURL string
}

// payload is one gateway message.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d,omitempty"`
	S  *int64          `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

// errFatal wraps a close no reconnect can fix.
type errFatal struct{ err error }

func (e errFatal) Error() string { return e.err.Error() }
func (e errFatal) Unwrap() error { return e.err }

// run connects until ctx ends. The result of the first connection goes to first (nil once
// READY arrives), after which drops are retried with a growing pause and fatal closes logged.
func (g *gatewayConn) run(ctx context.Context, first chan<- error) {
	pause := 250 * time.Millisecond
	for {
		started := time.Now()
		err := g.session(ctx, &first)
		g.ready.Store(false)
		if ctx.Err() != nil {
			return
		}
		if first != nil {
			first <- err // the first connection failed: Start reports it
			return
		}
		var fe errFatal
		if errors.As(err, &fe) {
			g.log.Error("the Discord gateway closed for good; restart mom once the cause is fixed", "err", explainClose(err))
			return
		}
		if time.Since(started) > time.Minute {
			pause = 250 * time.Millisecond // it ran fine for a while: this is a fresh problem
		}
		g.log.Warn("the Discord connection dropped; reconnecting", "err", err, "in", pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return
		}
		pause = min(pause*2, time.Minute)
	}
}

// session runs one connection until it drops. *first, when not nil, hears nil at READY and is
// then set to nil.
func (g *gatewayConn) session(ctx context.Context, first *chan<- error) error {
	g.mu.Lock()
	url, resuming := g.url, g.sessionID != ""
	if resuming && g.resumeURL != "" {
		url = g.resumeURL
	}
	g.mu.Unlock()
	dialCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	ws, _, err := websocket.Dial(dialCtx, url+"?v=10&encoding=json", nil)
	cancel()
	if err != nil {
		return fmt.Errorf("could not open the gateway WebSocket: %w", err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(64 << 20) // GUILD_CREATE of a large guild is big

	hello, err := read(ctx, ws, 30*time.Second)
	if err != nil {
		return err
	}
	var hd struct {
		Interval int64 `json:"heartbeat_interval"`
	}
	if hello.Op != opHello || json.Unmarshal(hello.D, &hd) != nil || hd.Interval <= 0 {
		return fmt.Errorf("the gateway's first message was op %d, not HELLO", hello.Op)
	}
	if err := g.greet(ctx, ws, resuming); err != nil {
		return err
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	var acked atomic.Bool
	acked.Store(true)
	beats := make(chan error, 1)
	go func() { beats <- g.heartbeat(sctx, ws, time.Duration(hd.Interval)*time.Millisecond, &acked) }()

	for {
		p, err := read(sctx, ws, 0)
		if err != nil {
			select {
			case herr := <-beats:
				if herr != nil {
					return herr
				}
			default:
			}
			switch websocket.CloseStatus(err) {
			case 4007, 4009: // invalid sequence, session timed out: it cannot be resumed
				g.forget()
			}
			return err
		}
		switch p.Op {
		case opDispatch:
			if p.S != nil {
				g.seq.Store(*p.S)
			}
			if g.dispatch(p) && *first != nil {
				*first <- nil
				*first = nil
			}
		case opHeartbeat:
			_ = g.send(sctx, ws, opHeartbeat, g.lastSeq())
		case opHeartbeatACK:
			acked.Store(true)
		case opReconnect:
			_ = ws.Close(4000, "reconnecting as asked")
			return errors.New("Discord asked to reconnect")
		case opInvalidSession:
			var resumable bool
			_ = json.Unmarshal(p.D, &resumable)
			if !resumable {
				g.forget()
			}
			_ = ws.Close(4000, "invalid session")
			// Discord asks for a pause of one to five seconds before identifying again.
			select {
			case <-time.After(time.Second + rand.N(4*time.Second)):
			case <-ctx.Done():
			}
			return fmt.Errorf("Discord invalidated the session (resumable %v)", resumable)
		}
	}
}

// greet sends IDENTIFY, or RESUME for a session that can go on.
func (g *gatewayConn) greet(ctx context.Context, ws *websocket.Conn, resuming bool) error {
	if resuming {
		g.mu.Lock()
		id := g.sessionID
		g.mu.Unlock()
		return g.send(ctx, ws, opResume, map[string]any{"token": g.token, "session_id": id, "seq": g.seq.Load()})
	}
	return g.send(ctx, ws, opIdentify, gateway.MessageDataIdentify{
		Token:   g.token,
		Intents: g.intents,
		Properties: gateway.IdentifyCommandDataProperties{
			OS: runtime.GOOS, Browser: "mom", Device: "mom",
		},
	})
}

// dispatch decodes an event and hands it on; it reports whether the session is now ready.
func (g *gatewayConn) dispatch(p payload) bool {
	t := gateway.EventType(p.T)
	data, err := gateway.UnmarshalEventData(p.D, t)
	if err != nil {
		g.log.Warn("could not read a Discord event", "type", p.T, "err", err)
		return false
	}
	ready := false
	switch e := data.(type) {
	case gateway.EventReady:
		g.mu.Lock()
		g.sessionID, g.resumeURL = e.SessionID, e.ResumeGatewayURL
		g.mu.Unlock()
		ready = true
	case gateway.EventResumed:
		ready = true
	}
	if ready {
		g.ready.Store(true)
	}
	g.handle(t, data)
	return ready
}

// heartbeat beats every interval, the first after a random part of it as Discord asks. A
// beat whose ack has not come by the next one means a dead connection ("zombie"): it is closed
// so the session can be resumed on a new one.
func (g *gatewayConn) heartbeat(ctx context.Context, ws *websocket.Conn, interval time.Duration, acked *atomic.Bool) error {
	wait := time.Duration(rand.Int64N(int64(interval)))
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = interval
		if !acked.Swap(false) {
			_ = ws.Close(4000, "no heartbeat ack")
			return errors.New("Discord stopped acknowledging heartbeats")
		}
		if err := g.send(ctx, ws, opHeartbeat, g.lastSeq()); err != nil {
			return nil // the reader sees the broken connection too
		}
	}
}

// lastSeq is what a heartbeat carries: the last sequence number, or null before any.
func (g *gatewayConn) lastSeq() any {
	if s := g.seq.Load(); s > 0 {
		return s
	}
	return nil
}

// forget drops the session, so the next connection identifies anew.
func (g *gatewayConn) forget() {
	g.mu.Lock()
	g.sessionID, g.resumeURL = "", ""
	g.mu.Unlock()
	g.seq.Store(0)
}

func (g *gatewayConn) send(ctx context.Context, ws *websocket.Conn, op int, d any) error {
	data, err := json.Marshal(map[string]any{"op": op, "d": d})
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, data)
}

// read returns the next payload; a close no reconnect can fix comes back as errFatal.
func read(ctx context.Context, ws *websocket.Conn, timeout time.Duration) (payload, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	_, data, err := ws.Read(ctx)
	if err != nil {
		if fatalCloses[websocket.CloseStatus(err)] {
			return payload{}, errFatal{err}
		}
		return payload{}, err
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return payload{}, fmt.Errorf("the gateway sent something that is not JSON: %w", err)
	}
	return p, nil
}
