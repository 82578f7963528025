package agent

import (
	"context"
	"fmt"

	"github.com/mom-agent/mom/internal/sandbox"
)

// Membership is the optional ability of an adapter that knows which of its channels a person
// is in (it asks the platform, or has only one channel to answer with). The hub hands it to
// the agent with each run (ChannelContext.Membership); under the sandbox's "user" isolation,
// the run's first command that needs to know calls MemberChannels for the person who asked
// (again after a failure, at most once per run once it succeeds), and the run's commands see
// those channels besides their own. For an adapter without it they see only their own.
type Membership interface {
	// MemberChannels returns the ids of the adapter's channels that userID is a member of.
	MemberChannels(ctx context.Context, userID string) ([]string, error)
}

// scope is what the run's commands may see: its channel, and the channels of the person who
// sent the trigger. A wake-up's run has no such person; it sees only its channel.
func (a *Agent) scope(req Request) sandbox.Scope {
	ch := req.ChannelDir
	s := sandbox.Scope{Channel: ch.Dir()}
	m, user := req.Context.Membership, req.Trigger.Sender.ID
	if m == nil || user == "" || req.Trigger.WakeUpFile() != "" {
		return s
	}
	s.Shared = func(ctx context.Context) ([]string, error) {
		ids, err := m.MemberChannels(ctx, user)
		if err != nil {
			return nil, fmt.Errorf("which channels %s is in: %w", user, err)
		}
		dirs := make([]string, 0, len(ids))
		for _, id := range ids {
			// A channel id the store refuses names no directory, so it shows nothing.
			if c, err := a.store.ChannelDir(ch.Adapter(), id); err == nil {
				dirs = append(dirs, c.Dir())
			}
		}
		return dirs, nil
	}
	return s
}
