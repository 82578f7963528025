package customtools

import (
	"github.com/mom-agent/mom/internal/sandbox"
)

// toolEnv is the environment of a tool process: the sandbox's allowlist of mom's environment
// (never its API keys or tokens), then what the folder's "env" names, then mom's variables for
// the tool, last so that they can be relied on. channel is "" for an MCP server, which serves
// every channel.
func toolEnv(environ []string, named []string, dataDir, toolDir, channel string) ([]string, error) {
	extra := append([]string(nil), named...)
	extra = append(extra, "MOM_DATA_DIR="+dataDir, "MOM_TOOL_DIR="+toolDir)
	if channel != "" {
		extra = append(extra, "MOM_CHANNEL="+channel)
	}
	return sandbox.CleanEnv(environ, extra)
}
