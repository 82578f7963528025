package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// CustomTools is the set of host-side custom tools that invoke_tool calls
// (internal/customtools keeps it). Tool folders come and go while mom runs, so it is asked on
// every call rather than copied once.
type CustomTools interface {
	// CustomTools returns the tools available now, sorted by name. Callers must not modify
	// the slice.
	CustomTools() []Tool
}

const invokeDescription = `Call a custom tool. Custom tools run on the host machine, outside your sandbox, and can reach what your commands cannot (mail, calendars, internal services, credentials you never see). The system prompt lists them under "Custom tools" with their arguments. The arguments are checked against the tool's schema before it runs.`

const invokeSchema = `{
	"type": "object",
	"properties": {
		` + labelProperty + `,
		"tool": {"type": "string", "description": "Name of the custom tool to call."},
		"args": {"type": "object", "description": "The tool's arguments, as the tool's own schema describes them."}
	},
	"required": ["label", "tool"],
	"additionalProperties": false
}`

// Invoke is the invoke_tool tool of the spec: one tool through which the model calls every
// custom tool, so that the tool list the model sees stays the same when custom tools change.
type Invoke struct {
	definition
	set CustomTools
}

// InvokeToolName is the name of the tool through which the model calls custom tools.
const InvokeToolName = "invoke_tool"

// NewInvoke returns invoke_tool calling the tools in set.
func NewInvoke(set CustomTools) *Invoke {
	return &Invoke{definition: mustDefine(InvokeToolName, invokeDescription, invokeSchema), set: set}
}

type invokeArgs struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

// invokeDetails is invoke_tool's Result.Details: which tool ran, and the details it returned.
type invokeDetails struct {
	Tool    string `json:"tool"`
	Details any    `json:"details,omitempty"`
}

// Run finds the tool, validates the arguments against its schema, and runs it. Nothing runs
// when the tool is unknown or the arguments are wrong; the error says which argument.
func (i *Invoke) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var args invokeArgs
	if err := decodeArgs(raw, &args); err != nil {
		return Result{}, err
	}
	available := i.set.CustomTools()
	tool := FindTool(available, args.Tool)
	if tool == nil {
		return Result{}, fmt.Errorf("there is no custom tool named %q; %s", args.Tool, listNames(available))
	}
	if err := Validate(tool, args.Args); err != nil {
		return Result{}, fmt.Errorf("invalid arguments for %s: %w", args.Tool, err)
	}
	res, err := tool.Run(ctx, env, normalArgs(args.Args))
	if res.Details != nil || err == nil {
		res.Details = invokeDetails{Tool: args.Tool, Details: res.Details}
	}
	return res, err
}

// FindTool returns the tool named name in list, or nil.
func FindTool(list []Tool, name string) Tool {
	for _, t := range list {
		if t.Def().Name == name {
			return t
		}
	}
	return nil
}

// normalArgs gives a tool the empty object when the model sent no arguments at all.
func normalArgs(raw json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage("{}")
	}
	return raw
}

// listNames tells the model which custom tools there are.
func listNames(list []Tool) string {
	if len(list) == 0 {
		return "no custom tools are installed"
	}
	names := make([]string, len(list))
	for k, t := range list {
		names[k] = t.Def().Name
	}
	return "the custom tools are: " + strings.Join(names, ", ")
}
