package fakeslack_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// start runs a server for one test with a small workspace: people U1 and U2, the public
// channel C1 with the bot in it, C2 without the bot, and the IM D1 with U1.
func start(t *testing.T, opts ...fakeslack.Option) *fakeslack.Server {
	t.Helper()
	srv := fakeslack.New(opts...)
	t.Cleanup(srv.Close)
	srv.AddUser(fakeslack.User{ID: "U1", Name: "ann", RealName: "Ann Example"})
	srv.AddUser(fakeslack.User{ID: "U2", Name: "bob", RealName: "Bob Example", DisplayName: "bobby"})
	srv.AddChannel(fakeslack.Channel{ID: "C1", Name: "general", BotMember: true, Members: []string{"U1", "U2"}})
	srv.AddChannel(fakeslack.Channel{ID: "C2", Name: "random", Members: []string{"U1"}})
	srv.AddChannel(fakeslack.Channel{ID: "D1", Kind: fakeslack.KindIM, User: "U1"})
	return srv
}

func client(srv *fakeslack.Server) *slack.Client {
	return slack.New(srv.BotToken(), slack.OptionAPIURL(srv.URL()), slack.OptionAppLevelToken(srv.AppToken()))
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func noViolations(t *testing.T, srv *fakeslack.Server) {
	t.Helper()
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("violations:\n%s", strings.Join(v, "\n"))
	}
}

func slackErr(err error) string {
	var e slack.SlackErrorResponse
	if ok := asErr(err, &e); ok {
		return e.Err
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// post sends a raw Web API request and returns the status, headers and body.
func post(t *testing.T, u, contentType, auth, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

func form(v url.Values) string { return v.Encode() }

// sockClient runs slack-go's Socket Mode client against the server and forwards what it
// receives.
type sockClient struct {
	sm     *socketmode.Client
	events chan socketmode.Event
}

func runSocket(t *testing.T, srv *fakeslack.Server, opts ...socketmode.Option) *sockClient {
	t.Helper()
	opts = append([]socketmode.Option{socketmode.OptionLog(log.New(io.Discard, "", 0))}, opts...)
	sm := socketmode.New(client(srv), opts...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(ctx) }()
	c := &sockClient{sm: sm, events: make(chan socketmode.Event, 256)}
	go func() {
		for {
			select {
			case e := <-sm.Events:
				switch e.Type {
				case socketmode.EventTypeHello, socketmode.EventTypeEventsAPI, socketmode.EventTypeSlashCommand, socketmode.EventTypeErrorBadMessage:
					c.events <- e
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return c
}

// next returns the next event of the given type, skipping others.
func (c *sockClient) next(t *testing.T, typ socketmode.EventType) socketmode.Event {
	t.Helper()
	timeout := time.After(fakeslack.DefaultWait)
	for {
		select {
		case e := <-c.events:
			if e.Type == socketmode.EventTypeErrorBadMessage {
				t.Fatalf("slack-go could not parse a message: %+v", e.Data)
			}
			if e.Type == typ {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s event within %v", typ, fakeslack.DefaultWait)
		}
	}
}

// nextAPI returns the next events_api event and its request.
func (c *sockClient) nextAPI(t *testing.T) (socketmode.Event, any) {
	t.Helper()
	e := c.next(t, socketmode.EventTypeEventsAPI)
	return e, eventsAPI(t, e).InnerEvent.Data
}

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

func eventsAPI(t *testing.T, e socketmode.Event) slackevents.EventsAPIEvent {
	t.Helper()
	ev, ok := e.Data.(slackevents.EventsAPIEvent)
	if !ok {
		t.Fatalf("events_api data is %T", e.Data)
	}
	return ev
}
