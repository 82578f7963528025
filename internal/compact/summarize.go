package compact

import (
	"context"
	"fmt"
	"strings"
)

// Model writes summaries. The caller decides which model answers and how failures are
// retried; mom uses the conversation's own model and retry policy.
type Model interface {
	// Summarize sends one request, the system prompt and a user message holding prompt, for
	// an answer of at most maxTokens tokens, and returns the answer's text.
	Summarize(ctx context.Context, system, prompt string, maxTokens int) (string, error)
}

// Result is a finished compaction, ready for session.AppendCompaction.
type Result struct {
	// Summary replaces the summarized messages at the head of the context. It ends with the
	// files read and modified so far, in <read-files> and <modified-files> sections.
	Summary string
	// Details are the same file lists, stored with the entry for the next compaction.
	Details Details
}

// promptOverhead is the room left in the summary request for the prompt around the
// conversation, in tokens.
const promptOverhead = 2000

// Summarize has m write the summary for p, as pi's compact does: one request for the history
// (the update prompt when there is a previous summary), and for a split turn a second for
// the turn's beginning, the two joined under a "Turn Context (split turn)" heading.
func Summarize(ctx context.Context, m Model, p *Plan, s Settings) (Result, error) {
	maxTokens := s.summaryMaxTokens()
	var summary string
	switch {
	case len(p.History) > 0:
		text, err := ask(ctx, m, p, historyPrompt(p, maxTokens), maxTokens)
		if err != nil {
			return Result{}, err
		}
		summary = text
	case p.PreviousSummary != "":
		summary = p.PreviousSummary // a split turn with nothing new before it
	default:
		summary = noHistory
	}
	if len(p.TurnPrefix) > 0 {
		prompt := "<conversation>\n" + fit(Serialize(p.TurnPrefix), budget(p, maxTokens)) + "\n</conversation>\n\n" + turnPrefixPrompt
		text, err := ask(ctx, m, p, prompt, maxTokens/2)
		if err != nil {
			return Result{}, err
		}
		summary += splitTurnHeading + text
	}
	d := p.files.details()
	return Result{Summary: stripFileLists(summary) + d.format(), Details: d}, nil
}

// historyPrompt is the request for the history summary: the conversation, the previous
// summary if any, and the instructions.
func historyPrompt(p *Plan, maxTokens int) string {
	var b strings.Builder
	b.WriteString("<conversation>\n")
	room := budget(p, maxTokens)
	if room > 0 {
		room = max(4000, room-len(p.PreviousSummary))
	}
	b.WriteString(fit(Serialize(p.History), room))
	b.WriteString("\n</conversation>\n\n")
	if p.PreviousSummary != "" {
		b.WriteString("<previous-summary>\n")
		b.WriteString(p.PreviousSummary)
		b.WriteString("\n</previous-summary>\n\n")
		b.WriteString(updatePrompt)
	} else {
		b.WriteString(summaryPrompt)
	}
	if p.Focus != "" {
		b.WriteString("\n\nAdditional focus: " + p.Focus)
	}
	return b.String()
}

// budget is how many characters of transcript fit the summary request, 0 for no limit.
func budget(p *Plan, maxTokens int) int {
	if p.Window <= 0 {
		return 0
	}
	return max(4000, (p.Window-maxTokens-promptOverhead)*4)
}

func ask(ctx context.Context, m Model, p *Plan, prompt string, maxTokens int) (string, error) {
	text, err := m.Summarize(ctx, systemPrompt, prompt, maxTokens)
	if err != nil {
		return "", fmt.Errorf("summarizing the conversation: %w", err)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "", fmt.Errorf("summarizing the conversation: the model answered with an empty summary")
	}
	return text, nil
}

// stripFileLists removes the file sections a model may have copied from the previous summary,
// so the summary ends with exactly one current set.
func stripFileLists(s string) string {
	for _, tag := range []string{"read-files", "modified-files"} {
		for {
			i := strings.Index(s, "<"+tag+">")
			if i < 0 {
				break
			}
			j := strings.Index(s[i:], "</"+tag+">")
			if j < 0 {
				break
			}
			s = s[:i] + s[i+j+len(tag)+3:]
		}
	}
	return strings.TrimSpace(s)
}
