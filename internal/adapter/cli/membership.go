package cli

import (
	"context"

	"github.com/mom-agent/mom/internal/agent"
)

// MemberChannels returns the terminal's one conversation: the person at the keyboard is in
// it, and there is no other. (The sandbox's user isolation asks.)
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	return []string{a.opts.Channel}, nil
}

var _ agent.Membership = (*Adapter)(nil)
