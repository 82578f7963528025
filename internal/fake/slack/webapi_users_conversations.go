package fakeslack

import (
	"slices"
	"strings"
)

// conversationTypes reads the types argument of conversations.list and users.conversations:
// a comma-separated list of public_channel, private_channel, mpim and im, public_channel
// when absent. It returns whether a channel is of a requested type.
func conversationTypes(q *apiReq) (func(*channel) bool, *apiError) {
	types := map[string]bool{}
	for _, t := range strings.Split(q.form.Get("types"), ",") {
		switch t = strings.TrimSpace(t); t {
		case "":
		case "public_channel", "private_channel", "im", "mpim":
			types[t] = true
		default:
			return nil, fail("invalid_types")
		}
	}
	if len(types) == 0 {
		types["public_channel"] = true
	}
	kinds := map[string]string{KindChannel: "public_channel", KindPrivate: "private_channel", KindIM: "im", KindMPIM: "mpim"}
	return func(ch *channel) bool { return types[kinds[ch.Kind]] }, nil
}

// usersConversations lists the conversations a user is a member of (users.conversations):
// the bot's own without a user argument. As with a real bot token, a private channel or group
// DM is listed only when the bot is in it too, and the IMs are the bot's IMs with that user.
func (s *Server) usersConversations(q *apiReq) (obj, *apiError) {
	wanted, e := conversationTypes(q)
	if e != nil {
		return nil, e
	}
	user := q.form.Get("user")
	if user == "" {
		user = s.cfg.botUser
	} else if s.user(user) == nil {
		return nil, fail("user_not_found")
	}
	var all []*channel
	for _, ch := range s.chanOrder {
		member := slices.Contains(ch.Members, user) || (ch.Kind == KindIM && ch.User == user) ||
			(user == s.cfg.botUser && ch.botMember())
		if member && wanted(ch) && ch.visible() && !(ch.Archived && q.flag("exclude_archived")) {
			all = append(all, ch)
		}
	}
	return s.channelPage(q, all)
}
