package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/mom-agent/mom/internal/llm"
)

// buildParams converts a request into Messages API parameters. Prompt caching uses three of
// the four breakpoints the API allows: the system prompt, the last tool (which caches every
// tool definition) and the last block of the last user message (which caches the whole
// conversation so far, so the next turn reads it back at a tenth of the price).
func buildParams(req *llm.Request) sdk.MessageNewParams {
	p := sdk.MessageNewParams{Model: req.Model.ID, Messages: convertMessages(llm.Prepare(req.Messages))}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	p.Tools = convertTools(req.Tools)
	applyThinking(&p, req)
	return p
}

// turn is a message being built; consecutive messages of one role merge into one turn,
// because the API wants user and assistant to alternate.
type turn struct {
	user   bool
	blocks []sdk.ContentBlockParamUnion
}

// convertMessages turns mom's messages into alternating user and assistant turns. Tool
// results become tool_result blocks of a user turn, merged with the results next to them and
// with a user message that follows, tool results first as the API requires. Empty text
// blocks are left out (the API rejects them) and so are turns left with nothing in them.
func convertMessages(msgs []llm.Message) []sdk.MessageParam {
	var turns []turn
	add := func(user bool, blocks []sdk.ContentBlockParamUnion) {
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
			add(true, []sdk.ContentBlockParamUnion{toolResult(m)})
		case llm.RoleAssistant:
			add(false, assistantBlocks(m.Content))
		}
	}
	out := make([]sdk.MessageParam, 0, len(turns))
	for i, t := range turns {
		if !t.user {
			out = append(out, sdk.NewAssistantMessage(t.blocks...))
			continue
		}
		blocks := toolResultsFirst(t.blocks)
		if i == lastUser(turns) {
			*blocks[len(blocks)-1].GetCacheControl() = sdk.NewCacheControlEphemeralParam()
		}
		out = append(out, sdk.NewUserMessage(blocks...))
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
func toolResultsFirst(blocks []sdk.ContentBlockParamUnion) []sdk.ContentBlockParamUnion {
	out := make([]sdk.ContentBlockParamUnion, 0, len(blocks))
	for _, b := range blocks {
		if b.OfToolResult != nil {
			out = append(out, b)
		}
	}
	for _, b := range blocks {
		if b.OfToolResult == nil {
			out = append(out, b)
		}
	}
	return out
}

func userBlocks(content []llm.Content) []sdk.ContentBlockParamUnion {
	var out []sdk.ContentBlockParamUnion
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				out = append(out, sdk.NewTextBlock(c.Text))
			}
		case llm.TypeImage:
			out = append(out, sdk.NewImageBlockBase64(c.MimeType, c.Data))
		}
	}
	return out
}

func toolResult(m llm.Message) sdk.ContentBlockParamUnion {
	b := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.IsError {
		b.IsError = param.NewOpt(true)
	}
	for _, c := range m.Content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				b.Content = append(b.Content, sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: c.Text}})
			}
		case llm.TypeImage:
			img := sdk.NewImageBlockBase64(c.MimeType, c.Data).OfImage
			b.Content = append(b.Content, sdk.ToolResultBlockParamContentUnion{OfImage: img})
		}
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &b}
}

// assistantBlocks converts an earlier answer. Thinking goes back with its signature so the
// model can continue its reasoning; thinking without a signature (from another provider, or
// cut off before the signature arrived) cannot be verified by the API and is dropped.
func assistantBlocks(content []llm.Content) []sdk.ContentBlockParamUnion {
	var out []sdk.ContentBlockParamUnion
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				out = append(out, sdk.NewTextBlock(c.Text))
			}
		case llm.TypeThinking:
			switch {
			case c.Signature == "":
			case c.Redacted:
				out = append(out, sdk.NewRedactedThinkingBlock(c.Signature))
			default:
				out = append(out, sdk.NewThinkingBlock(c.Signature, c.Thinking))
			}
		case llm.TypeToolCall:
			out = append(out, sdk.NewToolUseBlock(c.ID, argsObject(c.Arguments), c.Name))
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
func convertTools(tools []llm.Tool) []sdk.ToolUnionParam {
	out := make([]sdk.ToolUnionParam, 0, len(tools))
	for _, t := range tools {
		tp := sdk.ToolParam{Name: t.Name, InputSchema: inputSchema(t.Parameters)}
		if t.Description != "" {
			tp.Description = param.NewOpt(t.Description)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: &tp})
	}
	if n := len(out); n > 0 {
		out[n-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
	return out
}

// inputSchema carries a JSON Schema over into the SDK's schema type: properties and required
// have fields of their own, every other keyword rides along as an extra field.
func inputSchema(raw json.RawMessage) sdk.ToolInputSchemaParam {
	var s sdk.ToolInputSchemaParam
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return s
	}
	extra := map[string]any{}
	for k, v := range m {
		switch k {
		case "type":
		case "properties":
			s.Properties = v
		case "required":
			if list, ok := v.([]any); ok {
				for _, r := range list {
					if name, ok := r.(string); ok {
						s.Required = append(s.Required, name)
					}
				}
			}
		default:
			extra[k] = v
		}
	}
	if len(extra) > 0 {
		s.ExtraFields = extra
	}
	return s
}
