package faketelegram

import (
	"fmt"
	"net/http"
)

// Member statuses, as in ChatMember.status.
const (
	Creator       = "creator"
	Administrator = "administrator"
	Member        = "member"
	Restricted    = "restricted"
	Left          = "left"
	Kicked        = "kicked"
)

// membership is one person's standing in a chat. isMember matters only for Restricted: a
// restricted person may have left the chat and still be restricted in it.
type membership struct {
	status   string
	isMember bool
}

// SetMember sets user's status in a chat (Creator, Administrator, Member, Left, Kicked,
// or Restricted, which is a restricted person still in the chat; SetRestricted says
// otherwise). A person who speaks in a chat (Say) becomes a member unless a status was set;
// a person never set or heard in a group has the status Left, as Telegram answers for
// someone who is not in it.
func (s *Server) SetMember(chatID, user int64, status string) {
	switch status {
	case Creator, Administrator, Member, Restricted, Left, Kicked:
	default:
		panic(fmt.Sprintf("faketelegram: %q is no chat member status", status))
	}
	s.setMember(chatID, user, membership{status: status, isMember: status == Restricted})
}

// SetRestricted makes user a restricted member of a chat, in it (isMember) or not.
func (s *Server) SetRestricted(chatID, user int64, isMember bool) {
	s.setMember(chatID, user, membership{status: Restricted, isMember: isMember})
}

func (s *Server) setMember(chatID, user int64, m membership) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	if c == nil {
		panic(fmt.Sprintf("faketelegram: SetMember in unknown chat %d", chatID))
	}
	if s.users[user] == nil {
		panic(fmt.Sprintf("faketelegram: SetMember of unknown user %d", user))
	}
	c.members[user] = m
}

// memberOf is user's standing in c; s.mu is held. In a private chat the person and the bot
// are members and nobody else can be.
func (s *Server) memberOf(c *chat, user int64) membership {
	if c.Type == Private {
		if user == c.ID || user == s.bot.ID {
			return membership{status: Member}
		}
		return membership{status: Left}
	}
	if m, ok := c.members[user]; ok {
		return m
	}
	if user == s.bot.ID {
		return membership{status: Member}
	}
	return membership{status: Left}
}

// getChatMember answers a person's ChatMember object in a chat: 400 "chat not found" for a
// chat the bot is not in, "user not found" for a user id Telegram does not know. Asking
// about a chat the bot has left is no protocol error, so it is no violation here.
func (s *Server) getChatMember(r *request) (any, *apiError) {
	c, err := s.target(r)
	if err != nil {
		if chatID, ok, _ := r.intParam("chat_id"); ok && s.chats[chatID] == nil {
			err.violation = ""
		}
		return nil, err
	}
	id, ok, err := r.intParam("user_id")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: user_id is empty", violation: "no user_id"}
	}
	u := s.users[id]
	if u == nil {
		return nil, badRequest("user not found")
	}
	return wireMember(u, s.memberOf(c, id)), nil
}

// wireMember is the ChatMember object of each status, with the fields the Bot API documents
// as always present.
func wireMember(u *User, m membership) obj {
	o := obj{"status": m.status, "user": u.wire()}
	switch m.status {
	case Creator:
		o["is_anonymous"] = false
	case Administrator:
		for _, k := range []string{"can_be_edited", "is_anonymous", "can_promote_members", "can_post_stories",
			"can_edit_stories", "can_delete_stories"} {
			o[k] = false
		}
		for _, k := range []string{"can_manage_chat", "can_delete_messages", "can_manage_video_chats",
			"can_restrict_members", "can_change_info", "can_invite_users"} {
			o[k] = true
		}
	case Restricted:
		o["is_member"] = m.isMember
		for _, k := range []string{"can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
			"can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
			"can_send_other_messages", "can_add_web_page_previews", "can_change_info", "can_invite_users",
			"can_pin_messages", "can_manage_topics"} {
			o[k] = false
		}
		o["until_date"] = 0
	case Kicked:
		o["until_date"] = 0
	}
	return o
}

// botIn reports whether the bot is in c now: always in a private chat, in a group until it
// leaves (leaveChat) or is removed (SetMember with Left or Kicked). s.mu is held.
func (s *Server) botIn(c *chat) bool {
	switch s.memberOf(c, s.bot.ID).status {
	case Left, Kicked:
		return false
	}
	return true
}

// BotIn reports whether the bot is in a chat now (see leaveChat). SetMember(chat, bot id,
// Member) adds it again, as when someone adds the bot back.
func (s *Server) BotIn(chatID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	return c != nil && s.botIn(c)
}

// leaveChat takes the bot out of a group: it gets no more updates from the chat, and calls
// that name the chat answer 403 "Forbidden: bot is not a member of the group chat" until
// someone adds it again. A private chat cannot be left.
func (s *Server) leaveChat(r *request) (any, *apiError) {
	c, err := s.target(r)
	if err != nil {
		return nil, err
	}
	if c.Type == Private {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: chat member status can't be changed in private chats",
			violation: fmt.Sprintf("leaveChat of the private chat %d", c.ID)}
	}
	c.members[s.bot.ID] = membership{status: Left}
	return true, nil
}
