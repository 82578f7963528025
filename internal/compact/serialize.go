package compact

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/llm"
)

// maxToolResultChars is how much of one tool result the summarizer reads (pi's
// TOOL_RESULT_MAX_CHARS): enough to know what came out, not the whole log.
const maxToolResultChars = 2000

// imagePlaceholder stands in for an image: the summarizer gets words, and images are never
// sent again.
const imagePlaceholder = "[image]"

// Serialize writes messages as the plain-text transcript the summarizer reads, pi's
// serializeConversation: "[User]: …", "[Assistant thinking]: …", "[Assistant]: …",
// "[Assistant tool calls]: name(key=value, …)" and "[Tool result]: …" paragraphs. Images
// become "[image]", and long tool results are cut to their first 2,000 characters.
func Serialize(msgs []llm.Message) string {
	var b strings.Builder
	para := func(label, text string) {
		if text == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(label)
		b.WriteString(text)
	}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			para("[User]: ", joinBlocks(m.Content))
		case llm.RoleAssistant:
			var text, thinking, calls []string
			for _, c := range m.Content {
				switch c.Type {
				case llm.TypeText:
					text = append(text, c.Text)
				case llm.TypeThinking:
					thinking = append(thinking, c.Thinking)
				case llm.TypeToolCall:
					calls = append(calls, c.Name+"("+callArgs(c.Arguments)+")")
				}
			}
			para("[Assistant thinking]: ", strings.Join(thinking, "\n"))
			para("[Assistant]: ", strings.Join(text, "\n"))
			para("[Assistant tool calls]: ", strings.Join(calls, "; "))
		case llm.RoleToolResult:
			para("[Tool result]: ", truncate(joinBlocks(m.Content), maxToolResultChars))
		}
	}
	return b.String()
}

// joinBlocks joins the text of content, with a placeholder line for each image.
func joinBlocks(content []llm.Content) string {
	var b strings.Builder
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			b.WriteString(c.Text)
		case llm.TypeImage:
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(imagePlaceholder)
		}
	}
	return b.String()
}

// callArgs writes a tool call's arguments as key=JSON pairs in their order in the call.
func callArgs(raw json.RawMessage) string {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return string(raw)
	}
	var pairs []string
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return string(raw)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return string(raw)
		}
		pairs = append(pairs, fmt.Sprintf("%v=%s", key, v))
	}
	return strings.Join(pairs, ", ")
}

// truncate cuts s to max characters, saying how much was left out.
func truncate(s string, max int) string {
	if len(s) <= max { // bytes: never fewer than characters
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + fmt.Sprintf("\n\n[... %d more characters truncated]", len(r)-max)
}

// fit keeps the newest part of a transcript when all of it would not fit the summarizer's
// window: max characters, cut at a paragraph, with a note of what was left out. max <= 0
// means no limit.
func fit(text string, max int) string {
	if max <= 0 || len(text) <= max {
		return text
	}
	cut := len(text) - max
	if i := strings.Index(text[cut:], "\n\n"); i >= 0 {
		cut += i + 2
	}
	for cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut++
	}
	return fmt.Sprintf("[... %d earlier characters of the conversation were left out to fit the model's context window]\n\n", cut) + text[cut:]
}
