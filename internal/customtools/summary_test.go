package customtools

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// summaryLines reads Summary's output into the description of each folder.
func summaryLines(t *testing.T, summary string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(summary, "\n"), "\n")
	if lines[0] != "custom tools:" {
		t.Fatalf("summary starts with %q:\n%s", lines[0], summary)
	}
	out := make(map[string]string)
	for _, l := range lines[1:] {
		path, desc, ok := strings.Cut(strings.TrimPrefix(l, "  "), ": ")
		if !ok {
			t.Fatalf("summary line %q is not \"folder: description\"", l)
		}
		out[path] = desc
	}
	return out
}

// TestSummaryAgreesWithTheRegistry: `mom check` lists a folder as fine exactly when a running
// mom offers its tools, and a skipped folder with the very reason mom logs.
func TestSummaryAgreesWithTheRegistry(t *testing.T) {
	first, second := messyFolders(t)
	mcpFolder(t, first, "f-mcp", nil)
	writeFile(t, filepath.Join(second, "nobinary"), "mcp.json", `{"command": "./server"}`, 0o644)
	writeFile(t, filepath.Join(second, "mcpkey"), "mcp.json", `{"command": "true", "env": {"T": "${MCP_TOKEN_UNSET}"}}`, 0o644)
	r, logs := startRegistry(t, first, second)
	lines := summaryLines(t, Summary(context.Background(), testOptions(first, second)))
	log := logs.String()

	r.mu.Lock()
	defer r.mu.Unlock()
	if len(lines) != len(r.folders) {
		t.Errorf("the summary lists %d folders, the registry loaded %d:\n%v", len(lines), len(r.folders), lines)
	}
	for path, f := range r.folders {
		desc, listed := lines[path]
		if !listed {
			t.Errorf("the summary leaves out %s", path)
			continue
		}
		offered := f.server != nil || (f.exec != nil && r.owners[f.exec.Def().Name] == path)
		reason, skipped := strings.CutPrefix(desc, "skipped: ")
		switch {
		case offered == skipped:
			t.Errorf("%s: mom offers its tools: %v; the summary says %q", path, offered, desc)
		case !skipped:
			continue
		}
		if refused, ok := strings.CutPrefix(reason, "tool "); ok {
			name, why, _ := strings.Cut(refused, ": ")
			why, used, _ := strings.Cut(why, ": ")
			want := `msg="custom tool refused: ` + why + `" tool=` + name + " folder=" + path
			if used != "" {
				want += " used=" + used
			}
			if !strings.Contains(log, want) {
				t.Errorf("%s: the summary says %q, the log lacks %s:\n%s", path, desc, want, log)
			}
		} else if want := "folder=" + path + " err=" + strconv.Quote(reason); !strings.Contains(log, want) {
			t.Errorf("%s: the summary says %q, the log lacks %s:\n%s", path, desc, want, log)
		}
	}
	for folder, want := range map[string]string{
		filepath.Join(first, "b-bash"):     "skipped: tool bash: a built-in tool has its name; rename it",
		filepath.Join(second, "a-dup"):     "skipped: tool dup: a folder that comes first offers a tool of the same name, and that one is used: " + filepath.Join(first, "a-dup"),
		filepath.Join(second, "needskey"):  `: "env".K: environment variable NOT_SET_ANYWHERE is not set`,
		filepath.Join(second, "mcpkey"):    `: "env".T: environment variable MCP_TOKEN_UNSET is not set`,
		filepath.Join(second, "typo"):      `unknown key "timout"; did you mean "timeout"?`,
		filepath.Join(second, "badschema"): `skipped: ` + filepath.Join(second, "badschema", "tool.json") + `: "parameters"`,
		filepath.Join(second, "nobinary"):  "MCP server (" + filepath.Join(second, "nobinary", "server") + "); it cannot start:",
		filepath.Join(first, "c-solo"):     "tool solo (runs " + filepath.Join(first, "c-solo", "run.sh") + ")",
	} {
		if !strings.Contains(lines[folder], want) {
			t.Errorf("%s: the summary says %q, want %q", folder, lines[folder], want)
		}
	}
}

func TestManifestTypoSuggestsTheKey(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "exec"), "tool.json", `{"name": "x", "descripton": "y", "run": "./x"}`, 0o644)
	writeFile(t, filepath.Join(dir, "mcp"), "mcp.json", `{"command": "x", "arg": ["y"]}`, 0o644)
	writeFile(t, filepath.Join(dir, "far"), "mcp.json", `{"command": "x", "program": "y"}`, 0o644)
	_, err := parseExec(filepath.Join(dir, "exec"))
	if want := filepath.Join(dir, "exec", "tool.json") + `: unknown key "descripton"; did you mean "description"? (known keys: name, description, parameters, run, timeout, env)`; err == nil || err.Error() != want {
		t.Errorf("tool.json with a typo: %v\nwant %s", err, want)
	}
	if _, err := parseMCP(filepath.Join(dir, "mcp")); err == nil || !strings.Contains(err.Error(), `unknown key "arg"; did you mean "args"? (known keys: command, args, env, url, transport, headers, timeout)`) {
		t.Errorf("mcp.json with a typo: %v", err)
	}
	if _, err := parseMCP(filepath.Join(dir, "far")); err == nil || !strings.HasSuffix(err.Error(), `unknown key "program" (known keys: command, args, env, url, transport, headers, timeout)`) {
		t.Errorf("mcp.json with an unknown key like no known one: %v", err)
	}
}
