package hub

import (
	"context"
	"sync"
	"testing"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// stubRunner stands in for the agent in tests of the hub's own decisions: queues, slots, busy
// policies, access and stop. A run records its request, reports agent_start, goes on until the
// test lets it end (see holdWith) or it is aborted, and then ends as the agent's runs do: it
// frees its channel before agent_end reaches the reply, and ends aborted when it was stopped.
// Tests of what the agent does with what the hub hands it (the history in the prompt, the
// bot's answer in the log) use the real agent (newAgentHubRig).
type stubRunner struct {
	t testing.TB

	mu      sync.Mutex
	hold    func(req agent.Request) <-chan struct{}
	reqs    []agent.Request
	steered []chat.Message
	running map[string]context.CancelFunc // channel key → how to abort its run
}

func newStubRunner(t testing.TB) *stubRunner {
	return &stubRunner{t: t, running: map[string]context.CancelFunc{}}
}

// holdWith makes every later run wait for the channel hold returns for it; a nil channel lets
// it end at once, as every run does without holdWith.
func (s *stubRunner) holdWith(hold func(req agent.Request) <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = hold
}

// holdUntil makes every later run wait until release is closed.
func (s *stubRunner) holdUntil(release <-chan struct{}) {
	s.holdWith(func(agent.Request) <-chan struct{} { return release })
}

func (s *stubRunner) HandleMessage(ctx context.Context, req agent.Request) agent.Result {
	key := req.ChannelDir.Key()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.running[key] != nil {
		s.t.Errorf("the hub started a second run in %s while one was going", key)
	}
	s.running[key] = cancel
	s.reqs = append(s.reqs, req)
	hold := s.hold
	s.mu.Unlock()

	req.Sink(run.Event{Type: run.AgentStart})
	if hold != nil {
		if release := hold(req); release != nil {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
	}
	res := agent.Result{StopReason: llm.StopEnd}
	if ctx.Err() != nil {
		res.StopReason = llm.StopAborted
	}
	s.mu.Lock()
	delete(s.running, key)
	s.mu.Unlock()
	req.Sink(run.Event{Type: run.AgentEnd, StopReason: res.StopReason})
	return res
}

func (s *stubRunner) Abort(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	cancel := s.running[key]
	if cancel != nil {
		cancel()
	}
	return cancel != nil
}

func (s *stubRunner) IsRunning(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[key] != nil
}

func (s *stubRunner) Steer(key string, m chat.Message) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[key] == nil {
		return false
	}
	s.steered = append(s.steered, m)
	return true
}

// requests returns the request of every run so far, in the order they started.
func (s *stubRunner) requests() []agent.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]agent.Request(nil), s.reqs...)
}

// steeredTexts returns the text of every message handed to a running run, in order.
func (s *stubRunner) steeredTexts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var texts []string
	for _, m := range s.steered {
		texts = append(texts, m.Text)
	}
	return texts
}

// waitRuns waits until n runs have started.
func (s *stubRunner) waitRuns(t *testing.T, n int) {
	t.Helper()
	poll(t, "runs to start", func() bool { return len(s.requests()) >= n })
}
