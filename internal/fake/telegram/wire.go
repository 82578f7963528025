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
	if len(m.Buttons) > 0 {
		row := make([]obj, len(m.Buttons))
		for i, b := range m.Buttons {
			row[i] = obj{"text": b.Text, "callback_data": b.Data}
		}
		o["reply_markup"] = obj{"inline_keyboard": []any{row}}
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
	if f := m.fileRef; f != nil {
		text, entities = "caption", "caption_entities"
		o[f.Kind] = f.wire()
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

// wire is a file as the Message field of its kind holds it: a Document, an array of
// PhotoSize (smallest first), an Audio, a Video or a Voice. Durations are reported as one
// second, since the fake does not decode media.
func (f *file) wire() any {
	o := obj{"file_id": f.ID, "file_unique_id": f.uniqueID, "file_size": len(f.Content)}
	switch f.Kind {
	case Photo:
		sizes := make([]obj, 0, len(f.sizes)+1)
		for _, p := range append(f.sizes, f) {
			sizes = append(sizes, obj{"file_id": p.ID, "file_unique_id": p.uniqueID, "width": p.Width, "height": p.Height,
				"file_size": len(p.Content)})
		}
		return sizes
	case Video:
		o["width"], o["height"] = f.Width, f.Height
		fallthrough
	case Audio, Voice:
		o["duration"] = 1
	}
	if f.Name != "" {
		o["file_name"] = f.Name
	}
	if f.MimeType != "" {
		o["mime_type"] = f.MimeType
	}
	return o
}
