package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
)

// rig is an agent on a real data directory, real tools on the host, and the real Anthropic
// provider talking to the fake model.
type rig struct {
	t     *testing.T
	llm   *fakellm.Server
	store *store.Store
	agent *Agent
	ch    *store.ChannelDir
}

func newRig(t *testing.T, extra ...tools.Tool) *rig {
	t.Helper()
	srv := fakellm.New(fakellm.WithAPIKey("k"))
	t.Cleanup(srv.Close)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	exec, err := sandbox.NewHost(st.Workspace())
	if err != nil {
		t.Fatal(err)
	}
	model := llm.Lookup("anthropic", "claude-sonnet-4-5")
	ag := New(st, Options{
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL()}),
		Model:    model, Exec: exec, Tools: append(tools.Builtin(), extra...),
		Retry:    RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond},
		Location: time.UTC,
	})
	ch, err := st.ChannelDir("test", "C1")
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, llm: srv, store: st, agent: ag, ch: ch}
}

// say logs a message from a person and returns it with the log offset just past it.
func (r *rig) say(user, text string, opts ...func(*chat.Message)) (chat.Message, int64) {
	r.t.Helper()
	m := chat.Message{
		ID: user + "-" + text, ChannelID: "C1", TS: time.Date(2026, 3, 15, 10, 0, 5, 0, time.UTC),
		Sender: chat.User{ID: "U-" + user, Username: user}, Text: text, IsMention: true,
	}
	for _, o := range opts {
		o(&m)
	}
	pos, err := r.ch.AppendLog(m)
	if err != nil {
		r.t.Fatal(err)
	}
	return m, pos.End
}

// events records what a run reported.
type events struct {
	mu  sync.Mutex
	evs []run.Event
}

func (e *events) sink(ev run.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

func (e *events) types() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		if ev.Type == run.MessageUpdate {
			continue
		}
		out = append(out, string(ev.Type))
	}
	return out
}

// handle answers m and returns the result and the events.
func (r *rig) handle(m chat.Message, end int64) (Result, *events) {
	r.t.Helper()
	ev := &events{}
	res := r.agent.HandleMessage(context.Background(), Request{
		ChannelDir: r.ch, Trigger: m, LogEnd: end, Sink: ev.sink,
		Context: ChannelContext{AdapterType: "test", Bot: chat.User{ID: "B1", Username: "mom"}},
	})
	return res, ev
}

func userTexts(req *fakellm.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range m.Content {
			if b.Type == "text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

func TestChatterIsSyncedOnceInOrderBeforeTheTrigger(t *testing.T) {
	r := newRig(t)
	r.say("bea", "morning all")
	r.ch.AppendLog(chat.Message{ID: "b1", ChannelID: "C1", TS: time.Now(), Sender: chat.User{ID: "B9", Username: "otherbot", IsBot: true}, Text: "beep"})
	r.say("cem", "the build is red")
	m, end := r.say("bea", "can you check?")
	late, _ := r.say("cem", "sent while mom works") // after the trigger: for the next run
	r.llm.Enqueue(fakellm.Text("Looking."), fakellm.Text("Still here."))

	if res, _ := r.handle(m, end); res.StopReason != llm.StopEnd || res.Text != "Looking." {
		t.Fatalf("result = %+v", res)
	}
	got := userTexts(r.llm.Requests()[0])
	want := []string{"[bea]: morning all", "[otherbot]: beep", "[cem]: the build is red", "[2026-03-15 10:00:05+00:00] [bea]: can you check?"}
	// Other bots' lines are context too, only mom's own are not.
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("user messages:\n got %q\nwant %q", got, want)
	}

	m2, end2 := r.say("bea", "and now?")
	r.handle(m2, end2)
	got = userTexts(r.llm.Requests()[1])
	want = append(want, "[cem]: sent while mom works", "[2026-03-15 10:00:05+00:00] [bea]: and now?")
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("second run's user messages:\n got %q\nwant %q", got, want)
	}
	_ = late
	// mom's own reply is in the log once, as the bot.
	var bot []string
	r.ch.ReadLog(0, func(m chat.Message, _ store.LogPos) error {
		if m.Sender.ID == "B1" {
			bot = append(bot, m.Text)
		}
		return nil
	})
	if strings.Join(bot, "|") != "Looking.|Still here." {
		t.Errorf("mom's lines in the log = %q", bot)
	}
}

