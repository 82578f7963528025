package agent

import (
	"strings"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/transcribe"
)

// withTranscripts returns m's text followed by what was said in its audio attachments (see
// frame.go), one part each, which quoteText frames as lines of the message:
//
//	[bea]: [voice note, 0:42] can you check the build?
//	[ada]: here is the call
//	| [audio, 12:05, not transcribed: it is 12:05 long, and mom transcribes up to 10:00 (…)]
//
// A transcript is what a person said, so it stays inside their message like their text.
func withTranscripts(m chat.Message) string {
	var parts []string
	if m.Text != "" {
		parts = append(parts, m.Text)
	}
	for _, att := range m.Attachments {
		if t := att.Transcript; t != nil {
			parts = append(parts, transcriptPart(transcribe.Kind(att), t))
		}
	}
	return strings.Join(parts, "\n")
}

// transcriptPart is one attachment's transcript as the model reads it.
func transcriptPart(kind string, t *chat.Transcript) string {
	if kind == "" {
		kind = "audio"
	}
	label := kind
	if t.Seconds > 0 {
		label += ", " + transcribe.Clock(t.Seconds)
	}
	switch {
	case t.Error != "":
		return "[" + label + ", not transcribed: " + oneLine(t.Error) + "]"
	case strings.TrimSpace(t.Text) == "":
		return "[" + label + "] (no speech)"
	}
	return "[" + label + "] " + t.Text
}

// transcriptCost is what transcribing m's voice notes cost, in US dollars.
func transcriptCost(m chat.Message) float64 {
	var cost float64
	for _, att := range m.Attachments {
		if att.Transcript != nil {
			cost += att.Transcript.Cost
		}
	}
	return cost
}

// addCost counts cost (of transcribing the voice notes the run reads) in the run's usage,
// which agent_end reports. It has no tokens, so only the total grows.
func (l *loop) addCost(cost float64) {
	l.usage.Cost.Total += cost
}
