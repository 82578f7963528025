package hub

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/config"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestRestContextsClosesOnlyIdleChannels: the contexts of channels whose runs are over are
// closed, the one of a channel with a run going is left open, and a closed context is read
// again, whole, by the channel's next run.
func TestRestContextsClosesOnlyIdleChannels(t *testing.T) {
	t.Parallel()
	r := newAgentHubRig(t, config.AdapterEntry{Groups: open})
	r.llm.Enqueue(fakellm.Text("the capital is Paris"))
	r.receive(t, mentionIn("1", "C1", "bea", "capital of France?"))
	r.idle(t)

	hold := make(chan struct{})
	r.llm.Enqueue(fakellm.Reply{Text: "still thinking", Hold: hold})
	r.receive(t, mentionIn("2", "C2", "bea", "a long question"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := r.llm.WaitRequests(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if n := r.hub.RestContexts(0); n != 1 {
		t.Errorf("closed %d contexts; want C1's only, C2 has a run going", n)
	}
	if n := r.hub.RestContexts(0); n != 0 {
		t.Errorf("closed %d contexts again", n)
	}
	close(hold)
	r.idle(t)

	r.llm.Enqueue(fakellm.Text("about 2.1 million"))
	r.receive(t, mentionIn("3", "C1", "bea", "and its population?"))
	r.idle(t)
	var said strings.Builder
	for _, m := range r.llm.LastRequest().Messages {
		for _, b := range m.Content {
			said.WriteString(b.Text + "\n")
		}
	}
	for _, want := range []string{"capital of France?", "the capital is Paris", "and its population?"} {
		if !strings.Contains(said.String(), want) {
			t.Errorf("the run after the context was closed lacks %q:\n%s", want, said.String())
		}
	}
	if n := r.hub.RestContexts(0); n != 2 {
		t.Errorf("closed %d contexts once both channels were idle; want 2", n)
	}
}
