package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/store"
)

// storedChannelDir returns the channel target (adapter/channel) of st when it has a directory,
// and otherwise says which channels there are, so a typo in a command's argument is named
// rather than taken for an empty channel.
func storedChannelDir(st *store.Store, dir, target string) (*store.ChannelDir, error) {
	refs, err := st.Channels()
	if err != nil {
		return nil, err
	}
	known := make([]string, 0, len(refs))
	for _, r := range refs {
		known = append(known, r.Key())
	}
	if !slices.Contains(known, target) {
		if len(known) == 0 {
			return nil, fmt.Errorf("%s has no conversations yet", dir)
		}
		return nil, fmt.Errorf("%s has no conversation %s (it has: %s)", dir, target, strings.Join(known, ", "))
	}
	adapter, channel, _ := strings.Cut(target, "/")
	return st.ChannelDir(adapter, channel)
}
