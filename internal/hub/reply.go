package hub

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/run"
)

// Replier is what an adapter needs beyond chat.Adapter to take part in runs: a way to show one
// run to the people in a channel. The terminal and the web chat draw runs their own way; chat
// platforms use the shared renderer.
type Replier interface {
	// Reply starts showing a run that answers trigger in the channel.
	Reply(ctx context.Context, channelID string, trigger chat.Message) Reply
}

// Reply shows one run.
type Reply interface {
	// Event receives the run's events in order; calls never overlap.
	Event(ev run.Event)
	// Upload sends a file the agent attached into this run's conversation.
	Upload(ctx context.Context, f chat.File) error
	// Close is called once, after agent_end, and returns when the reply's last platform call
	// has finished, so that the next run in the channel starts after it.
	Close(ctx context.Context) error
}

// BotUser is implemented by adapters that know the bot's own account, so that its replies are
// logged under the same id the platform shows.
type BotUser interface {
	Bot() chat.User
}
