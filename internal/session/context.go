package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// The texts pi wraps summaries in when it hands them to the model (coding-agent messages.ts).
// The branch suffix has no leading newline in pi; it is copied as is.
const (
	compactionPrefix = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
	compactionSuffix = "\n</summary>"
	branchPrefix     = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
	branchSuffix     = "</summary>"
)

// buildContext is pi's buildSessionContext followed by convertToLlm, over the entries of
// branch: with a compaction on the branch, the last one's summary comes first, then the
// entries from its firstKeptEntryId up to it, then every entry after it.
func buildContext(entries []Entry, branch []int) []llm.Message {
	last := -1
	for k := len(branch) - 1; k >= 0; k-- {
		if entries[branch[k]].Type == TypeCompaction {
			last = k
			break
		}
	}
	out := make([]llm.Message, 0, len(branch)+1)
	add := func(e *Entry) {
		if m, ok := toLLM(e); ok {
			out = append(out, m)
		}
	}
	if last < 0 {
		for _, i := range branch {
			add(&entries[i])
		}
		return out
	}
	c := &entries[branch[last]]
	out = append(out, userText(compactionPrefix+c.Summary+compactionSuffix, c.Time.UnixMilli()))
	kept := false
	for _, i := range branch[:last] {
		if entries[i].ID == c.FirstKeptID {
			kept = true
		}
		if kept {
			add(&entries[i])
		}
	}
	for _, i := range branch[last+1:] {
		add(&entries[i])
	}
	return out
}

// toLLM turns one entry into what the model sees, if anything.
func toLLM(e *Entry) (llm.Message, bool) {
	switch e.Type {
	case TypeMessage:
		if e.Message != nil {
			return *e.Message, true
		}
		return foreignMessage(e.Raw)
	case TypeBranchSummary:
		if e.Summary == "" {
			return llm.Message{}, false
		}
		return userText(branchPrefix+e.Summary+branchSuffix, e.Time.UnixMilli()), true
	case TypeCustomMessage:
		var l struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(e.Raw, &l) != nil {
			return llm.Message{}, false
		}
		content, ok := parseContent(l.Content)
		return llm.Message{Role: llm.RoleUser, Content: content, Timestamp: e.Time.UnixMilli()}, ok
	}
	return llm.Message{}, false
}

// foreignMessage converts the message roles pi stores besides user, assistant and toolResult,
// as convertToLlm does: bash runs the user made with "!" and extension messages become user
// messages; anything else is not for the model.
func foreignMessage(raw json.RawMessage) (llm.Message, bool) {
	var l struct {
		Message struct {
			Role               string          `json:"role"`
			Content            json.RawMessage `json:"content"`
			Summary            string          `json:"summary"`
			Command            string          `json:"command"`
			Output             string          `json:"output"`
			ExitCode           *int            `json:"exitCode"`
			Cancelled          bool            `json:"cancelled"`
			Truncated          bool            `json:"truncated"`
			FullOutputPath     string          `json:"fullOutputPath"`
			ExcludeFromContext bool            `json:"excludeFromContext"`
			Timestamp          int64           `json:"timestamp"`
		} `json:"message"`
	}
	if json.Unmarshal(raw, &l) != nil {
		return llm.Message{}, false
	}
	m := l.Message
	switch m.Role {
	case "bashExecution":
		if m.ExcludeFromContext {
			return llm.Message{}, false
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Ran `%s`\n", m.Command)
		if m.Output != "" {
			fmt.Fprintf(&b, "```\n%s\n```", m.Output)
		} else {
			b.WriteString("(no output)")
		}
		if m.Cancelled {
			b.WriteString("\n\n(command cancelled)")
		} else if m.ExitCode != nil && *m.ExitCode != 0 {
			fmt.Fprintf(&b, "\n\nCommand exited with code %d", *m.ExitCode)
		}
		if m.Truncated && m.FullOutputPath != "" {
			fmt.Fprintf(&b, "\n\n[Output truncated. Full output: %s]", m.FullOutputPath)
		}
		return userText(b.String(), m.Timestamp), true
	case "custom":
		content, ok := parseContent(m.Content)
		return llm.Message{Role: llm.RoleUser, Content: content, Timestamp: m.Timestamp}, ok
	case "branchSummary":
		return userText(branchPrefix+m.Summary+branchSuffix, m.Timestamp), true
	case "compactionSummary":
		return userText(compactionPrefix+m.Summary+compactionSuffix, m.Timestamp), true
	}
	return llm.Message{}, false
}

// parseContent reads pi's string | (Text|Image)[] content.
func parseContent(raw json.RawMessage) ([]llm.Content, bool) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		return []llm.Content{llm.Text(s)}, true
	}
	var c []llm.Content
	if json.Unmarshal(raw, &c) != nil {
		return nil, false
	}
	return c, true
}

func userText(text string, ms int64) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: []llm.Content{llm.Text(text)}, Timestamp: ms}
}
