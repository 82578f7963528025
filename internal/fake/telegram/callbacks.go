package faketelegram

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
)

// Inline keyboards and callback queries, as the Bot API documents them: a message sent or
// edited with reply_markup {"inline_keyboard": [[{"text", "callback_data"}]]} shows buttons;
// editMessageText without reply_markup takes them away; a person's press becomes a
// callback_query update (sent only when allowed_updates lets it through), which the bot must
// answer with answerCallbackQuery, once.

// Button is a button of a message's inline keyboard.
type Button struct {
	Text, Data string
}

// CallbackAnswer is an answerCallbackQuery call.
type CallbackAnswer struct {
	QueryID, Text string
	ShowAlert     bool
}

// maxCallbackData is the longest callback_data Telegram takes, in bytes.
const maxCallbackData = 64

// keyboard reads reply_markup's inline keyboard: nil when the call has none.
func keyboard(r *request) ([]Button, *apiError) {
	raw, ok := r.params["reply_markup"]
	if !ok || raw == "" {
		return nil, nil
	}
	var m struct {
		Inline [][]struct {
			Text string `json:"text"`
			Data string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse reply keyboard markup JSON object",
			violation: "reply_markup is not JSON: " + raw}
	}
	var out []Button
	for _, row := range m.Inline {
		for _, b := range row {
			if b.Text == "" {
				return nil, badRequest("text buttons are unallowed in the inline keyboard")
			}
			if len(b.Data) == 0 || len(b.Data) > maxCallbackData {
				return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: BUTTON_DATA_INVALID",
					violation: fmt.Sprintf("callback_data of %d bytes (1 to 64 allowed)", len(b.Data))}
			}
			out = append(out, Button{Text: b.Text, Data: b.Data})
		}
	}
	return out, nil
}

// Press has user press the button with data on the bot's message id in chatID, and queues
// the callback_query update. It returns the query's id, or an error when the message shows no
// such button.
func (s *Server) Press(chatID, user int64, id int, data string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	if c == nil {
		return "", fmt.Errorf("faketelegram: no chat %d", chatID)
	}
	m := c.msg(id)
	if m == nil || m.deleted || !slices.ContainsFunc(m.Buttons, func(b Button) bool { return b.Data == data }) {
		return "", fmt.Errorf("faketelegram: message %d in %d has no button %q", id, chatID, data)
	}
	u := s.users[user]
	if u == nil {
		return "", fmt.Errorf("faketelegram: no user %d", user)
	}
	s.queries++
	qid := strconv.FormatInt(int64(s.queries)*7919+4200000000000000000, 10)
	s.openQueries[qid] = true
	s.queue("callback_query", obj{
		"id": qid, "from": u.wire(), "message": s.wireMessage(c, m, true),
		"chat_instance": strconv.FormatInt(-c.ID*31, 10), "data": data,
	})
	s.Notify()
	return qid, nil
}

// Buttons returns the inline keyboard the bot's message id in chatID shows now.
func (s *Server) Buttons(chatID int64, id int) []Button {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.chats[chatID]; c != nil {
		if m := c.msg(id); m != nil {
			return slices.Clone(m.Buttons)
		}
	}
	return nil
}

// CallbackAnswers returns the answerCallbackQuery calls, in order.
func (s *Server) CallbackAnswers() []CallbackAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.answers)
}

func (s *Server) answerCallbackQuery(r *request) (any, *apiError) {
	id := r.params["callback_query_id"]
	if !s.openQueries[id] {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: query is too old and response timeout expired or query ID is invalid",
			violation: fmt.Sprintf("answerCallbackQuery for unknown or already answered query %q", id)}
	}
	delete(s.openQueries, id)
	s.answers = append(s.answers, CallbackAnswer{QueryID: id, Text: r.params["text"], ShowAlert: r.params["show_alert"] == "true"})
	return true, nil
}
