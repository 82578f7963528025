package run

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
)

// Reply shows one run to the people in a channel. When the hub starts a run it makes one with
// the shared renderer (render.NewReply), on the adapter's Surface and in its Dialect, or asks
// an adapter that draws runs its own way (hub.Replier: the terminal, the web chat).
type Reply interface {
	// Event receives the run's events in order; calls never overlap.
	Event(ev Event)
	// Upload sends a file the agent attached into this run's conversation.
	Upload(ctx context.Context, f chat.File) error
	// Close is called once, after agent_end, and returns when the reply's last platform call
	// has finished, so that the next run in the channel starts after it.
	Close(ctx context.Context) error
}
