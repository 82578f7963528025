package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
)

// Limits of what a run shows.
const (
	// maxDetail is how much of a tool's arguments or output the page shows; the whole result
	// is in context.jsonl.
	maxDetail = 16 << 10
	// maxShare is the largest file mom attaches for download.
	maxShare = 100 << 20
)

// Reply starts showing a run (hub.Replier): every browser gets its events as frames.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply {
	if trigger.WakeUpFile() == "" && trigger.ID != "" {
		a.showMessage(trigger)
	}
	now := time.Now().UTC()
	r := &reply{a: a, channel: channelID, run: a.nextID(now), every: textEvery}
	a.emit(frame{Type: "run_start", Channel: channelID, Run: r.run, Trigger: trigger.ID, WakeUp: trigger.WakeUpFile(),
		From: a.logEnd(channelID), TS: &now})
	return r
}

// logEnd is where the channel's next log line will start: every answer the run about to
// start logs comes after it (one run per channel at a time), which is what lets a page tell
// the answers its frames show from the ones only log.jsonl has. Nil when the log cannot be
// measured; the page then takes the whole history, which may show an answer twice but never
// loses one.
func (a *Adapter) logEnd(channelID string) *int64 {
	ch, err := a.opts.Store.ChannelDir(a.opts.Name, channelID)
	if err != nil {
		a.log.Warn("could not find the channel of a run", "channel", channelID, "err", err)
		return nil
	}
	end, err := ch.LogSize()
	if err != nil {
		a.log.Warn("could not measure the log of a run's channel", "channel", channelID, "err", err)
		return nil
	}
	return &end
}

// textEvery is the shortest time between two text frames of an answer. Each carries the
// whole answer as HTML, rendered anew, so a fast model does not cost a render and a frame
// per token; a slow render (a long answer) spaces them further (see flushLocked).
const textEvery = 80 * time.Millisecond

// reply turns one run's events into frames.
type reply struct {
	a       *Adapter
	channel string
	run     string

	mu      sync.Mutex
	answer  strings.Builder // the text of the run's latest answer, to render and to recognize [SILENT]
	pending strings.Builder // its text not sent yet
	last    time.Time       // when text was last sent
	every   time.Duration   // the time between text frames
	timer   *time.Timer     // sends pending text when it is due
	retries int             // retries of a model request in this run
	retry   string          // what the last retry was about, in a few words
	asks    asks            // the run's requests for approval and their cards
}

func (r *reply) sendLocked(f frame) {
	f.Channel, f.Run = r.channel, r.run
	r.a.emit(f)
}

// flushLocked sends the pending text with the answer so far rendered, and learns from how
// long the rendering took when the next may come.
func (r *reply) flushLocked() {
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	if r.pending.Len() == 0 {
		return
	}
	start := time.Now()
	html := r.a.md.html(r.answer.String())
	r.every = max(textEvery, 4*time.Since(start))
	r.sendLocked(frame{Type: "text", Text: r.pending.String(), HTML: html})
	r.pending.Reset()
	r.last = time.Now()
}

// Event sends what people should see of ev. Thinking stays out, as on the chat platforms at
// normal verbosity.
func (r *reply) Event(ev run.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Type == run.MessageUpdate {
		if ev.DeltaKind == "text" && ev.Delta != "" {
			r.answer.WriteString(ev.Delta)
			r.pending.WriteString(ev.Delta)
			if wait := r.every - time.Since(r.last); wait <= 0 {
				r.flushLocked()
			} else if r.timer == nil {
				r.timer = time.AfterFunc(wait, func() {
					r.mu.Lock()
					defer r.mu.Unlock()
					r.flushLocked()
				})
			}
		}
		return
	}
	r.flushLocked()
	switch ev.Type {
	case run.MessageStart:
		// Also the start of a retry: text since the last message_end belonged to the attempt
		// that failed, and the retry writes the answer again.
		if ev.Message == nil || ev.Message.Role == llm.RoleAssistant {
			r.answer.Reset()
			r.sendLocked(frame{Type: "message_start"})
		}
	case run.MessageEnd:
		if ev.Message != nil && ev.Message.Role == llm.RoleAssistant {
			r.sendLocked(frame{Type: "message_end"})
		}
	case run.ToolStart:
		r.sendLocked(frame{Type: "tool_start", ID: ev.ToolCallID, Name: ev.ToolName, Text: ev.Label, Args: cut(prettyArgs(ev.Args))})
	case run.ToolEnd:
		r.sendLocked(frame{Type: "tool_end", ID: ev.ToolCallID, Output: cut(ev.Output), IsError: ev.IsError, Ms: ev.Duration.Milliseconds()})
	case run.ApprovalStart:
		if ev.Approval != nil {
			r.sendLocked(frame{Type: "status", ID: "approval", Text: "Waiting for approval…"})
			r.ask(*ev.Approval)
		}
	case run.ApprovalEnd:
		if ev.Approval != nil {
			r.sendLocked(frame{Type: "status", ID: "approval", Text: ev.Approval.Outcome})
			r.settle(*ev.Approval)
		}
	case run.RetryStart:
		r.retries++
		r.retry = errorSummary(ev.ErrorMessage)
		r.sendLocked(frame{Type: "status", ID: "retry", Text: fmt.Sprintf("%s — retrying in %s (attempt %d of %d)…",
			r.retry, ev.Delay.Round(100*time.Millisecond), ev.Attempt, ev.MaxAttempts), Detail: ev.ErrorMessage})
	case run.RetryEnd:
		r.sendLocked(frame{Type: "status", ID: "retry", Text: fmt.Sprintf("%s — answered after %s.", r.retry, retries(r.retries))})
	case run.CompactionStart:
		r.sendLocked(frame{Type: "status", ID: "compaction", Text: "Compacting context…"})
	case run.CompactionEnd:
		if ev.ErrorMessage != "" {
			r.sendLocked(frame{Type: "status", ID: "compaction", Text: "Could not compact the context.", Detail: ev.ErrorMessage})
		} else {
			r.sendLocked(frame{Type: "status", ID: "compaction", Text: "Context compacted."})
		}
	case run.AgentEnd:
		// A [SILENT] answer takes the whole run back, as the chat platforms delete its messages.
		silent := ev.StopReason != llm.StopError && chat.IsSilent(r.answer.String())
		f := frame{Type: "run_end", StopReason: string(ev.StopReason), Usage: render.UsageLine(ev), Silent: silent}
		if ev.StopReason == llm.StopError {
			f.Error, f.Retries = ev.ErrorMessage, r.retries
			f.Summary = errorSummary(ev.ErrorMessage)
			if r.retries > 0 {
				f.Summary += " — retried " + times(r.retries)
			}
		}
		if r.retries > 0 && ev.StopReason == llm.StopError {
			// The error card says it was retried, and has the error: no line of its own.
			r.sendLocked(frame{Type: "status", ID: "retry"})
		}
		r.sendLocked(f)
		r.a.withdrawStopping(r.channel)
	}
}

