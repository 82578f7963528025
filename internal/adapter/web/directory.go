package web

import "github.com/mom-agent/mom/internal/chat"

// Directory returns the people who have written since mom started, and the web chat's
// channels.
func (a *Adapter) Directory() chat.Directory {
	a.mu.Lock()
	users := chat.SortedUsers(a.users)
	a.mu.Unlock()
	return chat.Directory{Users: users, Channels: a.channels()}
}

// channels returns the web chat's channels: the default one and every one with a directory.
func (a *Adapter) channels() []chat.Channel {
	ids, err := a.channelIDs()
	if err != nil {
		a.log.Warn("could not list the web channels", "err", err)
	}
	out := make([]chat.Channel, len(ids))
	for i, id := range ids {
		out[i] = chat.Channel{ID: id, Name: id, Kind: chat.KindChannel}
	}
	return out
}
