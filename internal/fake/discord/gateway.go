package fakediscord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/coder/websocket"
)

// Gateway opcodes.
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

// Gateway close codes the fake uses.
const (
	closeUnknownOpcode     = 4001
	closeDecodeError       = 4002
	closeNotAuthenticated  = 4003
	closeAuthFailed        = 4004
	closeAlreadyAuthed     = 4005
	closeSessionTimedOut   = 4009
	closeInvalidAPIVersion = 4012
	closeInvalidIntents    = 4013
	closeDisallowedIntents = 4014
)

// session is a gateway session: what IDENTIFY started and RESUME continues. It outlives its
// connection, so that what is dispatched while the client is away can be replayed.
type session struct {
	id      string
	intents int64
	seq     int
	backlog []frame // dispatches, oldest first, for RESUME
	conn    *gwConn
}

type frame struct {
	seq  int
	data []byte
	// close, when not zero, makes the writer close the socket with this code instead.
	close  websocket.StatusCode
	reason string
}

type gwConn struct {
	ws   *websocket.Conn
	out  chan frame
	done chan struct{}
	sess *session // guarded by Server.mu
}

// kill drops the connection without a close frame, as a network failure would.
func (c *gwConn) kill() { _ = c.ws.CloseNow() }

// send queues a frame; a client too slow to take 4,096 queued frames is cut off, as Discord
// does. Call it with Server.mu held.
func (c *gwConn) send(f frame) {
	select {
	case c.out <- f:
	default:
		go c.kill()
	}
}

func (c *gwConn) sendOp(op int, d any) {
	data, _ := json.Marshal(map[string]any{"op": op, "d": d, "s": nil, "t": nil})
	c.send(frame{data: data})
}

func (c *gwConn) closeWith(code websocket.StatusCode, reason string) {
	c.send(frame{close: code, reason: reason})
}

// writer sends queued frames in order until the connection ends.
func (c *gwConn) writer() {
	for {
		select {
		case f := <-c.out:
			if f.close != 0 {
				_ = c.ws.Close(f.close, f.reason)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := c.ws.Write(ctx, websocket.MessageText, f.data)
			cancel()
			if err != nil {
				c.kill()
				return
			}
		case <-c.done:
			return
		}
	}
}

// payload is a gateway message as the client sends it.
type payload struct {
	Op *int            `json:"op"`
	D  json.RawMessage `json:"d"`
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(1 << 20)
	c := &gwConn{ws: ws, out: make(chan frame, 4096), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.kill()
		return
	}
	s.conns = append(s.conns, c)
	s.connections++
	s.Notify()
	go c.writer()
	if q.Get("v") != "10" || q.Get("encoding") != "json" {
		s.Violate("gateway connection with query %q; Discord wants ?v=10&encoding=json", r.URL.RawQuery)
		c.closeWith(closeInvalidAPIVersion, "Invalid API version")
	} else if q.Get("compress") != "" {
		c.closeWith(4000, "fakediscord sends uncompressed JSON; connect without compress")
	} else {
		c.sendOp(opHello, map[string]any{"heartbeat_interval": s.cfg.heartbeat.Milliseconds()})
	}
	s.mu.Unlock()

	s.readLoop(c)

	close(c.done)
	c.kill()
	s.mu.Lock()
	s.conns = slices.DeleteFunc(s.conns, func(x *gwConn) bool { return x == c })
	if c.sess != nil && c.sess.conn == c {
		c.sess.conn = nil
	}
	s.Notify()
	s.mu.Unlock()
}

// readLoop handles what the client sends until the connection ends.
func (s *Server) readLoop(c *gwConn) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*s.cfg.heartbeat+time.Second)
		_, data, err := c.ws.Read(ctx)
		cancel()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				s.Violate("no heartbeat for %v (heartbeat_interval %v)", 2*s.cfg.heartbeat, s.cfg.heartbeat)
			}
			return
		}
		var p payload
		s.mu.Lock()
		if err := json.Unmarshal(data, &p); err != nil || p.Op == nil {
			s.Violate("gateway payload is not a JSON object with an op: %.200s", data)
			c.closeWith(closeDecodeError, "Error while decoding payload.")
			s.mu.Unlock()
			continue
		}
		s.handleOp(c, *p.Op, p.D)
		s.mu.Unlock()
	}
}

