package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/gateway"
)

// The fake's own tests speak the wire protocol by hand, as Discord documents it, so they check
// the fake rather than a client library's view of it.

const (
	ada     = "1400000000000000001"
	general = "1300000000000000001"
	adaDM   = "1500000000000000001"
)

func newTestServer(t *testing.T, opts ...Option) *Server {
	s := New(opts...)
	t.Cleanup(s.Close)
	s.AddUser(User{ID: ada, Username: "ada", GlobalName: "Ada"})
	s.AddChannel(Channel{ID: general, Name: "general"})
	s.AddChannel(Channel{ID: adaDM, Kind: KindDM, Recipient: ada})
	return s
}

// gwMsg is a gateway payload as received.
type gwMsg struct {
	Op int             `json:"op"`
	S  *int            `json:"s"`
	T  *string         `json:"t"`
	D  json.RawMessage `json:"d"`
}

type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func dial(t *testing.T, s *Server, query string) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, s.GatewayURL()+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return &client{t: t, ws: ws}
}

func (c *client) send(op int, d any) {
	c.t.Helper()
	data, _ := json.Marshal(map[string]any{"op": op, "d": d})
	if err := c.ws.Write(context.Background(), websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

// next reads the next payload; a close is returned as its error.
func (c *client) next() (gwMsg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.ws.Read(ctx)
	if err != nil {
		return gwMsg{}, err
	}
	var m gwMsg
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("not JSON: %s", data)
	}
	return m, nil
}

func (c *client) must() gwMsg {
	c.t.Helper()
	m, err := c.next()
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// dispatch reads until the next dispatch of type typ and returns it.
func (c *client) dispatch(typ string) gwMsg {
	c.t.Helper()
	for {
		m := c.must()
		if m.Op == opDispatch && m.T != nil && *m.T == typ {
			return m
		}
	}
}

// interaction reads until the next INTERACTION_CREATE and decodes it as disgo, a real client,
// does, failing the test when disgo cannot read it. It returns the raw data too, for messages.
func (c *client) interaction() (discord.Interaction, json.RawMessage) {
	c.t.Helper()
	d := c.dispatch("INTERACTION_CREATE")
	ev, err := gateway.UnmarshalEventData(d.D, gateway.EventTypeInteractionCreate)
	if err != nil {
		c.t.Fatalf("disgo cannot read %s: %v", d.D, err)
	}
	return ev.(gateway.EventInteractionCreate).Interaction, d.D
}

func closeCode(err error) websocket.StatusCode {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return -1
}

const allIntents = IntentGuilds | IntentGuildMembers | IntentGuildMessages | IntentDirectMessages | IntentMessageContent

func identify(c *client, token string, intents int64) {
	c.send(opIdentify, map[string]any{"token": token, "intents": intents,
		"properties": map[string]string{"os": "linux", "browser": "test", "device": "test"}})
}

// joined dials the gateway, identifies with intents and reads up to GUILD_CREATE: a session
// ready for the test's dispatches.
func joined(t *testing.T, s *Server, intents int64) *client {
	t.Helper()
	c := dial(t, s, "?v=10&encoding=json")
	c.must()
	identify(c, s.Token(), intents)
	c.dispatch("GUILD_CREATE")
	return c
}

func TestGatewayHelloIdentifyDispatch(t *testing.T) {
	s := newTestServer(t)
	c := dial(t, s, "?v=10&encoding=json")
	hello := c.must()
	var hd struct {
		Interval int `json:"heartbeat_interval"`
	}
	if hello.Op != opHello || json.Unmarshal(hello.D, &hd) != nil || hd.Interval != 41250 {
		t.Fatalf("first payload %+v; want HELLO with heartbeat_interval 41250", hello)
	}
	c.send(opHeartbeat, nil)
	if m := c.must(); m.Op != opHeartbeatACK {
		t.Fatalf("heartbeat answered with op %d", m.Op)
	}
	identify(c, s.Token(), allIntents)
	ready := c.dispatch("READY")
	var rd struct {
		SessionID string `json:"session_id"`
		Resume    string `json:"resume_gateway_url"`
		User      struct{ ID string }
	}
	json.Unmarshal(ready.D, &rd)
	if *ready.S != 1 || rd.SessionID == "" || rd.Resume != s.GatewayURL() || rd.User.ID != s.BotID() {
		t.Errorf("READY = %s (s=%d)", ready.D, *ready.S)
	}
	guild := c.dispatch("GUILD_CREATE")
	if !strings.Contains(string(guild.D), `"name":"general"`) || !strings.Contains(string(guild.D), `"username":"ada"`) {
		t.Errorf("GUILD_CREATE lacks the channel or the member: %s", guild.D)
	}
	s.WaitFor(t, "the connection to count as connected", s.Connected)

	s.Say(general, ada, "hi <@"+s.BotID()+">")
	msg := c.dispatch("MESSAGE_CREATE")
	var md struct {
		Content  string `json:"content"`
		GuildID  string `json:"guild_id"`
		Mentions []struct{ ID string }
	}
	json.Unmarshal(msg.D, &md)
	if *msg.S != 3 || md.Content != "hi <@"+s.BotID()+">" || md.GuildID != s.GuildID() || len(md.Mentions) != 1 {
		t.Errorf("MESSAGE_CREATE = %s", msg.D)
	}
	s.Say(adaDM, ada, "psst")
	dm := c.dispatch("MESSAGE_CREATE")
	if strings.Contains(string(dm.D), "guild_id") {
		t.Errorf("a DM carries a guild_id: %s", dm.D)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}

func TestGatewayResumeReplaysMissedDispatches(t *testing.T) {
	s := newTestServer(t)
	c := dial(t, s, "?v=10&encoding=json")
	c.must()
	identify(c, s.Token(), allIntents)
	var rd struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(c.dispatch("READY").D, &rd)
	last := *c.dispatch("GUILD_CREATE").S
	s.DropSocket()
	s.WaitFor(t, "the drop", func() bool { return !s.Connected() })
	s.Say(general, ada, "while away 1")
	s.Say(general, ada, "while away 2")

	c = dial(t, s, "?v=10&encoding=json")
	c.must()
	c.send(opResume, map[string]any{"token": s.Token(), "session_id": rd.SessionID, "seq": last})
	for _, want := range []string{"while away 1", "while away 2"} {
		if m := c.dispatch("MESSAGE_CREATE"); !strings.Contains(string(m.D), want) {
			t.Errorf("replayed %s; want %q", m.D, want)
		}
	}
	c.dispatch("RESUMED")
	if s.Resumes() != 1 {
		t.Errorf("%d resumes", s.Resumes())
	}

	c = dial(t, s, "?v=10&encoding=json")
	c.must()
	c.send(opResume, map[string]any{"token": s.Token(), "session_id": "nope", "seq": 1})
	if m := c.must(); m.Op != opInvalidSession || string(m.D) != "false" {
		t.Errorf("resuming an unknown session got %+v; want op 9 false", m)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}

func TestGatewayReconnectAndInvalidSession(t *testing.T) {
	s := newTestServer(t)
	c := joined(t, s, allIntents)
	s.Reconnect()
	if m := c.must(); m.Op != opReconnect {
		t.Errorf("got op %d; want 7", m.Op)
	}
	s.InvalidateSession(false)
	if m := c.must(); m.Op != opInvalidSession || string(m.D) != "false" {
		t.Errorf("got %+v; want op 9 false", m)
	}
}

func TestGatewayRefusals(t *testing.T) {
	for _, tt := range []struct {
		name    string
		opts    []Option
		query   string
		act     func(c *client, s *Server)
		code    websocket.StatusCode
		violate string
	}{
		{"wrong version", nil, "?v=9&encoding=json", func(*client, *Server) {}, closeInvalidAPIVersion, "v=10"},
		{"wrong token", nil, "?v=10&encoding=json", func(c *client, s *Server) { identify(c, "nope", allIntents) }, closeAuthFailed, "wrong token"},
		{"disallowed intents", []Option{WithPrivilegedIntents(0)}, "?v=10&encoding=json",
			func(c *client, s *Server) { identify(c, s.Token(), allIntents) }, closeDisallowedIntents, ""},
		{"op before identify", nil, "?v=10&encoding=json", func(c *client, s *Server) { c.send(3, nil) }, closeNotAuthenticated, "before IDENTIFY"},
		{"unknown op", nil, "?v=10&encoding=json", func(c *client, s *Server) {
			identify(c, s.Token(), allIntents)
			c.send(42, nil)
		}, closeUnknownOpcode, "unknown gateway op"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, tt.opts...)
			c := dial(t, s, tt.query)
			tt.act(c, s)
			var err error
			for err == nil {
				_, err = c.next()
			}
			if got := closeCode(err); got != tt.code {
				t.Errorf("closed with %v (%v); want %d", got, err, tt.code)
			}
			v := strings.Join(s.Violations(), "\n")
			if tt.violate != "" && !strings.Contains(v, tt.violate) {
				t.Errorf("violations %q lack %q", v, tt.violate)
			}
		})
	}
}

// TestGatewayWithholdsContent: without MESSAGE_CONTENT a bot sees the content of messages that
// mention it and of DMs only, and asking without the intent is itself recorded.
func TestGatewayWithholdsContent(t *testing.T) {
	s := newTestServer(t)
	c := joined(t, s, allIntents&^IntentMessageContent)
	s.Say(general, ada, "chatter")
	s.Say(general, ada, "<@"+s.BotID()+"> hello")
	var md struct{ Content string }
	json.Unmarshal(c.dispatch("MESSAGE_CREATE").D, &md)
	if md.Content != "" {
		t.Errorf("chatter content %q leaked without the intent", md.Content)
	}
	json.Unmarshal(c.dispatch("MESSAGE_CREATE").D, &md)
	if md.Content == "" {
		t.Errorf("a mention's content was withheld")
	}
	if v := strings.Join(s.Violations(), "\n"); !strings.Contains(v, "MESSAGE_CONTENT") {
		t.Errorf("violations %q lack the missing intent", v)
	}
}
