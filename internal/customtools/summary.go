package customtools

import (
	"fmt"
	"os/exec"
	"strings"
)

// Summary describes the tool folders in dirs for `mom check`, one line each, without starting
// anything: an MCP server's tools are only known once it runs, so its command is shown.
func Summary(dirs []string) string {
	found := scanDirs(dirs)
	if len(found) == 0 {
		return fmt.Sprintf("custom tools: none (add folders to %s)\n", strings.Join(dirs, " or "))
	}
	var b strings.Builder
	b.WriteString("custom tools:\n")
	for _, s := range found {
		fmt.Fprintf(&b, "  %s: %s\n", s.path, describe(s))
	}
	return b.String()
}

func describe(s scanned) string {
	switch s.kind {
	case kindExec:
		spec, err := parseExec(s.path)
		if err != nil {
			return "skipped: " + err.Error()
		}
		return fmt.Sprintf("tool %s (runs %s)", spec.Name, spec.Run)
	case kindMCP:
		spec, err := parseMCP(s.path)
		if err != nil {
			return "skipped: " + err.Error()
		}
		line := fmt.Sprintf("MCP server (%s)", strings.Join(append([]string{spec.Command}, spec.Args...), " "))
		if _, err := exec.LookPath(spec.Command); err != nil {
			line += "; it cannot start: " + err.Error()
		}
		return line
	case kindBoth:
		return "skipped: it has both tool.json and mcp.json"
	}
	return "skipped: no tool.json or mcp.json"
}
