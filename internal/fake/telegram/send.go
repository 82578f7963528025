package faketelegram

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
)

// MaxText is the longest message text Telegram takes, in UTF-16 code units after parsing.
const MaxText = 4096

// maxCaption is the longest caption of a file.
const maxCaption = 1024

// RejectMarkup makes the next n messages or edits sent with parse_mode HTML fail with "can't
// parse entities", as when Telegram's parser disagrees with the sender's, so a test can see
// the sender fall back to plain text.
func (s *Server) RejectMarkup(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejectHTML = n
}

// target finds the chat a call addresses; s.mu is held.
func (s *Server) target(r *request) (*chat, *apiError) {
	v, ok := r.params["chat_id"]
	if !ok || v == "" {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: chat_id is empty", violation: "no chat_id"}
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: chat not found",
			violation: fmt.Sprintf("chat_id %q is not a chat id", v)}
	}
	c := s.chats[id]
	if c == nil {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: chat not found",
			violation: fmt.Sprintf("chat_id %d names no chat the bot is in", id)}
	}
	if !s.botIn(c) {
		// What Telegram answers a bot that left or was removed: honest, so no violation.
		kind := "group"
		if c.Type == Supergroup {
			kind = "supergroup"
		}
		return nil, &apiError{code: http.StatusForbidden, desc: "Forbidden: bot is not a member of the " + kind + " chat"}
	}
	return c, nil
}

// thread reads message_thread_id, which must name a topic of a forum chat.
func (s *Server) thread(c *chat, r *request) (int, *apiError) {
	t, ok, err := r.intParam("message_thread_id")
	if err != nil || !ok {
		return 0, err
	}
	if !c.IsForum || c.topics[int(t)] == "" {
		return 0, &apiError{code: http.StatusBadRequest, desc: "Bad Request: message thread not found",
			violation: fmt.Sprintf("message_thread_id %d is no topic of chat %d", t, c.ID)}
	}
	return int(t), nil
}

// place reads where a new message goes: the chat, the topic (0 for none) and the message it
// replies to (0 for none); s.mu is held.
func (s *Server) place(r *request) (c *chat, thread, reply int, err *apiError) {
	if c, err = s.target(r); err != nil {
		return nil, 0, 0, err
	}
	if thread, err = s.thread(c, r); err != nil {
		return nil, 0, 0, err
	}
	if reply, err = s.replyTarget(c, r); err != nil {
		return nil, 0, 0, err
	}
	return c, thread, reply, nil
}

// replyTarget reads reply_parameters (or the older reply_to_message_id): the message a new one
// replies to, 0 for none.
func (s *Server) replyTarget(c *chat, r *request) (int, *apiError) {
	var p struct {
		MessageID                int   `json:"message_id"`
		ChatID                   any   `json:"chat_id"`
		AllowSendingWithoutReply bool  `json:"allow_sending_without_reply"`
		Quote                    *bool `json:"-"`
	}
	if raw, ok := r.params["reply_parameters"]; ok && raw != "" {
		if err := json.Unmarshal([]byte(raw), &p); err != nil || p.MessageID == 0 {
			return 0, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse reply parameters JSON object",
				violation: "reply_parameters is not {\"message_id\":…}: " + raw}
		}
	} else {
		id, ok, err := r.intParam("reply_to_message_id")
		if err != nil || !ok {
			return 0, err
		}
		p.MessageID = int(id)
		p.AllowSendingWithoutReply = r.params["allow_sending_without_reply"] == "true"
	}
	if c.msg(p.MessageID) == nil {
		if p.AllowSendingWithoutReply {
			return 0, nil
		}
		return 0, badRequest("message to be replied not found")
	}
	return p.MessageID, nil
}

// formatted parses a text parameter with parse_mode into what people see.
func (s *Server) formatted(r *request, key string, limit int) (text string, entities []Entity, markup string, err *apiError) {
	raw := r.params[key]
	switch mode := r.params["parse_mode"]; mode {
	case "":
		text = raw
	case "HTML", "html":
		if s.rejectHTML > 0 {
			s.rejectHTML--
			return "", nil, "", badRequest("can't parse entities: Unsupported start tag \"mom\" at byte offset 0")
		}
		var perr error
		text, entities, perr = parseHTML(raw)
		if perr != nil {
			return "", nil, "", &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse entities: " + perr.Error(),
				violation: fmt.Sprintf("markup Telegram cannot parse (%v): %q", perr, clip(raw))}
		}
		markup = raw
	default:
		return "", nil, "", &apiError{code: http.StatusBadRequest, desc: "Bad Request: unsupported parse_mode",
			violation: fmt.Sprintf("parse_mode %q (the fake speaks only HTML)", mode)}
	}
	text, entities = trimText(text, entities)
	if n := utf16Len(text); n > limit {
		what := "message is too long"
		if key == "caption" {
			what = "message caption is too long"
		}
		return "", nil, "", &apiError{code: http.StatusBadRequest, desc: "Bad Request: " + what,
			violation: fmt.Sprintf("%s of %d characters, over Telegram's %d", key, n, limit)}
	}
	return text, entities, markup, nil
}