func TestAttachmentsReachTheModel(t *testing.T) {
	r := newRig(t)
	png := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("x", 64))
	att, err := r.ch.SaveAttachment("chart.png", time.Now(), strings.NewReader(string(png)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	m, end := r.say("bea", "what is this?", func(m *chat.Message) {
		m.Attachments = []chat.Attachment{att, {Filename: "huge.iso", Error: "larger than the 20 MB limit"}}
	})
	r.llm.Enqueue(fakellm.Text("A chart."))
	r.handle(m, end)
	req := r.llm.Requests()[0]
	last := req.Messages[len(req.Messages)-1]
	text := last.Content[0].Text
	wantPath := filepath.Join(r.ch.Dir(), att.LocalPath)
	if !strings.Contains(text, "<attachments>\n"+wantPath+"\n\"huge.iso\" (not saved: larger than the 20 MB limit)\n</attachments>") {
		t.Errorf("attachment block:\n%s", text)
	}
	if len(last.Content) != 2 || last.Content[1].Type != "image" || last.Content[1].MediaType != "image/png" {
		t.Errorf("the image was not inlined: %+v", last.Content)
	}
}

func TestToolMistakesGoBackToTheModel(t *testing.T) {
	r := newRig(t, panicky{})
	m, end := r.say("bea", "go")
	r.llm.Enqueue(
		fakellm.Calls(
			fakellm.ToolCall{ID: "t1", Name: "nosuchtool", Args: map[string]any{"label": "x"}},
			fakellm.ToolCall{ID: "t2", Name: "bash", Args: map[string]any{"command": "true"}},
			fakellm.ToolCall{ID: "t3", Name: "panicky", Args: map[string]any{"label": "boom"}},
			fakellm.ToolCall{ID: "t4", Name: "bash", Args: `{"label": "broken json`},
		),
		fakellm.Text("Sorry about that."),
	)
	res, _ := r.handle(m, end)
	if res.StopReason != llm.StopEnd {
		t.Fatalf("result = %+v", res)
	}
	second := r.llm.Requests()[1]
	for id, want := range map[string]string{
		"t1": `Tool "nosuchtool" does not exist`,
		"t2": `missing required argument "label"`,
		"t3": "Tool panicky crashed: kaboom",
		"t4": "Invalid arguments for bash",
	} {
		got, ok := second.ToolResult(id)
		if !ok || !got.IsError || !strings.Contains(got.Text, want) {
			t.Errorf("result of %s = %+v, want an error containing %q", id, got, want)
		}
	}
}

// panicky is a tool that panics, standing in for a bug in a tool.
type panicky struct{}

func (panicky) Def() llm.Tool {
	return llm.Tool{Name: "panicky", Description: "panics", Parameters: json.RawMessage(
		`{"type":"object","properties":{"label":{"type":"string"}},"required":["label"]}`)}
}

func (panicky) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	panic("kaboom")
}

func TestEventsComeInOrder(t *testing.T) {
	r := newRig(t)
	m, end := r.say("bea", "go")
	r.llm.Enqueue(
		fakellm.Reply{Text: "Let me look.", ToolCalls: []fakellm.ToolCall{fakellm.Call("bash", map[string]any{"label": "look", "command": "echo hi"})}},
		fakellm.Text("Done."),
	)
	_, ev := r.handle(m, end)
	want := "agent_start turn_start message_start message_end tool_execution_start tool_execution_update tool_execution_end turn_end " +
		"turn_start message_start message_end turn_end agent_end"
	if got := strings.Join(ev.types(), " "); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	last := ev.evs[len(ev.evs)-1]
	if last.Usage == nil || last.Usage.Output == 0 || last.ContextWindow != 200000 || last.ContextTokens == 0 {
		t.Errorf("agent_end lacks usage: %+v", last)
	}
}

func TestRetriesAreReported(t *testing.T) {
	r := newRig(t)
	m, end := r.say("bea", "go")
	r.llm.Enqueue(fakellm.Reply{Text: "partial answ", CutAfter: 4}, fakellm.Overloaded(), fakellm.Text("whole answer"))
	res, ev := r.handle(m, end)
	if res.StopReason != llm.StopEnd || res.Text != "whole answer" {
		t.Fatalf("result = %+v", res)
	}
	var attempts []int
	for _, e := range ev.evs {
		if e.Type == run.RetryStart {
			attempts = append(attempts, e.Attempt)
			if e.MaxAttempts != 3 || e.ErrorMessage == "" {
				t.Errorf("retry event = %+v", e)
			}
		}
	}
	if len(attempts) != 2 || attempts[0] != 2 || attempts[1] != 3 {
		t.Errorf("retry attempts = %v", attempts)
	}
}

