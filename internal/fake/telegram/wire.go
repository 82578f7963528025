package faketelegram

// The Bot API's JSON objects, built from the server's state.

type obj = map[string]any

func (u *User) wire() obj {
	o := obj{"id": u.ID, "is_bot": u.IsBot, "first_name": u.FirstName}
	if u.LastName != "" {
		o["last_name"] = u.LastName
	}
	if u.Username != "" {
		o["username"] = u.Username
	}
	return o
}

func (s *Server) wireMe() obj {
	o := s.bot.wire()
	o["can_join_groups"] = true
	o["can_read_all_group_messages"] = false
	o["supports_inline_queries"] = false
	return o
}

func (s *Server) wireChat(c *chat) obj {
	o := obj{"id": c.ID, "type": c.Type}
	switch c.Type {
	case Private:
		if u := s.users[c.ID]; u != nil {
			o["first_name"] = u.FirstName
			if u.LastName != "" {
				o["last_name"] = u.LastName
			}
			if u.Username != "" {
				o["username"] = u.Username
			}
		}
	default:
		o["title"] = c.Title
		if c.IsForum {
			o["is_forum"] = true
		}
	}
	return o
}

// wireMessage is m as the Bot API sends it; nested says it is someone's reply_to_message,
// which Telegram sends without a reply_to_message of its own.
func (s *Server) wireMessage(c *chat, m *message, nested bool) obj {
	o := obj{"message_id": m.ID, "date": m.Date.Unix(), "chat": s.wireChat(c)}
	if u := s.users[m.From]; u != nil {
		o["from"] = u.wire()
	}
	if m.topic != nil {
		o["message_thread_id"] = m.ID
		o["forum_topic_created"] = obj{"name": m.topic.name, "icon_color": 7322096}
		return o
	}
	if m.Thread != 0 {
		o["message_thread_id"] = m.Thread
		o["is_topic_message"] = true
	}
	text, entities := "text", "entities"
	if m.fileRef != nil {
		text, entities = "caption", "caption_entities"
		f := m.fileRef
		if f.Photo {
			o["photo"] = []obj{{"file_id": f.ID, "file_unique_id": f.uniqueID, "width": 640, "height": 480, "file_size": len(f.Content)}}
		} else {
			o["document"] = obj{"file_id": f.ID, "file_unique_id": f.uniqueID, "file_name": f.Name,
				"mime_type": f.MimeType, "file_size": len(f.Content)}
		}
	}
	if m.Text != "" {
		o[text] = m.Text
	}
	if len(m.Entities) > 0 {
		o[entities] = m.Entities
	}
	if m.Edits > 0 {
		o["edit_date"] = m.Date.Unix()
	}
	if nested {
		return o
	}
	// In a forum topic every message that replies to nothing else replies to the service
	// message that opened the topic, as Telegram sends it.
	replyTo := m.ReplyTo
	if replyTo == 0 && m.Thread != 0 {
		replyTo = m.Thread
	}
	if r := c.msg(replyTo); r != nil {
		o["reply_to_message"] = s.wireMessage(c, r, true)
	}
	return o
}
