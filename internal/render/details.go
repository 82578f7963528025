package render

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// The markdown a Progress writes: tool details, the final text and its notes.

// finalText is what replaces the status message when the run ends, and, when the run went
// wrong, the detail for the thread.
func finalText(answer string, usedTool bool, end run.Event) (md, problem string) {
	switch end.StopReason {
	case llm.StopError:
		msg := strings.TrimSpace(end.ErrorMessage)
		if msg == "" {
			msg = "the run failed without saying why"
		}
		note := "_Sorry, something went wrong: " + oneLine(msg, 200) + "_"
		return joinBlocks(answer, note), "*Error:*\n" + codeBlock(msg, 3000)
	case llm.StopAborted:
		return joinBlocks(answer, "_Stopped._"), ""
	case llm.StopLength:
		return joinBlocks(answer, "_(The answer was cut off at the model's output limit.)_"), ""
	}
	if answer == "" {
		if usedTool {
			return "_Done._", ""
		}
		return "_(no answer)_", ""
	}
	return answer, ""
}

// toolDetail describes a finished tool call for the thread: ✓ or ✗, name, label and
// duration, the arguments, and the result, cut to fit one message.
func toolDetail(ev run.Event, maxText int) string {
	mark := "✓"
	if ev.IsError {
		mark = "✗"
	}
	budget := max(maxText/3, 200)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s %s**", mark, ev.ToolName)
	if ev.Label != "" && ev.Label != ev.ToolName {
		b.WriteString(": " + oneLine(ev.Label, 200))
	}
	if ev.Duration > 0 {
		b.WriteString(" (" + duration(ev.Duration) + ")")
	}
	if args := formatArgs(ev.ToolName, ev.Args); args != "" {
		b.WriteString("\n" + codeBlock(args, budget))
	}
	if out := strings.TrimSpace(ev.Output); out != "" {
		b.WriteString("\n**Result:**\n" + codeBlock(out, budget))
	}
	return b.String()
}

// formatArgs shows a tool call's arguments without the label, which the heading already
// shows: bash's command as it is, read's path with the lines asked for, anything else as
// key: value lines.
func formatArgs(tool string, raw json.RawMessage) string {
	var args map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &args) != nil {
		return strings.TrimSpace(string(raw))
	}
	delete(args, "label")
	if cmd, ok := args["command"].(string); ok && tool == "bash" && len(args) <= 2 {
		if t, ok := args["timeout"]; ok {
			return cmd + "\n(timeout " + fmt.Sprint(t) + "s)"
		}
		return cmd
	}
	if path, ok := args["path"].(string); ok && tool == "read" {
		off, hasOff := args["offset"].(float64)
		lim, hasLim := args["limit"].(float64)
		switch {
		case hasOff && hasLim:
			return fmt.Sprintf("%s:%d-%d", path, int(off), int(off+lim-1))
		case hasOff:
			return fmt.Sprintf("%s:%d-", path, int(off))
		case hasLim:
			return fmt.Sprintf("%s:1-%d", path, int(lim))
		}
		return path
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v, ok := args[k].(string)
		if !ok {
			j, _ := json.Marshal(args[k])
			v = string(j)
		}
		if strings.Contains(v, "\n") {
			fmt.Fprintf(&b, "%s:\n%s\n", k, v)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// codeBlock fences s, cut to at most max characters, with a fence longer than any run of
// backticks inside so the block cannot be closed early.
func codeBlock(s string, max int) string {
	s = cut(s, max)
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + "\n" + s + "\n" + fence
}

// cut shortens s to at most max characters, saying how much was left out.
func cut(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	rest := len(r) - max
	return string(r[:max]) + "\n… (" + strconv.Itoa(rest) + " more characters)"
}

// oneLine returns the first non-empty line of s, cut to max characters.
func oneLine(s string, max int) string {
	s = strings.TrimSpace(s)
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// thinkingOf joins the reasoning blocks of m.
func thinkingOf(m *llm.Message) string {
	var parts []string
	for _, c := range m.Content {
		if c.Type == llm.TypeThinking && strings.TrimSpace(c.Thinking) != "" {
			parts = append(parts, strings.TrimSpace(c.Thinking))
		}
	}
	return strings.Join(parts, "\n\n")
}

// quote turns md into a block quote.
func quote(md string) string {
	return "> " + strings.ReplaceAll(md, "\n", "\n> ")
}

// joinBlocks joins the non-empty blocks with a blank line.
func joinBlocks(blocks ...string) string {
	var out []string
	for _, b := range blocks {
		if b = strings.TrimSpace(b); b != "" {
			out = append(out, b)
		}
	}
	return strings.Join(out, "\n\n")
}

// duration formats a tool's run time briefly: 350ms, 1.2s, 2m05s.
func duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	default:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// digestLine describes a finished tool call in one line, for the digest of a platform of
// quotes (chat.Quotes): ✓ or ✗, name, label and duration, without arguments or output.
func digestLine(ev run.Event) string {
	mark := "✓"
	if ev.IsError {
		mark = "✗"
	}
	line := mark + " " + ev.ToolName
	if ev.Label != "" && ev.Label != ev.ToolName {
		line += ": " + oneLine(ev.Label, 200)
	}
	if ev.Duration > 0 {
		line += " (" + duration(ev.Duration) + ")"
	}
	return "_" + line + "_"
}
