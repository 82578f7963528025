package telegram

import (
	"context"
	"strconv"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// Questions with buttons (chat.Asker): an inline keyboard whose buttons carry
// "q:<question id>:<choice>" as callback data (at most 64 bytes). A press arrives as a
// callback_query update; it is answered with answerCallbackQuery, whose text tells someone who
// may not decide why nothing happened.

// questionData is the prefix of mom's callback data.
const questionData = "q:"

// Ask sends q's text with a row of buttons, one per choice.
func (a *Adapter) Ask(ctx context.Context, at chat.Place, markup string, q chat.Question) (string, error) {
	var row []models.InlineKeyboardButton
	for _, c := range q.Choices {
		row = append(row, models.InlineKeyboardButton{Text: c.Label, CallbackData: questionData + q.ID + ":" + c.Value})
	}
	replyTo, _ := strconv.Atoi(at.ThreadOf)
	id, err := a.sendHTML(ctx, at.ChannelID, replyTo, markup, &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{row}})
	if err != nil {
		return "", err
	}
	return strconv.Itoa(id), nil
}

// Settle replaces the question with markup; the edit takes the keyboard away.
func (a *Adapter) Settle(ctx context.Context, at chat.Place, messageID, markup string) error {
	return a.Edit(ctx, at, messageID, markup)
}

// callback hands a press on a question's button to the hub and answers the query, with why
// not when the answer was not taken.
func (a *Adapter) callback(ctx context.Context, in chat.Inbox, q *models.CallbackQuery) {
	text := ""
	rest, ok := strings.CutPrefix(q.Data, questionData)
	id, choice, ok2 := strings.Cut(rest, ":")
	if m := q.Message.Message; ok && ok2 && m != nil {
		who, _ := personOf(&q.From)
		text = in.Answer(ctx, a.Name(), chat.Answer{Question: id, Choice: choice, ChannelID: channelOf(m), User: who})
	}
	err := a.rate.Do(ctx, func() error {
		_, err := a.api.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: text, ShowAlert: text != ""})
		return err
	})
	if err != nil {
		a.log.Warn("could not answer a button press", "err", explain(err))
	}
}
