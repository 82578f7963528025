package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// buildParams converts a request into Messages API parameters. Prompt caching uses three of
// the four breakpoints the API allows: the system prompt, the last tool (which caches every
// tool definition) and the last block of the last user message (which caches the whole
// conversation so far, so the next turn reads it back at a tenth of the price).
func buildParams(req *llm.Request) messagesRequest {
	p := messagesRequest{Model: req.Model.ID, Messages: convertMessages(llm.Prepare(req.Messages)), Stream: true}
	if req.System != "" {
		p.System = []block{{Type: "text", Text: req.System, CacheControl: ephemeral()}}
	}
	p.Tools = convertTools(req.Tools)
	applyThinking(&p, req)
	return p
}

// turn is a message being built; consecutive messages of one role merge into one turn,
// because the API wants user and assistant to alternate.
type turn struct {
	user   bool
	blocks []block
}

// convertMessages turns mom's messages into alternating user and assistant turns. Tool
// results become tool_result blocks of a user turn, merged with the results next to them and
// with a user message that follows, tool results first as the API requires. Empty text
// blocks are left out (the API rejects them) and so are turns left with nothing in them.
func convertMessages(msgs []llm.Message) []message {
	var turns []turn
	add := func(user bool, blocks []block) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].user == user {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			return
		}
		turns = append(turns, turn{user: user, blocks: blocks})
	}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			add(true, userBlocks(m.Content))
		case llm.RoleToolResult:
			add(true, []block{toolResult(m)})
		case llm.RoleAssistant:
			add(false, assistantBlocks(m.Content))
		}
	}
	out := make([]message, 0, len(turns))
	for i, t := range turns {
		if !t.user {
			out = append(out, message{Role: "assistant", Content: t.blocks})
			continue
		}
		blocks := toolResultsFirst(t.blocks)
		if i == lastUser(turns) {
			blocks[len(blocks)-1].CacheControl = ephemeral()
		}
		out = append(out, message{Role: "user", Content: blocks})
	}
	return out
}

func lastUser(turns []turn) int {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].user {
			return i
		}
	}
	return -1
}

// toolResultsFirst moves tool_result blocks ahead of the rest, keeping each group's order.
func toolResultsFirst(blocks []block) []block {
	out := make([]block, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "tool_result" {
			out = append(out, b)
		}
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			out = append(out, b)
		}
	}
	return out
}

func userBlocks(content []llm.Content) []block {
	var out []block
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				out = append(out, block{Type: "text", Text: c.Text})
			}
		case llm.TypeImage:
			out = append(out, imageBlock(c))
		}
	}
	return out
}

func imageBlock(c llm.Content) block {
	return block{Type: "image", Source: &imageSource{Type: "base64", MediaType: c.MimeType, Data: c.Data}}
}

func toolResult(m llm.Message) block {
	b := block{Type: "tool_result", ToolUseID: m.ToolCallID, IsError: m.IsError}
	for _, c := range m.Content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				b.Content = append(b.Content, block{Type: "text", Text: c.Text})
			}
		case llm.TypeImage:
			b.Content = append(b.Content, imageBlock(c))
		}
	}
	return b
}

// assistantBlocks converts an earlier answer. Thinking goes back with its signature so the
// model can continue its reasoning; thinking without a signature (from another provider, or
// cut off before the signature arrived) cannot be verified by the API and is dropped.
func assistantBlocks(content []llm.Content) []block {
	var out []block
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				out = append(out, block{Type: "text", Text: c.Text})
			}
		case llm.TypeThinking:
			switch {
			case c.Signature == "":
			case c.Redacted:
				out = append(out, block{Type: "redacted_thinking", Data: c.Signature})
			default:
				out = append(out, block{Type: "thinking", Thinking: &c.Thinking, Signature: c.Signature})
			}
		case llm.TypeToolCall:
			out = append(out, block{Type: "tool_use", ID: c.ID, Name: c.Name, Input: argsObject(c.Arguments)})
		}
	}
	return out
}

// argsObject returns a tool call's arguments as a JSON object, {} when they are not one: the
// API rejects any other input, and the tool already reported the bad arguments.
func argsObject(args json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(args)
	if len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return t
	}
	return json.RawMessage("{}")
}

// convertTools declares the tools; the last one carries a cache breakpoint, which caches the
// whole list.
func convertTools(tools []llm.Tool) []tool {
	out := make([]tool, 0, len(tools))
	for _, t := range tools {
		out = append(out, tool{Name: t.Name, Description: t.Description, InputSchema: inputSchema(t.Parameters)})
	}
	if n := len(out); n > 0 {
		out[n-1].CacheControl = ephemeral()
	}
	return out
}

// inputSchema returns a tool's JSON Schema as the API takes it: an object schema. Every
// keyword rides along; "type" is always "object", and a schema that is not a JSON object
// becomes one without properties.
func inputSchema(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	m["type"] = json.RawMessage(`"object"`)
	out, err := json.Marshal(m)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return out
}
