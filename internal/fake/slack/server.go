package fakeslack

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// Server is a running fake Slack on 127.0.0.1. It is safe for concurrent use.
type Server struct {
	ts      *httptest.Server
	cfg     config
	methods map[string]methodSpec // never changes after New

	closing      chan struct{}
	closeOnce    sync.Once
	kick         chan struct{} // wakes the dispatcher; buffered, never blocks
	dispatchDone chan struct{}

	// Recorder gives Wait, WaitFor and Violations: the client's protocol errors are missing
	// or wrong tokens, missing required arguments, unknown methods, malformed bodies, acks
	// for unknown or already acked envelopes, malformed socket messages, file downloads
	// without the bot token, calls that do not wait out a 429, and edits of one message
	// faster than MaxEditsPerSecond.
	*fakeserver.Recorder

	mu     sync.Mutex
	closed bool
	seq    int
	lastUS int64
	usedUS map[int64]bool

	users     []*User
	chans     map[string]*channel
	chanOrder []*channel
	files     map[string]*file
	slots     map[string]string // upload URL id → file id
	uploads   []Upload
	downloads []string

	calls  []Call
	limits fakeserver.Limits
	lose   map[string]int // answers of calls to hold back, by method (LoseAnswers)

	tickets     map[string]bool
	sockets     []*socket // open sockets, oldest first
	connections int
	queue       []*envelope          // events not acked yet, in order
	deliveries  map[string]*delivery // every envelope id sent, by id
	sent        []*delivery
	lost        int
	ephemerals  []Ephemeral
	// commandResponses are what acks of slash commands said back (commands.go).
	commandResponses []CommandResponse
}

// New starts a server. Close it when done.
func New(opts ...Option) *Server {
	s := &Server{
		cfg:          defaultConfig(),
		closing:      make(chan struct{}),
		kick:         make(chan struct{}, 1),
		dispatchDone: make(chan struct{}),
		Recorder:     fakeserver.NewRecorder("fakeslack", DefaultWait),
		usedUS:       map[int64]bool{},
		chans:        map[string]*channel{},
		files:        map[string]*file{},
		slots:        map[string]string{},
		tickets:      map[string]bool{},
		deliveries:   map[string]*delivery{},
		methods:      methodTable(),
	}
	for _, o := range opts {
		o(&s.cfg)
	}
	s.users = []*User{
		{ID: s.cfg.botUser, Name: s.cfg.botName, RealName: s.cfg.botName, IsBot: true, BotID: s.cfg.botID},
		{ID: "USLACKBOT", Name: "slackbot", RealName: "Slackbot", DisplayName: "Slackbot"},
	}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	go s.dispatch()
	return s
}

// URL is the Web API base with its trailing slash, e.g. http://127.0.0.1:41234/api/, for
// slack.OptionAPIURL. Methods are at URL()+"chat.postMessage" and so on.
func (s *Server) URL() string { return s.ts.URL + "/api/" }

// root is the server's own origin with a slash, where files and upload URLs live.
func (s *Server) root() string { return s.ts.URL + "/" }

// BotToken is the bot token the server accepts.
func (s *Server) BotToken() string { return s.cfg.botToken }

// AppToken is the app-level token apps.connections.open accepts.
func (s *Server) AppToken() string { return s.cfg.appToken }

// BotUserID is the bot's user id.
func (s *Server) BotUserID() string { return s.cfg.botUser }

// Close stops the server: sockets are cut, pending timers stop. It is safe to call twice.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		socks := slices.Clone(s.sockets)
		s.sockets = nil
		for _, so := range socks {
			so.stopTimer()
		}
		s.Notify()
		s.mu.Unlock()
		close(s.closing)
		for _, so := range socks {
			_ = so.conn.CloseNow()
		}
		<-s.dispatchDone
		s.ts.Close()
	})
}

func (s *Server) now() time.Time { return time.Now() }

// wake makes the dispatcher look at the queue and the sockets again.
func (s *Server) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Call is one Web API call the server received.
type Call struct {
	Method string
	// Form has the arguments: form fields and query parameters, or the fields of a JSON body
	// flattened to strings (numbers and booleans as written, objects and arrays as JSON).
	Form url.Values
	At   time.Time
	// Error is the error code the server answered with ("ratelimited", "not_authed",
	// "channel_not_found", …), or "" when it answered ok.
	Error string
}

// Calls returns the calls of a method (every call when method is ""), in arrival order.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := fakeserver.Select(s.calls, method, func(c Call) string { return c.Method })
	for i := range out {
		out[i].Form = cloneValues(out[i].Form)
	}
	return out
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}

// Downloads returns the ids of the files downloaded with the bot token, in order.
func (s *Server) Downloads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.downloads)
}

// DefaultWait is how long WaitFor waits before it fails the test. Wait and WaitFor wake on
// every change of the server's state: a message, a call, an event queued, sent or acked, a
// socket opening or closing, a violation.
const DefaultWait = 20 * time.Second

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/api/"):
		s.serveAPI(w, r, strings.TrimPrefix(p, "/api/"))
	case strings.HasPrefix(p, "/upload/v1/"):
		s.serveUpload(w, r, strings.TrimPrefix(p, "/upload/v1/"))
	case strings.HasPrefix(p, "/files-pri/"):
		s.serveFile(w, r)
	case p == "/link/" || p == "/link":
		s.serveSocket(w, r)
	case p == "/":
		serveSignIn(w)
	default:
		s.Violate("request to %s %s, which is not a Slack endpoint (the API is under %s)", r.Method, p, s.URL())
		http.NotFound(w, r)
	}
}