// handleOp acts on one payload. Call it with s.mu held.
func (s *Server) handleOp(c *gwConn, op int, d json.RawMessage) {
	switch op {
	case opHeartbeat:
		var seq *int
		if err := json.Unmarshal(d, &seq); err != nil {
			s.Violate("heartbeat d must be the last sequence number or null, got %.100s", d)
		}
		c.sendOp(opHeartbeatACK, nil)
	case opIdentify:
		if c.sess != nil {
			s.Violate("IDENTIFY on a connection that is already identified")
			c.closeWith(closeAlreadyAuthed, "You sent more than one identify payload.")
			return
		}
		s.identify(c, d)
	case opResume:
		if c.sess != nil {
			s.Violate("RESUME on a connection that is already identified")
			c.closeWith(closeAlreadyAuthed, "You sent more than one identify payload.")
			return
		}
		s.resume(c, d)
	default:
		if c.sess == nil {
			s.Violate("gateway op %d before IDENTIFY", op)
			c.closeWith(closeNotAuthenticated, "You sent a payload prior to identifying.")
			return
		}
		switch op {
		case 3, 4, 8: // presence update, voice state, request guild members: accepted, unused
		default:
			s.Violate("unknown gateway op %d", op)
			c.closeWith(closeUnknownOpcode, "You sent an invalid Gateway opcode.")
		}
	}
}

type identifyData struct {
	Token      string `json:"token"`
	Intents    *int64 `json:"intents"`
	Properties *struct {
		OS      string `json:"os"`
		Browser string `json:"browser"`
		Device  string `json:"device"`
	} `json:"properties"`
}

// identify starts a session: READY, then GUILD_CREATE. Call it with s.mu held.
func (s *Server) identify(c *gwConn, d json.RawMessage) {
	var id identifyData
	if err := json.Unmarshal(d, &id); err != nil {
		s.Violate("IDENTIFY data is malformed: %v", err)
		c.closeWith(closeDecodeError, "Error while decoding payload.")
		return
	}
	if id.Token != s.cfg.token {
		s.Violate("IDENTIFY with a wrong token")
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return
	}
	if id.Properties == nil || id.Properties.OS == "" || id.Properties.Browser == "" || id.Properties.Device == "" {
		s.Violate("IDENTIFY without properties os, browser and device")
	}
	if id.Intents == nil || *id.Intents < 0 || *id.Intents >= 1<<26 {
		s.Violate("IDENTIFY without valid intents")
		c.closeWith(closeInvalidIntents, "Invalid intent(s).")
		return
	}
	intents := *id.Intents
	if intents&privilegedIntents&^s.cfg.privileged != 0 {
		c.closeWith(closeDisallowedIntents, "Disallowed intent(s).")
		return
	}
	for _, need := range []struct {
		bit  int64
		name string
	}{{IntentGuilds, "GUILDS"}, {IntentGuildMessages, "GUILD_MESSAGES"}, {IntentDirectMessages, "DIRECT_MESSAGES"}, {IntentMessageContent, "MESSAGE_CONTENT"}} {
		if intents&need.bit == 0 {
			s.Violate("IDENTIFY without the %s intent: mom would miss messages or their content", need.name)
		}
	}
	s.identifies++
	sess := &session{id: randomHex(16), intents: intents, conn: c}
	c.sess = sess
	s.sessions = append(s.sessions, sess)
	if len(s.sessions) > 4 {
		s.sessions = s.sessions[len(s.sessions)-4:]
	}
	guilds := []any{map[string]any{"id": s.cfg.guildID, "unavailable": true}}
	if s.left {
		guilds = []any{}
	}
	s.push(sess, "READY", map[string]any{
		"v": 10, "user": s.wireUser(s.cfg.botID), "guilds": guilds,
		"session_id": sess.id, "resume_gateway_url": s.GatewayURL(), "shard": []int{0, 1},
		"application": map[string]any{"id": s.cfg.appID, "flags": 0}, "private_channels": []any{},
		"session_type": "normal",
	})
	if intents&IntentGuilds != 0 && !s.left {
		s.push(sess, "GUILD_CREATE", s.wireGuild(intents))
	}
	s.Notify()
}

