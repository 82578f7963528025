package hub

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
)

// platform stands in for a chat platform: it records what mom posts and how each run ended.
type platform struct {
	mu    sync.Mutex
	posts []string
	ends  []run.Event
	// asked and decided are the requests for approval its runs showed (approval_start) and
	// how they ended (approval_end).
	asked, decided []approval.Request
}

func (p *platform) Name() string                            { return "plat" }
func (p *platform) Start(context.Context, chat.Inbox) error { return nil }
func (p *platform) Stop(context.Context) error              { return nil }
func (p *platform) Directory() chat.Directory               { return chat.Directory{} }
func (p *platform) Dialect() chat.Dialect                   { return chat.Dialect{} }
func (p *platform) Surface() chat.Surface                   { return notices{p: p} }

// notices is the platform's Surface, where it records the hub's notices. The platform draws
// its runs itself (Reply), so the hub only ever posts there; the rest of chat.Surface is left
// to the nil interface, and a call would fail the test loudly.
type notices struct {
	chat.Surface
	p *platform
}

func (n notices) Post(_ context.Context, at chat.Place, text string) (string, error) {
	n.p.mu.Lock()
	defer n.p.mu.Unlock()
	n.p.posts = append(n.p.posts, at.ChannelID+": "+text)
	return "p1", nil
}

func (p *platform) Reply(context.Context, string, chat.Message) run.Reply {
	return &platformReply{p: p}
}

func (p *platform) snapshot() ([]string, []run.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.posts...), append([]run.Event(nil), p.ends...)
}

type platformReply struct{ p *platform }

func (r *platformReply) Event(ev run.Event) {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	switch ev.Type {
	case run.AgentEnd:
		r.p.ends = append(r.p.ends, ev)
	case run.ApprovalStart:
		r.p.asked = append(r.p.asked, *ev.Approval)
	case run.ApprovalEnd:
		r.p.decided = append(r.p.decided, *ev.Approval)
	}
}
func (r *platformReply) Upload(context.Context, chat.File) error { return nil }
func (r *platformReply) Close(context.Context) error             { return nil }

type hubRig struct {
	hub   *Hub
	plat  *platform
	store *store.Store
	logs  *syncBuffer // the hub's log, as text
	// runner is the agent's stand-in; llm is the fake model of the real agent in the rigs of
	// newAgentHubRig. A rig has one of them.
	runner *stubRunner
	llm    *fakellm.Server
}

// newHubRig registers a platform with the hub, whose runs are the stub runner's.
func newHubRig(t *testing.T, cfg config.AdapterEntry) *hubRig {
	t.Helper()
	plat := &platform{}
	return newHubRigFull(t, cfg, plat, plat, Options{})
}

// newHubRigWith registers a, a platform that records its posts in plat.
func newHubRigWith(t *testing.T, cfg config.AdapterEntry, a chat.Adapter, plat *platform) *hubRig {
	t.Helper()
	return newHubRigFull(t, cfg, a, plat, Options{})
}

// newHubRigLimited is newHubRig with the hub's limits, in channels open to everyone.
func newHubRigLimited(t *testing.T, cfg config.AdapterEntry, opts Options) *hubRig {
	t.Helper()
	cfg.Groups = open
	plat := &platform{}
	return newHubRigFull(t, cfg, plat, plat, opts)
}

// newHubRigFull registers a, a platform that records its posts in plat, with a hub that has
// the limits opts and whose runs are the stub runner's.
func newHubRigFull(t *testing.T, cfg config.AdapterEntry, a chat.Adapter, plat *platform, opts Options) *hubRig {
	t.Helper()
	stub := newStubRunner(t)
	r := startHub(t, openStore(t), stub, cfg, a, plat, opts)
	r.runner = stub
	return r
}

// newAgentHubRig is newHubRig with the real agent answering from a fake model, for tests of
// what the agent does with what the hub hands it.
func newAgentHubRig(t *testing.T, cfg config.AdapterEntry) *hubRig {
	t.Helper()
	return newAgentHubRigOpts(t, cfg, Options{})
}

