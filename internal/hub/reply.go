package hub

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/run"
)

// Replier is what an adapter needs beyond chat.Adapter to take part in runs: a way to show one
// run to the people in a channel. The reply itself is a run.Reply, declared below the hub so
// that adapters implement Replier without importing the hub.
type Replier interface {
	// Reply starts showing a run that answers trigger in the channel.
	Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply
}

// BotUser is implemented by adapters that know the bot's own account, so that its replies are
// logged under the same id the platform shows.
type BotUser interface {
	Bot() chat.User
}
