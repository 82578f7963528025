package cli

import "context"

// MemberChannels returns the terminal's one conversation: the person at the keyboard is in
// it, and there is no other. (The sandbox's user isolation asks.)
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	return []string{a.opts.Channel}, nil
}
