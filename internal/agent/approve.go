package agent

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/tools"
)

// Approver decides whether a tool call may run (the README's "Approvals"). The hub gives one
// to each run when the channel's calls need a yes; Approve returns nil when c may run, or
// the reason it may not (who denied it, or that nobody answered), which the model gets as
// the tool's result. It reports its question and the answer as run events through emit, so
// that whoever draws the run can show them. It returns when ctx ends, with ctx's error.
type Approver interface {
	Approve(ctx context.Context, c approval.Call, emit run.Sink) error
}

// approvalCall describes call for approvals: what kind of tool it is, the command or the file
// it is about, and whether that file is outside the channel's directory.
func (a *Agent) approvalCall(req Request, env tools.Env, builtin map[string]bool, call llm.Content) approval.Call {
	c := approval.Call{Tool: call.Name, Args: call.Arguments, Label: labelOf(call)}
	var args struct {
		Command string `json:"command"`
		Path    string `json:"path"`
		Tool    string `json:"tool"`
	}
	_ = json.Unmarshal(call.Arguments, &args) // Validate has checked them already
	switch {
	case call.Name == tools.InvokeToolName:
		c.Custom, c.CustomName = true, args.Tool
	case !builtin[call.Name]:
		c.Custom, c.CustomName = true, call.Name
	case call.Name == "bash":
		c.Command = args.Command
	case call.Name == "write" || call.Name == "edit":
		c.Path = args.Path
		own := env.Exec.SandboxPath(req.ChannelDir.Dir())
		c.OutsideChannel = !within(resolve(env.Cwd, args.Path), own)
	}
	return c
}

// resolve turns a path the model gave into an absolute, clean one, as the file tools do.
func resolve(cwd, p string) string {
	if !path.IsAbs(p) {
		p = path.Join(cwd, p)
	}
	return path.Clean(p)
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	dir = path.Clean(dir)
	return p == dir || strings.HasPrefix(p, dir+"/")
}
