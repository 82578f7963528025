package compact

import (
	"fmt"

	"github.com/mom-agent/mom/internal/llm"
)

// PruneType names the custom context.jsonl entries that record a pruning. pi ignores custom
// entries, so pi's tools still see every tool result in full.
const PruneType = "mom.prune"

// PruneMark says which tool results the context shows only as a placeholder: every one up to
// and including the result of the call Through, except the protected tools' (read). It is a
// view: the results stay in context.jsonl untouched. A later mark supersedes an earlier one.
type PruneMark struct {
	// Through is the tool call id of the newest pruned result.
	Through string `json:"throughToolCallId"`
	// SavedTokens is the estimate of what the mark took out of the context.
	SavedTokens int `json:"savedTokens"`
}

// Pi's pruning policy: protect the newest 40,000 tokens of tool output and prune only when
// that saves at least 20,000. For small windows both shrink with the window (a quarter and an
// eighth of it), or a 32k model would never prune.
const (
	pruneProtect = 40000
	pruneMinimum = 20000
)

// protectedTools are never pruned: what the model read is often what it is working on.
var protectedTools = map[string]bool{"read": true}

// PlanPrune looks for old tool results worth pruning in msgs (the context as the model sees
// it now, earlier prunings applied) and returns the mark that prunes them, or false when the
// savings would be too small to be worth changing what the model sees (and its prompt cache).
func PlanPrune(msgs []llm.Message, window int) (PruneMark, bool) {
	protect, minimum := pruneProtect, pruneMinimum
	if window > 0 {
		protect, minimum = min(protect, window/4), min(minimum, window/8)
	}
	seen, saved := 0, 0
	var mark PruneMark
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != llm.RoleToolResult || protectedTools[m.ToolName] {
			continue
		}
		t := EstimateTokens(m)
		if seen < protect {
			seen += t
			continue
		}
		if gain := t - EstimateTokens(placeholder(t, m)); gain > 0 {
			if mark.Through == "" {
				mark.Through = m.ToolCallID
			}
			saved += gain
		}
	}
	mark.SavedTokens = saved
	return mark, mark.Through != "" && saved >= minimum
}

// ApplyPrune returns msgs as the mark shows them: the prunable tool results up to the one
// that answers mark.Through replaced by "[Output truncated - N tokens]". msgs itself is not
// modified. A mark whose result is no longer in the context (compacted away) prunes nothing,
// since every result still there is newer.
func ApplyPrune(msgs []llm.Message, mark PruneMark) []llm.Message {
	if mark.Through == "" {
		return msgs
	}
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleToolResult && msgs[i].ToolCallID == mark.Through {
			last = i
			break
		}
	}
	if last < 0 {
		return msgs
	}
	out := make([]llm.Message, len(msgs))
	copy(out, msgs)
	for i := 0; i <= last; i++ {
		m := out[i]
		if m.Role != llm.RoleToolResult || protectedTools[m.ToolName] {
			continue
		}
		if t := EstimateTokens(m); t > EstimateTokens(placeholder(t, m)) {
			out[i] = placeholder(t, m)
		}
	}
	return out
}

// placeholder is m with its output replaced by pi's pruning note.
func placeholder(tokens int, m llm.Message) llm.Message {
	m.Content = []llm.Content{llm.Text(fmt.Sprintf("[Output truncated - %d tokens]", tokens))}
	m.Details = nil
	return m
}
