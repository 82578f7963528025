package openai

import (
	"encoding/json"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/mom-agent/mom/internal/llm"
)

// buildParams converts a request into Chat Completions parameters.
//
// Usage is always asked for (stream_options.include_usage), or a streamed answer has none.
// A token cap is sent only when the request sets one: as max_completion_tokens to a model the
// catalog knows (OpenAI's reasoning models reject max_tokens) and as max_tokens to any other,
// which older compatible servers understand. reasoning_effort is sent when thinking is on and
// the model reasons or is unknown; servers that do not know it ignore it.
func buildParams(req *llm.Request) sdk.ChatCompletionNewParams {
	p := sdk.ChatCompletionNewParams{
		Model:         req.Model.ID,
		Messages:      convertMessages(req.System, llm.Prepare(req.Messages)),
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema(t.Parameters)}
		if t.Description != "" {
			fn.Description = sdk.String(t.Description)
		}
		p.Tools = append(p.Tools, sdk.ChatCompletionToolUnionParam{OfFunction: &sdk.ChatCompletionFunctionToolParam{Function: fn}})
	}
	if n := int64(req.MaxTokens); n > 0 {
		if req.Model.Known {
			p.MaxCompletionTokens = sdk.Int(n)
		} else {
			p.MaxTokens = sdk.Int(n)
		}
	}
	if req.Thinking != "" && req.Thinking != llm.ThinkingOff && (req.Model.Reasoning || !req.Model.Known) {
		p.ReasoningEffort = effort(req.Thinking)
	}
	return p
}

func effort(level llm.ThinkingLevel) shared.ReasoningEffort {
	switch level {
	case llm.ThinkingLow:
		return shared.ReasoningEffortLow
	case llm.ThinkingHigh:
		return shared.ReasoningEffortHigh
	}
	return shared.ReasoningEffortMedium
}

func schema(raw json.RawMessage) shared.FunctionParameters {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return shared.FunctionParameters{"type": "object", "properties": map[string]any{}}
	}
	return m
}

// convertMessages turns the system prompt and mom's messages into chat messages. Reasoning
// is not sent back: Chat Completions has no field for it, and servers that emit it
// (DeepSeek) reject it on input.
func convertMessages(system string, msgs []llm.Message) []sdk.ChatCompletionMessageParamUnion {
	var out []sdk.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, sdk.SystemMessage(system))
	}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			if u, ok := userMessage(m.Content); ok {
				out = append(out, u)
			}
		case llm.RoleAssistant:
			if a, ok := assistantMessage(m.Content); ok {
				out = append(out, a)
			}
		case llm.RoleToolResult:
			out = append(out, sdk.ToolMessage(toolResultText(m.Content), m.ToolCallID))
		}
	}
	return out
}

// userMessage sends plain text as a string, which every compatible server understands, and
// switches to content parts only when there are images.
func userMessage(content []llm.Content) (sdk.ChatCompletionMessageParamUnion, bool) {
	var texts []string
	var parts []sdk.ChatCompletionContentPartUnionParam
	images := false
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				texts = append(texts, c.Text)
				parts = append(parts, sdk.TextContentPart(c.Text))
			}
		case llm.TypeImage:
			images = true
			parts = append(parts, sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{
				URL: "data:" + c.MimeType + ";base64," + c.Data,
			}))
		}
	}
	switch {
	case images:
		return sdk.UserMessage(parts), true
	case len(texts) > 0:
		return sdk.UserMessage(strings.Join(texts, "\n\n")), true
	}
	return sdk.ChatCompletionMessageParamUnion{}, false
}

func assistantMessage(content []llm.Content) (sdk.ChatCompletionMessageParamUnion, bool) {
	var texts []string
	a := sdk.ChatCompletionAssistantMessageParam{}
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				texts = append(texts, c.Text)
			}
		case llm.TypeToolCall:
			args := string(c.Arguments)
			if !json.Valid(c.Arguments) {
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID: c.ID, Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
				},
			})
		}
	}
	if len(texts) == 0 && len(a.ToolCalls) == 0 {
		return sdk.ChatCompletionMessageParamUnion{}, false
	}
	if len(texts) > 0 {
		a.Content.OfString = sdk.String(strings.Join(texts, "\n\n"))
	}
	return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}, true
}

// toolResultText flattens a tool result to text: Chat Completions takes no images in tool
// messages, so each image is named instead of sent.
func toolResultText(content []llm.Content) string {
	var parts []string
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		case llm.TypeImage:
			parts = append(parts, "(image omitted: "+c.MimeType+")")
		}
	}
	return strings.Join(parts, "\n")
}
