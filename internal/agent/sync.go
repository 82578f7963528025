package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
	"github.com/mom-agent/mom/internal/store"
)

// cursorType names the custom context.jsonl entries that record how far the context has
// caught up with log.jsonl. pi ignores custom entries when it builds a context, so pi's tools
// still see a plain conversation.
const cursorType = "mom.logSync"

// logCursor is where the context stands relative to the log: every line before Offset is in
// the context (or deliberately left out, like the bot's own lines), and so are the messages
// after it whose ids are listed (those delivered to a run as steering).
type logCursor struct {
	Offset int64    `json:"offset"`
	IDs    []string `json:"ids,omitempty"`
}

func loadCursor(sess *session.Session) logCursor {
	var c logCursor
	if raw, ok := sess.LastCustom(cursorType); ok {
		_ = json.Unmarshal(raw, &c) // a damaged cursor means syncing from the start: no loss
	}
	return c
}

// syncLog appends to the context, in log order, every message people sent since the last run
// (channel chatter, messages sent while mom was busy), then the trigger itself, and records
// the new cursor. It returns the cursor, to which the run adds the ids of steering messages,
// and what transcribing the voice notes of those messages cost, which counts in the run's.
func (a *Agent) syncLog(req Request, sess *session.Session) (logCursor, float64, error) {
	var cost float64
	cur := loadCursor(sess)
	end := req.LogEnd
	if end == 0 {
		size, err := req.ChannelDir.LogSize()
		if err != nil {
			return cur, 0, fmt.Errorf("could not read log.jsonl: %w", err)
		}
		end = size
	}
	seen := make(map[string]bool, len(cur.IDs))
	for _, id := range cur.IDs {
		seen[id] = true
	}
	if cur.Offset < end {
		err := req.ChannelDir.ReadLog(cur.Offset, func(m chat.Message, pos store.LogPos) error {
			if pos.Start >= end {
				return errStopReading
			}
			if seen[m.ID] {
				delete(seen, m.ID)
				return nil
			}
			// mom's own replies are already in the context as assistant messages; other
			// bots' messages (a CI bot reporting a red build) are worth reading.
			if m.Sender.ID == botUser(req).ID || m.ID == req.Trigger.ID {
				return nil
			}
			cost += transcriptCost(m)
			_, err := sess.AppendMessage(a.userMessage(req, m, false))
			return err
		})
		if err != nil && err != errStopReading {
			return cur, 0, fmt.Errorf("could not bring the context up to date with log.jsonl: %w", err)
		}
		cur.Offset = end
	}
	if req.Trigger.ID != "" || req.Trigger.Text != "" {
		cost += transcriptCost(req.Trigger)
		if _, err := sess.AppendMessage(a.userMessage(req, req.Trigger, true)); err != nil {
			return cur, 0, fmt.Errorf("could not save the message: %w", err)
		}
	}
	cur.IDs = cur.IDs[:0]
	for id := range seen {
		cur.IDs = append(cur.IDs, id)
	}
	if _, err := sess.AppendCustom(cursorType, cur); err != nil {
		return cur, 0, fmt.Errorf("could not save the log cursor: %w", err)
	}
	return cur, cost, nil
}

// takeSteered hands the run the messages people sent while it was working, formatted as
// triggers, and remembers their ids so the next sync does not add them twice. It returns
// too what transcribing their voice notes cost.
func (a *Agent) takeSteered(active *activeRun, req Request, cur *logCursor) ([]llm.Message, float64) {
	active.mu.Lock()
	steered := active.steered
	active.steered = nil
	active.mu.Unlock()
	msgs := make([]llm.Message, 0, len(steered))
	var cost float64
	for _, m := range steered {
		msgs = append(msgs, a.userMessage(req, m, true))
		cur.IDs = append(cur.IDs, m.ID)
		cost += transcriptCost(m)
	}
	return msgs, cost
}

// userMessage is how the model sees a message from a person, framed so that its text cannot
// pass for another message (see frame.go). A trigger carries its local time and its images
// inline: `[2026-03-15 11:00:05+01:00] [mario]: text`. Other messages are just
// `[mario]: text`. Attachments are listed by their paths in the sandbox; what was said in
// voice notes follows the text (withTranscripts).
func (a *Agent) userMessage(req Request, m chat.Message, trigger bool) llm.Message {
	var b strings.Builder
	if trigger {
		b.WriteString("[")
		b.WriteString(m.TS.In(a.opts.Location).Format("2006-01-02 15:04:05-07:00"))
		if req.Waited && m.ID == req.Trigger.ID {
			b.WriteString(", " + waitedNote(time.Since(m.TS)))
		}
		b.WriteString("] ")
	}
	b.WriteString("[" + speakerOf(m, botUser(req)) + "]: ")
	quoteText(&b, withTranscripts(m))
	msg := llm.Message{Role: llm.RoleUser, Timestamp: m.TS.UnixMilli()}
	if m.TS.IsZero() {
		msg.Timestamp = time.Now().UnixMilli()
	}
	var images []llm.Content
	if len(m.Attachments) > 0 {
		b.WriteString("\n\n<attachments>\n")
		for _, att := range m.Attachments {
			b.WriteString(a.attachmentLine(req, att))
			b.WriteString("\n")
			if trigger {
				if img, ok := a.inlineImage(req, att); ok {
					images = append(images, img)
				}
			}
		}
		b.WriteString("</attachments>")
	}
	msg.Content = append([]llm.Content{llm.Text(b.String())}, images...)
	return msg
}

// persist records a message of the run in context.jsonl and, for the bot's answers, in the
// channel's log, which is the channel's permanent history.
func (a *Agent) persist(req Request, sess *session.Session, m llm.Message) error {
	if _, err := sess.AppendMessage(m); err != nil {
		return err
	}
	if m.Role != llm.RoleAssistant {
		return nil
	}
	// A [SILENT] answer is one people never see: the history leaves it out too.
	if text := m.Text(); text != "" && !chat.IsSilent(text) {
		a.logReply(req, text)
	}
	return nil
}

// logFailure puts a run's failure in log.jsonl, in the words people were shown, so that the
// history (mom download, the web chat after a reload) does not show the question unanswered.
func (a *Agent) logFailure(req Request, errorMessage string) {
	msg := strings.TrimSpace(errorMessage)
	if msg == "" {
		msg = "the run failed without saying why"
	}
	a.logReply(req, "Sorry, something went wrong: "+msg)
}

// logReply appends one of mom's lines to the channel's log.jsonl. A failure is logged rather
// than returned: the answer is in context.jsonl and was shown; only the history lacks it.
func (a *Agent) logReply(req Request, text string) {
	now := time.Now()
	line := chat.Message{
		ID: fmt.Sprintf("mom-%d", now.UnixNano()), ChannelID: req.ChannelDir.ID(), TS: now,
		Sender: botUser(req), Text: text,
	}
	if _, err := req.ChannelDir.AppendLog(line); err != nil {
		a.opts.Logger.Error("could not log the reply", "channel", req.ChannelDir.Key(), "err", err)
	}
}

// errStopReading ends a log scan at the run's end offset.
var errStopReading = errors.New("stop reading")

// botUser is the sender of mom's lines in the log: the bot's platform account when the adapter
// knows it.
func botUser(req Request) chat.User {
	bot := req.Context.Bot
	if bot.ID == "" {
		bot = chat.User{ID: "mom", Username: "mom"}
	}
	bot.IsBot = true
	return bot
}
