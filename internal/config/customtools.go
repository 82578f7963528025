package config

import (
	"time"

	"github.com/tailscale/hujson"
)

// CustomTools says how the model reaches the host-side custom tools: the tool folders in
// <data>/tools/ and ~/.config/mom/tools/ (README "Custom tools"). In config.json it is either
// a mode, "customTools": "direct", or an object, "customTools": {"mode": "invoke",
// "timeoutSeconds": 120}.
type CustomTools struct {
	// Mode is CustomToolsInvoke (the model has one invoke_tool tool that calls them, as the
	// spec has it) or CustomToolsDirect (each custom tool is a tool of its own).
	Mode string
	// Timeout is how long one call may run when the tool's folder sets no timeout of its own.
	Timeout time.Duration
}

// The modes of CustomTools.
const (
	CustomToolsInvoke = "invoke"
	CustomToolsDirect = "direct"
)

// DefaultToolTimeout is how long a custom tool call may run unless configured otherwise.
const DefaultToolTimeout = 60 * time.Second

var (
	customToolsKeys  = []string{"mode", "timeoutSeconds"}
	customToolsModes = []string{CustomToolsInvoke, CustomToolsDirect}
)

// defaultCustomTools is the setting when config.json says nothing.
func defaultCustomTools() CustomTools {
	return CustomTools{Mode: CustomToolsInvoke, Timeout: DefaultToolTimeout}
}

// customTools decodes "customTools": a mode string or an object.
func (d *decoder) customTools(v *hujson.Value, c *CustomTools) {
	const path = "customTools"
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == '"' {
		if s, ok := d.str(v, path); ok {
			d.customToolsMode(s, path, c)
		}
		return
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		d.fail(path, "expected \"invoke\", \"direct\" or an object like {\"mode\": \"invoke\", \"timeoutSeconds\": 60}, got %s", kindName(v))
		return
	}
	o, ok := d.object(v, path)
	if !ok {
		return
	}
	if s, ok := o.str("mode"); ok {
		d.customToolsMode(s, joinPath(path, "mode"), c)
	}
	if n, ok := o.int("timeoutSeconds", 1); ok {
		c.Timeout = time.Duration(n) * time.Second
	}
	o.finish(customToolsKeys...)
}

func (d *decoder) customToolsMode(s, path string, c *CustomTools) {
	for _, m := range customToolsModes {
		if s == m {
			c.Mode = s
			return
		}
	}
	d.fail(path, "%q is not a custom tools mode (use \"invoke\": one invoke_tool tool, or \"direct\": each custom tool offered as a tool of its own)", s)
}

// ExpandEnv replaces ${VAR} and ${VAR:-default} in s with values from getenv, and $$ with $,
// exactly as config.json strings are expanded. Custom tool folders use it for the "env" values
// of their tool.json or mcp.json, which is how a tool is deliberately given a credential.
func ExpandEnv(s string, getenv func(string) (string, bool)) (string, error) {
	return expand(s, getenv)
}
