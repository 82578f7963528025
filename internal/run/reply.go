package run

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
)

// Reply shows one run to the people in a channel: it is what an adapter hands back when the
// hub starts a run there (hub.Replier). Chat platforms build it with the shared renderer
// (render.Reply); the terminal and the web chat draw runs their own way.
type Reply interface {
	// Event receives the run's events in order; calls never overlap.
	Event(ev Event)
	// Upload sends a file the agent attached into this run's conversation.
	Upload(ctx context.Context, f chat.File) error
	// Close is called once, after agent_end, and returns when the reply's last platform call
	// has finished, so that the next run in the channel starts after it.
	Close(ctx context.Context) error
}
