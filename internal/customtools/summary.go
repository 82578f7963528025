package customtools

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"time"
)

// Summary describes the tool folders of o.Dirs for `mom check`, one line each. Each folder
// goes through the checks a running mom makes (its manifest, its parameters, the ${VAR}s of
// its "env" against o.Environ, its tool's name against o.Reserved and the folders that come
// first), so a folder listed as fine is one mom loads, and one mom would skip says "skipped: "
// and the reason mom logs. Nothing is started: an MCP server's tools are known only once it
// runs, so its command is shown, and whether it can start, but not its tools' names. A remote
// server is asked for its tools (within ctx and probeTimeout), which says whether it answers
// and accepts mom's credentials.
func Summary(ctx context.Context, o Options) string {
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
		fmt.Fprintf(&b, "  %s: %s\n", s.path, describe(ctx, s, &o, getenv, taken))
	}
	return b.String()
}

// describe checks one folder as the Registry loads it; taken holds the tool names offered by
// the folders before it.
func describe(ctx context.Context, s scanned, o *Options, getenv func(string) (string, bool), taken map[string]string) string {
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
	if f.server.remote != nil {
		return f.shows + "; " + probe(ctx, f.server)
	}
	if _, err := exec.LookPath(f.server.spec.Command); err != nil {
		return f.shows + "; it cannot start: " + err.Error()
	}
	return f.shows
}

// probeTimeout bounds how long `mom check` waits for a remote server to list its tools.
const probeTimeout = 10 * time.Second

// probe connects to a remote server as a running mom would and says whether it answers and
// with which tools.
func probe(ctx context.Context, s *mcpServer) string {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	c, err := s.connect(ctx)
	if err != nil {
		return "it does not answer: " + err.Error()
	}
	c.close()
	names := make([]string, len(c.tools))
	for i, t := range c.tools {
		names[i] = t.Def().Name
	}
	if len(names) == 0 {
		return "it answers, with no tools"
	}
	return "it answers, with tools " + strings.Join(names, ", ")
}
