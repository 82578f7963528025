package session

import (
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

// AsMessage returns what the model sees of e, as Context builds it: a message entry's
// message, a branch summary or custom message as a user message. Other entries, compactions
// included, give nothing (a compaction is seen through SummaryMessage).
func (e *Entry) AsMessage() (llm.Message, bool) { return toLLM(e) }

// SummaryMessage returns the user message a compaction's summary becomes at the head of the
// context, wrapped as pi wraps it.
func SummaryMessage(summary string, t time.Time) llm.Message {
	return userText(compactionPrefix+summary+compactionSuffix, t.UnixMilli())
}
