package customtools

import (
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
)

// Summary describes the tool folders of o.Dirs for `mom check`, one line each. Each folder
// goes through the checks a running mom makes (its manifest, its parameters, the ${VAR}s of
// its "env" against o.Environ, its tool's name against o.Reserved and the folders that come
// first), so a folder listed as fine is one mom loads, and one mom would skip says "skipped: "
// and the reason mom logs. Nothing is started: an MCP server's tools are known only once it
// runs, so its command is shown, and whether it can start, but not its tools' names.
func Summary(o Options) string {
	found := scanDirs(o.Dirs)
	if len(found) == 0 {
		return fmt.Sprintf("custom tools: none (add folders to %s)\n", strings.Join(o.Dirs, " or "))
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	getenv := lookupEnv(o.Environ)
	taken := make(map[string]string)
	var b strings.Builder
	b.WriteString("custom tools:\n")
	for _, s := range found {
		fmt.Fprintf(&b, "  %s: %s\n", s.path, describe(s, &o, getenv, taken))
	}
	return b.String()
}

// describe checks one folder as the Registry loads it; taken holds the tool names offered by
// the folders before it.
func describe(s scanned, o *Options, getenv func(string) (string, bool), taken map[string]string) string {
	f, err := openFolder(s, o, getenv, nil)
	if err != nil {
		return "skipped: " + err.Error()
	}
	if f.exec != nil {
		name := f.exec.Def().Name
		if why := nameRefused(name, o.Reserved, taken); why != nil {
			return fmt.Sprintf("skipped: tool %s: %s", name, why)
		}
		taken[name] = f.path
		return f.shows
	}
	if _, err := exec.LookPath(f.server.spec.Command); err != nil {
		return f.shows + "; it cannot start: " + err.Error()
	}
	return f.shows
}
