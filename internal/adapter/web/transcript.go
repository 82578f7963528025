package web

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// Transcript writes ch's whole history as text for `mom download`: log.jsonl's messages and,
// under each of mom's runs, how it came about (from activity.jsonl), as the page shows it:
// tool steps with ✓/✗ and time, retries, the outcome and the usage line. mom's notes are
// shown in brackets; withdrawn ones are left out.
func (a *Adapter) Transcript(ch *store.ChannelDir, w io.Writer) error {
	_, frames, err := a.timeline(ch, math.MaxInt, -1, nil)
	if err != nil {
		return err
	}
	notes := map[string]string{} // the final text of each note; gone ones are deleted
	for _, f := range frames {
		switch f.Type {
		case "notice", "notice_edit":
			notes[f.ID] = f.Text
		case "notice_gone":
			delete(notes, f.ID)
		}
	}
	labels := map[string]string{}
	var last time.Time // the time of the line before, for mom's answers, which carry none
	var b strings.Builder
	step := func(format string, args ...any) { fmt.Fprintf(&b, "    "+format+"\n", args...) }
	for _, f := range frames {
		switch f.Type {
		case "message":
			last = f.Message.TS
			b.WriteString(chat.TranscriptLine(f.Message.TS, f.Message.Sender.Username, transcriptText(*f.Message), ""))
		case "notice":
			if text, ok := notes[f.ID]; ok {
				step("(mom: %s)", strings.Trim(text, "_"))
			}
		case "text":
			if f.TS != nil {
				last = *f.TS
			}
			b.WriteString(chat.TranscriptLine(last, "mom", f.Text, ""))
		case "run_start":
			if f.WakeUp != "" {
				step("⏰ event %s", f.WakeUp)
			}
		case "tool_start":
			labels[f.ID] = f.Text
			if labels[f.ID] == "" {
				labels[f.ID] = f.Name
			}
		case "tool_end":
			mark := "✓"
			if f.IsError {
				mark = "✗"
			}
			step("→ %s %s (%d ms)", labels[f.ID], mark, f.Ms)
		case "status":
			step("%s", f.Text)
		case "run_end":
			switch f.StopReason {
			case "error":
				step("✗ %s", f.Summary)
				for _, l := range strings.Split(strings.TrimSpace(f.Error), "\n") {
					step("  %s", l)
				}
			case "aborted":
				step("Stopped.")
			case "interrupted":
				step("(mom stopped before this run ended)")
			}
			if f.Usage != "" {
				step("↳ %s", f.Usage)
			}
		}
		if b.Len() > 64<<10 {
			if _, err := io.WriteString(w, b.String()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// transcriptText is a message's text with the names of its files.
func transcriptText(m chat.Message) string {
	text := m.Text
	for _, att := range m.Attachments {
		text += "\n📎 " + att.Filename
	}
	return text
}
