package render

import (
	"github.com/mom-agent/mom/internal/run"
)

// CompactionLine says in one line what a compaction_end event reports: how far the context
// shrank, or why compacting failed. It is "" when there is nothing to say.
func CompactionLine(ev run.Event) string {
	switch c := ev.Compaction; {
	case ev.ErrorMessage != "":
		return "✗ Compacting failed: " + oneLine(ev.ErrorMessage, 200)
	case c != nil && c.TokensBefore > 0 && c.TokensAfter > 0:
		return "Compacted context: " + Tokens(c.TokensBefore) + " → " + Tokens(c.TokensAfter) + " tokens"
	}
	return ""
}
