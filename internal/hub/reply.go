package hub

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/run"
)

// Replier is the optional ability of an adapter that draws runs its own way: the terminal
// streams the answer as it comes, the web chat sends every event to the page. The hub calls
// Reply when a run starts in one of the adapter's channels, and hands it the run's events
// until agent_end, then closes it. An adapter without it (the chat platforms) has its runs
// drawn by the shared renderer on its Surface, in its Dialect (render.NewReply). The reply is
// a run.Reply, declared below the hub so that adapters implement Replier without importing
// the hub.
type Replier interface {
	// Reply starts showing a run that answers trigger in the channel.
	Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply
}

// BotUser is the optional ability of an adapter that knows the bot's own account. The hub asks
// for it at the start of each run, so that the agent logs its replies under the id the
// platform shows, and when it tells someone how to stop a run (`@name stop`). Without it the
// replies are logged as "mom" and the hint says `@mom stop`.
type BotUser interface {
	Bot() chat.User
}

// StopButton is the ability of an adapter whose page stops a run with a button (the web
// chat): the busy notice points to the button rather than to a command to type.
type StopButton interface {
	// StopHint is the sentence that says how, in markdown ("Press **Stop** to cancel.").
	StopHint() string
}
