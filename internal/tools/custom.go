package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mom-agent/mom/internal/llm"
)

// CustomFunc runs one call of a custom tool with arguments already validated against its
// schema. Like Tool.Run, a returned error becomes an error result the model reads.
type CustomFunc func(ctx context.Context, env *Env, args json.RawMessage) (Result, error)

// custom is a tool defined outside mom's code: a host-side custom tool (internal/customtools).
type custom struct {
	definition
	run CustomFunc
}

// NewCustom returns a tool with def's name, description and parameter schema whose calls run
// fn. The schema is resolved once, here, so that a broken one is reported when the tool is
// loaded (the error says why) and each call is validated without resolving it again. Text the
// tool returns is cut to the limits bash and read keep to (2000 lines or 50KB), since a tool
// written by someone else must not be able to fill the model's context in one call.
func NewCustom(def llm.Tool, fn CustomFunc) (Tool, error) {
	params := def.Parameters
	if len(bytes.TrimSpace(params)) == 0 {
		params = json.RawMessage(`{"type":"object"}`)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, params); err != nil {
		return nil, fmt.Errorf("parameter schema is not valid JSON: %w", err)
	}
	v, err := newValidator(compact.Bytes())
	if err != nil {
		return nil, err
	}
	def.Parameters = compact.Bytes()
	return &custom{definition: resolved(def, v), run: fn}, nil
}

// Run runs the call and keeps its text within the output limits.
func (c *custom) Run(ctx context.Context, env *Env, args json.RawMessage) (Result, error) {
	res, err := c.run(ctx, env, args)
	for i, block := range res.Content {
		if block.Type == llm.TypeText {
			res.Content[i].Text = limitText(block.Text)
		}
	}
	if err != nil {
		// Keep the error itself (the agent tells an abort by it) unless it must be cut.
		if msg := err.Error(); limitText(msg) != msg {
			return res, errors.New(limitText(msg))
		}
	}
	return res, err
}

// limitText keeps the head of a long text, with a note saying how much was left out.
func limitText(s string) string {
	kept, t := truncateHead(s, maxOutputLines, maxOutputBytes)
	if !t.Truncated {
		return s
	}
	return kept + fmt.Sprintf("\n\n[Output cut: showing %d of %d lines (%s of %s).]",
		t.OutputLines, t.TotalLines, formatSize(t.OutputBytes), formatSize(t.TotalBytes))
}

// direct offers a custom tool to the model as a tool of its own ("customTools": "direct").
type direct struct {
	definition
	inner Tool
	// stripLabel says the label was added to the tool's schema here and must be taken out of
	// the arguments before the tool sees them.
	stripLabel bool
}

// Direct returns t as a first-class tool. Every tool call carries a "label" for people to see
// (the system prompt asks for it), so when t's object schema has no "label" of its own, an
// optional one is added to what the model sees and removed from the arguments t receives.
func Direct(t Tool) (Tool, error) {
	def := t.Def()
	var schema map[string]any
	if err := json.Unmarshal(def.Parameters, &schema); err != nil {
		return nil, fmt.Errorf("parameter schema of %s is not a JSON object: %w", def.Name, err)
	}
	props, _ := schema["properties"].(map[string]any)
	_, hasLabel := props["label"]
	strip := false
	if schema["type"] == "object" && !hasLabel {
		var label map[string]any
		if err := json.Unmarshal([]byte(`{`+labelProperty+`}`), &label); err != nil {
			return nil, err
		}
		if props == nil {
			props = map[string]any{}
		}
		props["label"] = label["label"]
		schema["properties"] = props
		params, err := json.Marshal(schema)
		if err != nil {
			return nil, err
		}
		def.Parameters = params
		strip = true
	}
	v, err := newValidator(def.Parameters)
	if err != nil {
		return nil, fmt.Errorf("parameter schema of %s: %w", def.Name, err)
	}
	return &direct{definition: resolved(def, v), inner: t, stripLabel: strip}, nil
}

// Run calls the tool without the label it does not know.
func (d *direct) Run(ctx context.Context, env *Env, args json.RawMessage) (Result, error) {
	if d.stripLabel {
		var obj map[string]json.RawMessage
		if json.Unmarshal(args, &obj) == nil && obj != nil {
			if _, ok := obj["label"]; ok {
				delete(obj, "label")
				if raw, err := json.Marshal(obj); err == nil {
					args = raw
				}
			}
		}
	}
	return d.inner.Run(ctx, env, args)
}
