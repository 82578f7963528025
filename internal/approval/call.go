package approval

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Call is a tool call as approvals see it. The agent fills it in, since only the agent knows
// which tools are custom and where the channel's directory is for the sandbox.
type Call struct {
	// Tool is the tool's name ("bash", "write", "edit", a custom tool's name, "invoke_tool").
	Tool string
	// Args are the call's arguments as the model sent them.
	Args json.RawMessage
	// Custom says the tool is a custom tool (tool.json, mcp.json), called directly or through
	// invoke_tool; CustomName is the custom tool's own name.
	Custom     bool
	CustomName string
	// Command is the shell command of a bash call.
	Command string
	// Path is the file a write or edit changes, as the model named it, and OutsideChannel
	// says it is not inside the channel's own directory.
	Path           string
	OutsideChannel bool
	// Label is what the model said the call is for.
	Label string
}

// Needs reports whether c needs a yes when calls are asked about at all: commands unless
// every command in them is on allow, custom tool calls, and writes or edits outside the
// channel's directory. Reading, attaching files and the like never need one.
func Needs(c Call, allow []string) bool {
	switch {
	case c.Custom:
		return true
	case c.Tool == "bash":
		return !Allowed(c.Command, allow)
	case c.Tool == "write" || c.Tool == "edit":
		return c.OutsideChannel
	}
	return false
}

// Key is what an "allow always" for c remembers: the exact command of a bash call, the custom
// tool (whatever its arguments), or the tool and the file of a write or edit.
func (c Call) Key() string {
	switch {
	case c.Custom:
		return "tool " + c.CustomName
	case c.Tool == "bash":
		return "bash " + strings.TrimSpace(c.Command)
	default:
		return c.Tool + " " + c.Path
	}
}

// Subject says, in one line or a code block, what will run: the command, or the tool and its
// arguments. It is markdown.
func (c Call) Subject() string {
	switch {
	case c.Tool == "bash":
		return fence(strings.TrimSpace(c.Command))
	case c.Custom:
		return fmt.Sprintf("custom tool `%s` with\n%s", c.CustomName, fence(customArgs(c.Args)))
	default:
		return fmt.Sprintf("`%s` of `%s`", c.Tool, c.Path)
	}
}

// customArgs are the arguments of a custom tool call without the label, which is shown on its
// own, indented so people can read them.
func customArgs(raw json.RawMessage) string {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return string(raw)
	}
	delete(args, "label")
	if inner, ok := args["args"]; ok && len(args) <= 2 { // invoke_tool: {"tool", "args"}
		args = map[string]json.RawMessage{"args": inner}
	}
	out, err := json.MarshalIndent(args, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(out)
}

// fence puts text in a code block that its own backticks cannot close.
func fence(text string) string {
	ticks := "```"
	for strings.Contains(text, ticks) {
		ticks += "`"
	}
	return ticks + "\n" + text + "\n" + ticks
}
