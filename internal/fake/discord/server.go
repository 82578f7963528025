package fakediscord

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// Server is a running fake Discord on 127.0.0.1. It is safe for concurrent use.
type Server struct {
	ts  *httptest.Server
	cfg config

	closeOnce sync.Once
	closing   chan struct{} // closed by Close

	// Recorder gives Wait, WaitFor and Violations (the package documentation lists what
	// counts as a violation).
	*fakeserver.Recorder

	mu     sync.Mutex
	closed bool
	lastID uint64 // the last snowflake handed out

	users    map[string]*User
	order    []string // user ids in the order they were added
	roles    []Role   // the guild's roles, @everyone first
	botRole  string   // the id of the bot's managed role
	owner    string   // the guild owner's user id
	channels map[string]*channel
	chOrder  []string
	left     bool             // the bot left the guild (DELETE /users/@me/guilds/{id})
	files    map[string]*File // CDN path → content

	sessions    []*session // newest last
	conns       []*gwConn
	connections int
	identifies  int
	resumes     int

	calls     []Call
	limits    map[string]*rateLimit
	lose      map[string]int // answers of requests to hold back, by route (LoseAnswers)
	uploads   []Upload
	typing    []string // channel ids, one per typing call
	downloads []string // CDN paths fetched

	interactions []*interaction       // button presses and slash commands, in order
	commands     []ApplicationCommand // the application's global commands (commands.go)
}

// New starts a server. Close it when done.
func New(opts ...Option) *Server {
	s := &Server{
		cfg:      defaultConfig(),
		closing:  make(chan struct{}),
		Recorder: fakeserver.NewRecorder("fakediscord", DefaultWait),
		users:    map[string]*User{},
		channels: map[string]*channel{},
		files:    map[string]*File{},
		limits:   map[string]*rateLimit{},
	}
	for _, o := range opts {
		o(&s.cfg)
	}
	// Inviting a bot with permissions makes Discord create a managed role for it, named after
	// it, which only it holds.
	s.botRole = s.snowflake()
	s.addUserLocked(User{ID: s.cfg.botID, Username: s.cfg.botName, Bot: true, Roles: []string{s.botRole}})
	s.roles = []Role{{ID: s.cfg.guildID, Name: "@everyone", Permissions: PermDefaultEveryone},
		{ID: s.botRole, Name: s.cfg.botName, Permissions: PermBotInvite, Position: 1, BotID: s.cfg.botID}}
	s.owner = s.cfg.botID
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL is the REST API's root without the version, e.g. http://127.0.0.1:41234/api, the way
// mom's "apiUrl" takes it. Clients that want the versioned base (disgo's rest.WithURL) use
// URL()+"/v10".
func (s *Server) URL() string { return s.ts.URL + "/api" }

// GatewayURL is the gateway's WebSocket URL without a query, as GET /gateway/bot reports it;
// clients append ?v=10&encoding=json.
func (s *Server) GatewayURL() string { return "ws" + strings.TrimPrefix(s.ts.URL, "http") + "/gateway" }

// Token is the bot token the server accepts.
func (s *Server) Token() string { return s.cfg.token }

// BotID is the bot user's id.
func (s *Server) BotID() string { return s.cfg.botID }

// BotRoleID is the id of the role Discord made for the bot when it was invited: managed,
// named after the bot, with tags.bot_id naming it. People mention it by mistake for the bot.
func (s *Server) BotRoleID() string { return s.botRole }

// GuildID is the id of the one guild the bot is in.
func (s *Server) GuildID() string { return s.cfg.guildID }

// Close stops the server and cuts every socket. It is safe to call twice.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		conns := slices.Clone(s.conns)
		s.Notify()
		s.mu.Unlock()
		close(s.closing)
		for _, c := range conns {
			c.kill()
		}
		s.ts.Close()
	})
}

// DefaultWait is how long WaitFor waits before it fails the test. Wait and WaitFor wake on
// every change of the server's state.
const DefaultWait = 20 * time.Second

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/api/v10/"):
		s.serveREST(w, r, strings.TrimPrefix(p, "/api/v10"))
	case strings.HasPrefix(p, "/api/"):
		s.Violate("%s %s: the API is versioned; mom must use /api/v10/", r.Method, p)
		writeError(w, http.StatusNotFound, 0, "404: Not Found")
	case p == "/gateway" || p == "/gateway/":
		s.serveGateway(w, r)
	case strings.HasPrefix(p, "/attachments/"):
		s.serveCDN(w, r)
	default:
		s.Violate("request to %s %s, which is not a Discord endpoint", r.Method, p)
		http.NotFound(w, r)
	}
}
