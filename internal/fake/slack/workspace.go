package fakeslack

import "fmt"

// Changes people make to the workspace itself, with the events Slack delivers for them. Like
// the other helpers they deliver every event Slack would send to an app subscribed to it; an
// app that did not subscribe would get none, so a client must cope with both.

// JoinTeam adds a new member to the workspace and delivers team_join with the whole user
// object. A user with the id of an existing one panics: it is a mistake in the test.
func (s *Server) JoinTeam(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.ID == "" || s.user(u.ID) != nil {
		panic(fmt.Sprintf("fakeslack: JoinTeam needs a new user id, got %q", u.ID))
	}
	nu := u
	s.users = append(s.users, &nu)
	ts, _ := s.stamp()
	s.enqueue(map[string]any{"type": "team_join", "user": s.wireUser(&nu), "cache_ts": s.now().Unix(), "event_ts": ts})
	s.Notify()
}

// CreateChannel adds a public channel created by the user creator, without the bot in it, and
// delivers channel_created, which Slack sends for every new public channel of the workspace.
// A channel that exists already panics.
func (s *Server) CreateChannel(id, name, creator string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" || s.chans[id] != nil {
		panic(fmt.Sprintf("fakeslack: CreateChannel needs a new channel id, got %q", id))
	}
	ch := &channel{Channel: Channel{ID: id, Name: name, Kind: KindChannel, Members: []string{creator}},
		created: s.now().Unix()}
	s.chans[id] = ch
	s.chanOrder = append(s.chanOrder, ch)
	ts, _ := s.stamp()
	s.enqueue(map[string]any{"type": "channel_created", "event_ts": ts, "channel": map[string]any{
		"id": id, "is_channel": true, "name": name, "name_normalized": name, "created": ch.created, "creator": creator}})
	s.Notify()
}

// ArchiveChannel archives a channel as the user by would, and delivers channel_archive
// (group_archive for a private channel) when the bot can see the channel. Posting into an
// archived channel fails with is_archived, and conversations.list leaves it out when asked to
// exclude archived channels.
func (s *Server) ArchiveChannel(channelID, by string) { s.setArchived(channelID, by, true) }

// UnarchiveChannel undoes ArchiveChannel and delivers channel_unarchive (group_unarchive for a
// private channel) when the bot can see the channel.
func (s *Server) UnarchiveChannel(channelID, by string) { s.setArchived(channelID, by, false) }

func (s *Server) setArchived(channelID, by string, archived bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.mustChannel(channelID)
	if ch.Kind == KindIM || ch.Kind == KindMPIM {
		panic(fmt.Sprintf("fakeslack: %s is a direct conversation, which cannot be archived", channelID))
	}
	ch.Archived = archived
	typ := "archive"
	if !archived {
		typ = "unarchive"
	}
	ts, _ := s.stamp()
	ev := map[string]any{"channel": ch.ID, "event_ts": ts}
	if ch.Kind == KindChannel {
		ev["type"], ev["user"] = "channel_"+typ, by
	} else {
		ev["type"] = "group_" + typ
	}
	if ch.visible() {
		s.enqueue(ev)
	}
	s.Notify()
}