// newAgentHubRigOpts is newAgentHubRig with the hub's options.
func newAgentHubRigOpts(t *testing.T, cfg config.AdapterEntry, opts Options) *hubRig {
	t.Helper()
	srv := fakellm.New(fakellm.WithAPIKey("k"))
	t.Cleanup(srv.Close)
	st := openStore(t)
	exec, err := sandbox.NewHost(st.Workspace())
	if err != nil {
		t.Fatal(err)
	}
	ag := agent.New(st, agent.Options{
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL()}),
		Model:    llm.Lookup("anthropic", "claude-sonnet-4-5"), Exec: exec, Tools: tools.Builtin(),
	})
	plat := &platform{}
	r := startHub(t, st, ag, cfg, plat, plat, opts)
	r.llm = srv
	return r
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// startHub starts a hub on st that runs triggers with runner and registers a as "plat".
func startHub(t *testing.T, st *store.Store, runner Runner, cfg config.AdapterEntry, a chat.Adapter, plat *platform,
	opts Options) *hubRig {
	t.Helper()
	logs := &syncBuffer{}
	h := New(st, runner, slog.New(slog.NewTextHandler(logs, nil)), opts)
	cfg.Name = "plat"
	if cfg.Type == "" {
		cfg.Type = "test"
	}
	if err := h.Register(a, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.Shutdown(context.Background())
		st.Close()
	})
	return &hubRig{hub: h, plat: plat, store: st, logs: logs}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes and reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func msg(id, user, text string, mention, dm bool) chat.Message {
	return chat.Message{ID: id, ChannelID: "C1", TS: time.Now(), Sender: chat.User{ID: user, Username: user},
		Text: text, IsMention: mention, IsDM: dm}
}

func (r *hubRig) receive(t *testing.T, m chat.Message) {
	t.Helper()
	if err := r.hub.Receive(context.Background(), "plat", m); err != nil {
		t.Fatal(err)
	}
}

func (r *hubRig) idle(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.hub.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

func (r *hubRig) logTexts(t *testing.T) []string {
	ch, err := r.store.ChannelDir("plat", "C1")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	ch.ReadLog(0, func(m chat.Message, _ store.LogPos) error {
		texts = append(texts, m.Text)
		return nil
	})
	return texts
}

// open lets everyone start runs in every group, as Slack's default does.
var open = config.GroupPolicy{Everyone: true}

func TestOnlyMentionsAndDMsTrigger(t *testing.T) {
	t.Parallel()
	r := newAgentHubRig(t, config.AdapterEntry{DM: config.DMPolicy{Everyone: true}, Groups: open})
	r.receive(t, msg("1", "bea", "just chatting", false, false))
	bot := msg("2", "ci", "build failed", true, false)
	bot.Sender.IsBot = true
	r.receive(t, bot)
	r.llm.Enqueue(fakellm.Text("hi bea"))
	r.receive(t, msg("3", "bea", "hello mom", true, false))
	r.idle(t)
	if n := len(r.llm.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1 (only the mention)", n)
	}
	if got := strings.Join(r.logTexts(t), "|"); got != "just chatting|build failed|hello mom|hi bea" {
		t.Errorf("log = %s", got)
	}
}

func TestMessagesFromBeforeStartupAreOnlyLogged(t *testing.T) {
	t.Parallel()
	r := newAgentHubRig(t, config.AdapterEntry{DM: config.DMPolicy{Everyone: true}, Groups: open})
	old := msg("1", "bea", "mom, are you there?", true, false)
	old.TS = time.Now().Add(-time.Hour) // redelivered after a restart
	r.receive(t, old)
	r.llm.Enqueue(fakellm.Text("yes"))
	r.receive(t, msg("2", "bea", "mom?", true, false))
	r.idle(t)
	if n := len(r.llm.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1 (the old mention is history)", n)
	}
	if got := r.llm.LastRequest().LastUserText(); !strings.Contains(got, "are you there") || !strings.Contains(got, "mom?") {
		t.Errorf("the run's prompt should carry the old message as history and the new one as trigger:\n%s", got)
	}
}

func TestDMPolicy(t *testing.T) {
	t.Parallel()
	r := newHubRig(t, config.AdapterEntry{DM: config.DMPolicy{Users: []string{"bea"}}, Admins: []string{"boss"}, Groups: open})
	r.receive(t, msg("1", "eve", "let me in", true, true))
	r.receive(t, msg("2", "eve", "please", true, true))
	r.receive(t, msg("3", "bea", "hi", true, true))
	r.idle(t)
	r.receive(t, msg("4", "boss", "hi", true, true))
	r.idle(t)
	r.receive(t, msg("5", "eve", "in a channel", true, false)) // channel mentions are open to all here
	r.idle(t)
	if n := len(r.runner.requests()); n != 3 {
		t.Errorf("%d runs, want 3 (bea, boss, and eve's channel mention)", n)
	}
	r.hub.Shutdown(context.Background()) // wait for the notices
	posts, _ := r.plat.snapshot()
	refusals := 0
	for _, p := range posts {
		if strings.Contains(p, "only take direct messages") {
			refusals++
		}
	}
	if refusals != 1 {
		t.Errorf("eve was refused %d times, want once: %q", refusals, posts)
	}
}

func TestReceiveAfterShutdownIsRefused(t *testing.T) {
	t.Parallel()
	r := newHubRig(t, config.AdapterEntry{})
	r.hub.Shutdown(context.Background())
	err := r.hub.Receive(context.Background(), "plat", msg("1", "bea", "hi", true, false))
	if !errors.Is(err, ErrClosed) {
		t.Errorf("err = %v, want ErrClosed", err)
	}
	if err := r.hub.Receive(context.Background(), "nosuch", msg("1", "bea", "hi", true, false)); err == nil {
		t.Error("a message from an unregistered adapter was accepted")
	}
}

func TestShutdownAbortsRuns(t *testing.T) {
	t.Parallel()
	r := newAgentHubRig(t, config.AdapterEntry{Groups: open})
	hold := make(chan struct{})
	defer close(hold)
	r.llm.Enqueue(fakellm.Reply{Text: "working", Hold: hold})
	r.receive(t, msg("1", "bea", "long job", true, false))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.llm.WaitRequests(ctx, 1)
	if err := r.hub.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	_, ends := r.plat.snapshot()
	if len(ends) != 1 || ends[0].StopReason != llm.StopAborted {
		t.Errorf("run ends = %+v, want one aborted", ends)
	}
}

func TestIsStop(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"stop": true, " Stop ": true, "STOP!": true, "stop.": true, "/stop": true,
		"stop it": false, "don't stop": false, "": false,
	} {
		if got := isStop(text); got != want {
			t.Errorf("isStop(%q) = %v", text, got)
		}
	}
}