type resumeData struct {
	Token     string `json:"token"`
	SessionID string `json:"session_id"`
	Seq       *int   `json:"seq"`
}

// resume continues a session: the missed dispatches, then RESUMED. An unknown session gets
// INVALID_SESSION (not resumable). Call it with s.mu held.
func (s *Server) resume(c *gwConn, d json.RawMessage) {
	var rd resumeData
	if err := json.Unmarshal(d, &rd); err != nil || rd.Seq == nil {
		s.Violate("RESUME data is malformed (token, session_id and seq are required): %.200s", d)
		c.closeWith(closeDecodeError, "Error while decoding payload.")
		return
	}
	if rd.Token != s.cfg.token {
		s.Violate("RESUME with a wrong token")
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return
	}
	var sess *session
	for _, x := range s.sessions {
		if x.id == rd.SessionID {
			sess = x
		}
	}
	if sess == nil || *rd.Seq > sess.seq {
		c.sendOp(opInvalidSession, false)
		return
	}
	if sess.conn != nil && sess.conn != c {
		go sess.conn.kill()
	}
	s.resumes++
	sess.conn = c
	c.sess = sess
	for _, f := range sess.backlog {
		if f.seq > *rd.Seq {
			c.send(f)
		}
	}
	s.push(sess, "RESUMED", map[string]any{})
	s.Notify()
}

// push dispatches one event to a session: numbered, kept for RESUME, and sent when the
// session has a connection. Call it with s.mu held.
func (s *Server) push(sess *session, t string, d any) {
	sess.seq++
	data, _ := json.Marshal(map[string]any{"op": opDispatch, "s": sess.seq, "t": t, "d": d})
	f := frame{seq: sess.seq, data: data}
	sess.backlog = append(sess.backlog, f)
	if len(sess.backlog) > s.cfg.backlog {
		sess.backlog = sess.backlog[len(sess.backlog)-s.cfg.backlog:]
	}
	if sess.conn != nil {
		sess.conn.send(f)
	}
}

// dispatch sends an event to every session whose intents include need; build makes the
// payload for a session's intents (content withheld without MESSAGE_CONTENT). Call it with
// s.mu held.
func (s *Server) dispatch(t string, need int64, build func(intents int64) any) {
	for _, sess := range s.sessions {
		if sess.intents&need == need {
			s.push(sess, t, build(sess.intents))
		}
	}
}

// Connected reports whether a client holds an identified (or resumed) gateway connection.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		if c.sess != nil && c.sess.conn == c {
			return true
		}
	}
	return false
}

// Connections counts the gateway connections opened so far.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connections
}

// Identifies counts the sessions started with IDENTIFY; Resumes the sessions resumed.
func (s *Server) Identifies() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identifies
}

// Resumes counts the successful RESUMEs.
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resumes
}

// DropSocket cuts every gateway connection without a close frame, as a network failure
// would. The sessions stay resumable.
func (s *Server) DropSocket() {
	s.mu.Lock()
	conns := slices.Clone(s.conns)
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

// Reconnect asks every connected client to reconnect and resume (op 7 RECONNECT).
func (s *Server) Reconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		if c.sess != nil {
			c.sendOp(opReconnect, nil)
		}
	}
}

// InvalidateSession sends op 9 INVALID_SESSION to every connected client; resumable false
// forgets the sessions, so clients must IDENTIFY again.
func (s *Server) InvalidateSession(resumable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		if c.sess != nil {
			c.sendOp(opInvalidSession, resumable)
		}
	}
	if !resumable {
		s.sessions = nil
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
