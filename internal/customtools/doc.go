// Package customtools finds and runs the host-side custom tools: folders in <data>/tools/ and
// ~/.config/mom/tools/ (the spec's "Custom Tools (Host-Side Execution)"). Both places are
// outside the workspace, so the sandboxed agent cannot rewrite code that then runs on the host.
//
// The spec loads TypeScript modules; here a tool is a process, of one of two kinds:
//
//   - an MCP server (mcp.json: command, args, env), spoken to over stdio; every tool it lists
//     is a custom tool. It starts with mom, stops with it, and is restarted with backoff when
//     it exits; while it is down its tools answer with an error. A remote server (mcp.json:
//     url, transport, headers) is reached with the SDK's streamable HTTP or SSE client
//     transport, and connected to again with the same backoff when the connection is lost.
//   - an executable (tool.json: name, description, parameters, run) started for each call with
//     the arguments as JSON on stdin, answering on stdout with {"content": [...], "details":
//     ...} or plain text. It gets MOM_DATA_DIR, MOM_CHANNEL and MOM_TOOL_DIR (the spec's
//     ToolAPI in process form).
//
// Tool processes get the sandbox's environment allowlist, not mom's environment: API keys and
// bot tokens reach a tool only when its folder's "env" names them (${VAR} expansion). The
// Registry keeps the current set, watches both directories and applies changes while mom runs.
package customtools