// times says how many times something happened, in words.
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return strconv.Itoa(n) + " times"
}

// retries says how many retries there were, in words.
func retries(n int) string {
	if n == 1 {
		return "1 retry"
	}
	return strconv.Itoa(n) + " retries"
}

// Upload offers a file the agent attached for download.
func (r *reply) Upload(ctx context.Context, f chat.File) error {
	return r.a.Upload(ctx, chat.Place{ChannelID: r.channel}, f)
}

// Close sends what text is still pending; frames are queued per browser.
func (r *reply) Close(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushLocked()
	return nil
}

// prettyArgs indents a tool call's arguments for reading.
func prettyArgs(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// cut shortens s to maxDetail bytes at a character boundary, saying how much was left out.
func cut(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	n := maxDetail
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + fmt.Sprintf("\n… (%d more bytes)", len(s)-n)
}

// Surface is the web chat: the adapter itself.
func (a *Adapter) Surface() chat.Surface { return a }

// Dialect is how mom writes in the web chat: markdown as it is (the page renders it), any
// length; notes can change and go.
func (a *Adapter) Dialect() chat.Dialect { return chat.Dialect{Edit: true, Delete: true} }

// Post shows a short note from mom (busy, stopping, …) to the browsers in the channel, after
// the message it answers (see notes).
func (a *Adapter) Post(ctx context.Context, at chat.Place, text string) (string, error) {
	id := a.nextID(time.Now())
	if strings.Trim(text, "_* ") == stoppingNote {
		// Under a.mu, as withdrawStopping: the note is either shown and withdrawn at the run's
		// end, in that order, or, once the run has ended (the hub posts it a moment after the
		// stop), not shown at all.
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.live.current(at.ChannelID) == "" {
			return id, nil
		}
		a.stopping[at.ChannelID] = append(a.stopping[at.ChannelID], id)
	}
	a.notes.send(frame{Type: "notice", Channel: at.ChannelID, ID: id, Text: text, HTML: a.md.html(text)})
	return id, nil
}

// stoppingNote is the hub's note for a stop it passed on to the run. The run's end says
// "Stopped." where the run is drawn, so the note goes then, rather than stay as the chat's
// last line after it.
const stoppingNote = "Stopping…"

// withdrawStopping withdraws the channel's "Stopping…" notes.
func (a *Adapter) withdrawStopping(channel string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := a.stopping[channel]
	delete(a.stopping, channel)
	for _, id := range ids {
		a.notes.send(frame{Type: "notice_gone", Channel: channel, ID: id})
	}
}

// Edit changes a note.
func (a *Adapter) Edit(ctx context.Context, at chat.Place, messageID, text string) error {
	a.notes.send(frame{Type: "notice_edit", Channel: at.ChannelID, ID: messageID, Text: text, HTML: a.md.html(text)})
	return nil
}

// Delete withdraws a note.
func (a *Adapter) Delete(ctx context.Context, at chat.Place, messageID string) error {
	a.notes.send(frame{Type: "notice_gone", Channel: at.ChannelID, ID: messageID})
	return nil
}

// Upload copies a file into the channel's attachments/, logs it as mom's message and offers
// it for download. Only files copied there can be downloaded: the page never names a path of
// its own.
func (a *Adapter) Upload(ctx context.Context, at chat.Place, f chat.File) error {
	channelID := at.ChannelID
	ch, err := a.opts.Store.ChannelDir(a.opts.Name, channelID)
	if err != nil {
		return err
	}
	now := time.Now()
	att, err := ch.SaveAttachment(f.Name, now, io.NewSectionReader(f.Content, 0, f.Size), maxShare)
	if err != nil {
		return fmt.Errorf("attach to the web chat: %w", err)
	}
	title := f.Title
	if title == "" {
		title = f.Name
	}
	m := chat.Message{
		ID: "mom-file-" + strconv.FormatInt(now.UnixNano(), 10), ChannelID: channelID, TS: now,
		Sender: a.Bot(), Text: title, Attachments: []chat.Attachment{att},
	}
	if _, err := ch.AppendLog(m); err != nil {
		discard(ch, m.Attachments)
		return fmt.Errorf("attach to the web chat: %w", err)
	}
	a.showMessage(m)
	return nil
}

// StopHint is how the busy notice says to stop a run (hub.StopButton): with the page's
// Stop button, which every page shows while mom works.
func (a *Adapter) StopHint() string { return "Press Stop to cancel." }
