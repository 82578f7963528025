package faketelegram

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// Server is a running fake Telegram Bot API on 127.0.0.1. It is safe for concurrent use.
type Server struct {
	ts  *httptest.Server
	bot User
	tok string

	// Recorder gives Wait, WaitFor and Violations: the client's protocol errors are wrong or
	// malformed tokens, unknown methods, malformed bodies, missing or mistyped parameters,
	// markup Telegram cannot parse or texts over the limit (unless RejectMarkup asked for the
	// rejection), downloads of unknown files.
	*fakeserver.Recorder

	mu         sync.Mutex
	closed     bool
	users      map[int64]*User
	chats      map[int64]*chat
	files      map[string]*file
	nextFile   int
	calls      []Call
	limits     fakeserver.Limits
	rejectHTML int

	updates    []update // not confirmed yet, oldest first
	nextUpdate int64
	allowed    []string // allowed_updates as last set; nil means the default
	webhook    string
	movedTo    string // where file downloads are redirected, "" to serve them
	poll       *poll  // the getUpdates call waiting, if any
	polls      int    // getUpdates calls answered ok
	conflicts  int
	delivered  map[int64]int // update id → times sent in a getUpdates answer
	confirmed  int
	uploads    []Upload
	actions    []Action
	// queries counts callback queries; openQueries are those not answered yet; answers are
	// the answerCallbackQuery calls (callbacks.go).
	queries     int
	openQueries map[string]bool
	answers     []CallbackAnswer
	menus       map[string][]BotCommand // the bot's command menus by scope and language (commands.go)
}

// Option configures a Server.
type Option func(*Server)

// WithBot sets the bot's user id and username. Default 7000000001, "mom_bot".
func WithBot(id int64, username string) Option {
	return func(s *Server) { s.bot.ID, s.bot.Username = id, username }
}

// WithWebhook starts the server with a webhook set, as when another program used the token
// before; getUpdates answers 409 until deleteWebhook.
func WithWebhook(url string) Option { return func(s *Server) { s.webhook = url } }

// WithFilesMovedTo makes the server answer every file download (of a file getFile returned)
// with a redirect to url instead of the content, as a file server may send a client on to a
// CDN.
func WithFilesMovedTo(url string) Option { return func(s *Server) { s.movedTo = url } }

// New starts a server. Close it when done.
func New(opts ...Option) *Server {
	s := &Server{
		bot:         User{ID: 7000000001, FirstName: "Mom", Username: "mom_bot", IsBot: true},
		Recorder:    fakeserver.NewRecorder("faketelegram", DefaultWait),
		users:       map[int64]*User{},
		chats:       map[int64]*chat{},
		openQueries: map[string]bool{},
		menus:       map[string][]BotCommand{},
		files:       map[string]*file{},
		delivered:   map[int64]int{},
		nextUpdate:  300000001,
	}
	for _, o := range opts {
		o(s)
	}
	s.tok = fmt.Sprintf("%d:AAE-fakeTelegramSecret_0123456789abcdef", s.bot.ID)
	s.users[s.bot.ID] = &s.bot
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL is the server's base, for bot.WithServerURL: methods are at URL()+"/bot<token>/<method>".
func (s *Server) URL() string { return s.ts.URL }

// Token is the bot token the server accepts.
func (s *Server) Token() string { return s.tok }

// Bot is the bot's own user.
func (s *Server) Bot() User { return s.bot }

// Close stops the server; a waiting getUpdates call is cut. It is safe to call twice.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.Notify()
	s.mu.Unlock()
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// Call is one API call the server received.
type Call struct {
	Method string // as documented ("sendMessage"), whatever case the client used
	// Params are the call's parameters as strings: form values as sent, JSON values as
	// written (strings unquoted, objects and arrays as JSON). A multipart file part appears
	// as its file name.
	Params map[string]string
	At     time.Time
	// Error is the description the server answered with, or "" when it answered ok.
	Error string
}

// Calls returns the calls of a method (every call when method is ""), in arrival order.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fakeserver.Select(s.calls, method, func(c Call) string { return c.Method })
}

// DefaultWait is how long WaitFor waits before it fails the test. Wait and WaitFor wake on
// every change of the server's state.
const DefaultWait = 30 * time.Second

// tokenShape is what Telegram accepts as a token in a path; anything else is 404.
var tokenShape = regexp.MustCompile(`^[0-9]+:[A-Za-z0-9_-]+$`)

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	rest, isFile := strings.CutPrefix(r.URL.Path, "/file/bot")
	if !isFile {
		var ok bool
		if rest, ok = strings.CutPrefix(r.URL.Path, "/bot"); !ok {
			s.reject(w, "request to %s, which is not a Bot API path (/bot<token>/<method>)", r.URL.Path)
			return
		}
	}
	token, tail, _ := strings.Cut(rest, "/")
	switch {
	case !tokenShape.MatchString(token):
		s.reject(w, "malformed bot token in %s %s", r.Method, redact(r.URL.Path, token))
		return
	case token != s.tok:
		s.Violate("wrong bot token in %s %s", r.Method, redact(r.URL.Path, token))
		writeError(w, &apiError{code: http.StatusUnauthorized, desc: "Unauthorized"})
		return
	}
	if isFile {
		s.serveFile(w, tail)
		return
	}
	s.serveMethod(w, r, tail)
}

// reject answers 404 as Telegram does for what is not an API path, recording a violation.
func (s *Server) reject(w http.ResponseWriter, format string, args ...any) {
	s.Violate(format, args...)
	writeError(w, &apiError{code: http.StatusNotFound, desc: "Not Found"})
}

func redact(path, token string) string {
	if token == "" {
		return path
	}
	return strings.Replace(path, token, "<token>", 1)
}
