package render

import (
	"context"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// While a compaction runs the status says so; when it ends it says how much it saved, or
// that it failed.
func TestProgressShowsCompaction(t *testing.T) {
	b := newBoard()
	p := NewProgress(context.Background(), b, style(Normal), Options{})
	p.Event(run.Event{Type: run.AgentStart})
	p.Event(run.Event{Type: run.CompactionStart, Compaction: &run.CompactionInfo{Reason: run.ReasonThreshold}})
	waitFor(t, "the compaction in the status message", func() bool {
		top := b.visible("")
		return len(top) == 1 && strings.HasSuffix(top[0], "_Compacting context…_")
	})
	p.Event(run.Event{Type: run.CompactionEnd, Compaction: &run.CompactionInfo{
		Reason: run.ReasonThreshold, TokensBefore: 185000, TokensAfter: 21500}})
	waitFor(t, "the compaction's outcome", func() bool {
		top := b.visible("")
		return len(top) == 1 && strings.HasSuffix(top[0], "_Compacting context…_\n_Compacted context: 185k → 22k tokens_")
	})
	p.Event(run.Event{Type: run.CompactionStart, Compaction: &run.CompactionInfo{Reason: run.ReasonOverflow}})
	p.Event(run.Event{Type: run.CompactionEnd, Compaction: &run.CompactionInfo{Reason: run.ReasonOverflow},
		ErrorMessage: "summarizing the conversation: anthropic API error 529: Overloaded"})
	waitFor(t, "the failed compaction", func() bool {
		top := b.visible("")
		return len(top) == 1 && strings.HasSuffix(top[0], "_✗ Compacting failed: summarizing the conversation: anthropic API error 529: Overloaded_")
	})
	p.Event(end(llm.StopEnd, ""))
	p.Close(context.Background())
}