func TestRetryAfterBeyondThePolicyFails(t *testing.T) {
	r := newRig(t)
	m, end := r.say("bea", "go")
	r.llm.Enqueue(fakellm.RateLimited("3600"))
	res, _ := r.handle(m, end)
	if res.StopReason != llm.StopError || !strings.Contains(res.ErrorMessage, "asks to wait 1h0m0s") {
		t.Fatalf("result = %+v", res)
	}
}

func TestAbortWhileStreaming(t *testing.T) {
	r := newRig(t)
	m, end := r.say("bea", "go")
	hold := make(chan struct{})
	defer close(hold)
	r.llm.Enqueue(fakellm.Reply{Text: "I was saying", Hold: hold}, fakellm.Text("fresh start"))
	done := make(chan Result)
	go func() { res, _ := r.handle(m, end); done <- res }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.llm.WaitRequests(ctx, 1)
	for !r.agent.IsRunning(r.ch.Key()) {
		time.Sleep(time.Millisecond)
	}
	if !r.agent.Abort(r.ch.Key()) {
		t.Fatal("Abort found no run")
	}
	res := <-done
	if res.StopReason != llm.StopAborted {
		t.Fatalf("result = %+v", res)
	}
	if r.agent.IsRunning(r.ch.Key()) || r.agent.Abort(r.ch.Key()) {
		t.Error("the run is still registered")
	}
	m2, end2 := r.say("bea", "again")
	if res, _ := r.handle(m2, end2); res.Text != "fresh start" {
		t.Fatalf("after the abort: %+v", res)
	}
	if rej := r.llm.Requests()[1].Rejected; rej != "" {
		t.Errorf("the request after the abort was invalid: %s", rej)
	}
}

func TestOneRunPerChannel(t *testing.T) {
	r := newRig(t)
	hold := make(chan struct{})
	r.llm.Enqueue(fakellm.Reply{Text: "slow", Hold: hold})
	m, end := r.say("bea", "one")
	done := make(chan struct{})
	go func() { r.handle(m, end); close(done) }()
	for !r.agent.IsRunning(r.ch.Key()) {
		time.Sleep(time.Millisecond)
	}
	m2, end2 := r.say("bea", "two")
	if res, _ := r.handle(m2, end2); res.StopReason != llm.StopError || !strings.Contains(res.ErrorMessage, ErrBusy.Error()) {
		t.Errorf("second concurrent run = %+v", res)
	}
	close(hold)
	<-done
}

func TestNoProviderExplainsWhatToConfigure(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	exec, _ := sandbox.NewHost(st.Workspace())
	ag := New(st, Options{NoProviderHint: "export ANTHROPIC_API_KEY=...", Exec: exec})
	ch, _ := st.ChannelDir("test", "C1")
	ev := &events{}
	res := ag.HandleMessage(context.Background(), Request{ChannelDir: ch, Trigger: chat.Message{ID: "1", Text: "hi"}, Sink: ev.sink})
	if res.StopReason != llm.StopError || res.ErrorMessage != "export ANTHROPIC_API_KEY=..." {
		t.Errorf("result = %+v", res)
	}
	if got := strings.Join(ev.types(), " "); got != "agent_start agent_end" {
		t.Errorf("events = %s", got)
	}
	if ag.IsRunning(ch.Key()) {
		t.Error("the failed run is still registered")
	}
}

func TestBashRunsInTheChannelScratchDirectory(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret-never-shown") // before the executor reads the environment
	r := newRig(t)
	m, end := r.say("bea", "where am I?")
	r.llm.Enqueue(fakellm.Calls(fakellm.ToolCall{ID: "t1", Name: "bash", Args: map[string]any{"label": "pwd", "command": "pwd; env"}}), fakellm.Text("ok"))
	r.handle(m, end)
	res, _ := r.llm.Requests()[1].ToolResult("t1")
	scratch := filepath.Join(r.ch.Dir(), "scratch")
	if want, _ := filepath.EvalSymlinks(scratch); !strings.HasPrefix(res.Text, want+"\n") && !strings.HasPrefix(res.Text, scratch+"\n") {
		t.Errorf("pwd = %q, want %s", res.Text, scratch)
	}
	if strings.Contains(res.Text, "sk-secret") {
		t.Error("the API key reached the command's environment")
	}
	if _, err := os.Stat(scratch); err != nil {
		t.Error(err)
	}
}