func TestWakeQueuesEventsUpToTheCap(t *testing.T) {
	t.Parallel()
	r := newAgentHubRig(t, config.AdapterEntry{Groups: open})
	hold := make(chan struct{})
	r.llm.Enqueue(fakellm.Reply{Text: "busy", Hold: hold})
	r.llm.Default(fakellm.Text("event handled"))
	r.receive(t, msg("1", "bea", "long job", true, false))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.llm.WaitRequests(ctx, 1)

	var mu sync.Mutex
	done := 0
	ev := chat.Message{ID: "ev", Sender: chat.User{ID: "EVENT", Username: "EVENT"}, Text: "[EVENT:a.json:immediate] check"}
	for i := range 7 {
		err := r.hub.Wake("plat", "C1", ev, func() { mu.Lock(); done++; mu.Unlock() })
		switch {
		case i < maxQueuedWakeUps && err != nil:
			t.Fatalf("event %d refused: %v", i, err)
		case i >= maxQueuedWakeUps && !errors.Is(err, ErrQueueFull):
			t.Fatalf("event %d: err %v, want ErrQueueFull", i, err)
		}
	}
	close(hold)
	r.idle(t)
	if n := len(r.llm.Requests()); n != 1+maxQueuedWakeUps {
		t.Errorf("%d model requests, want the run plus %d events", n, maxQueuedWakeUps)
	}
	mu.Lock()
	defer mu.Unlock()
	if done != maxQueuedWakeUps {
		t.Errorf("done called %d times, want %d", done, maxQueuedWakeUps)
	}
	if got := r.llm.LastRequest().LastUserText(); !strings.Contains(got, "[EVENT:a.json:immediate] check") {
		t.Errorf("the event's prompt = %q", got)
	}
	if texts := r.logTexts(t); strings.Contains(strings.Join(texts, "|"), "[EVENT:") {
		t.Errorf("event triggers are mom's own wake-ups, not people's messages, and stay out of the log: %q", texts)
	}
}

// TestMessagesSentAgainAfterARestartAreLoggedOnce: a platform resends what a previous mom
// logged but did not confirm; the log is what recognizes it.
func TestMessagesSentAgainAfterARestartAreLoggedOnce(t *testing.T) {
	t.Parallel()
	r := newHubRig(t, config.AdapterEntry{})
	before := time.Now().Add(-time.Minute)
	first := msg("100", "bea", "logged by the mom that died", false, false)
	first.TS = before
	r.receive(t, first)
	r.hub.repeats = repeats{} // a new process remembers nothing but the log
	r.receive(t, first)
	chatter := msg("101", "bea", "said while mom was down", false, false)
	chatter.TS = before
	r.receive(t, chatter)
	r.receive(t, chatter) // and sent twice within the new process
	if got := strings.Join(r.logTexts(t), "|"); got != "logged by the mom that died|said while mom was down" {
		t.Errorf("log = %s", got)
	}
}