// trimText drops the whitespace around a text, moving the entities with it, as Telegram does.
func trimText(text string, es []Entity) (string, []Entity) {
	start := 0
	for start < len(text) && isWhite(text[start]) {
		start++
	}
	end := len(text)
	for end > start && isWhite(text[end-1]) {
		end--
	}
	lead, total := utf16Len(text[:start]), utf16Len(text[start:end])
	var out []Entity
	for _, e := range es {
		e.Offset -= lead
		stop := min(e.Offset+e.Length, total)
		e.Offset = max(e.Offset, 0)
		if e.Length = stop - e.Offset; e.Length > 0 {
			out = append(out, e)
		}
	}
	return text[start:end], out
}

func isWhite(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *Server) sendMessage(r *request) (any, *apiError) {
	c, thread, reply, err := s.place(r)
	if err != nil {
		return nil, err
	}
	if r.params["text"] == "" {
		return nil, badRequest("message text is empty")
	}
	text, entities, markup, err := s.formatted(r, "text", MaxText)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, badRequest("message text is empty")
	}
	buttons, err := keyboard(r)
	if err != nil {
		return nil, err
	}
	m := s.store(c, &message{Message: Message{ChatID: c.ID, Thread: thread, From: s.bot.ID, Date: timeNow(),
		Text: text, Entities: entities, HTML: markup, ReplyTo: reply, Buttons: buttons}})
	return s.wireMessage(c, m, false), nil
}

// own finds a message of the bot's that a call names by chat_id and message_id.
func (s *Server) own(r *request, verb string) (*chat, *message, *apiError) {
	c, err := s.target(r)
	if err != nil {
		return nil, nil, err
	}
	id, ok, err := r.intParam("message_id")
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: message identifier is not specified",
			violation: "no message_id"}
	}
	m := c.msg(int(id))
	if m == nil {
		return nil, nil, badRequest("message to %s not found", verb)
	}
	if m.From != s.bot.ID {
		return nil, nil, badRequest("message can't be %s", map[string]string{"edit": "edited", "delete": "deleted"}[verb])
	}
	return c, m, nil
}

func (s *Server) editMessageText(r *request) (any, *apiError) {
	c, m, err := s.own(r, "edit")
	if err != nil {
		return nil, err
	}
	text, entities, markup, err := s.formatted(r, "text", MaxText)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, badRequest("message text is empty")
	}
	buttons, err := keyboard(r)
	if err != nil {
		return nil, err
	}
	if text == m.Text && slices.Equal(entities, m.Entities) && slices.Equal(buttons, m.Buttons) {
		return nil, badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	m.Text, m.Entities, m.HTML, m.Buttons = text, entities, markup, buttons
	m.Edits++
	return s.wireMessage(c, m, false), nil
}

func (s *Server) deleteMessage(r *request) (any, *apiError) {
	_, m, err := s.own(r, "delete")
	if err != nil {
		return nil, err
	}
	m.deleted = true
	return true, nil
}

var chatActions = []string{"typing", "upload_photo", "record_video", "upload_video", "record_voice",
	"upload_voice", "upload_document", "choose_sticker", "find_location", "record_video_note", "upload_video_note"}

func (s *Server) sendChatAction(r *request) (any, *apiError) {
	c, err := s.target(r)
	if err != nil {
		return nil, err
	}
	thread, err := s.thread(c, r)
	if err != nil {
		return nil, err
	}
	a := r.params["action"]
	if !slices.Contains(chatActions, a) {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: wrong parameter action in request",
			violation: fmt.Sprintf("chat action %q", a)}
	}
	s.actions = append(s.actions, Action{ChatID: c.ID, Thread: thread, Action: a})
	return true, nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:100] + " … " + s[len(s)-100:]
	}
	return s
}
