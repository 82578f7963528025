package customtools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// messyFolders writes two tool directories with every kind of folder: fine ones, clashing
// names, broken manifests, a typo, a bad schema, an unset ${VAR}.
func messyFolders(t *testing.T) (first, second string) {
	t.Helper()
	first, second = t.TempDir(), t.TempDir()
	execFolder(t, first, "a-dup", simpleManifest("dup", "The first dup."), "echo first")
	execFolder(t, first, "b-bash", simpleManifest("bash", "Shadows a built-in."), "echo no")
	execFolder(t, first, "c-solo", simpleManifest("solo", "Alone."), "echo solo")
	both := execFolder(t, first, "d-both", simpleManifest("both", "Confused."), "echo both")
	writeFile(t, both, "mcp.json", `{"command": "true"}`, 0o644)
	if err := os.MkdirAll(filepath.Join(first, "e-empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	execFolder(t, first, ".hidden", simpleManifest("hidden", "Not a tool."), "echo hidden")
	execFolder(t, second, "a-dup", simpleManifest("dup", "The second dup."), "echo second")
	writeFile(t, filepath.Join(second, "broken"), "tool.json", `{"name": "broken",`, 0o644)
	noexec := execFolder(t, second, "noexec", simpleManifest("noexec", "Not executable."), "echo")
	if err := os.Chmod(filepath.Join(noexec, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(second, "typo"), "tool.json", `{"name": "typo", "description": "x", "run": "./x", "timout": 5}`, 0o644)
	writeFile(t, filepath.Join(second, "badname"), "tool.json", `{"name": "bad name", "description": "x", "run": "./x"}`, 0o644)
	execFolder(t, second, "badschema", `{"name": "badschema", "description": "x", "run": "./run.sh", "parameters": {"type": 5}}`, "echo")
	execFolder(t, second, "needskey", `{"name": "needskey", "description": "x", "run": "./run.sh", "env": {"K": "${NOT_SET_ANYWHERE}"}}`, "echo")
	return first, second
}

// TestDiscoveryAndClashes: folders of both directories are found in order; broken folders and
// names that clash are refused with a log line saying which folder, which name and which wins.
func TestDiscoveryAndClashes(t *testing.T) {
	first, second := messyFolders(t)
	r, logs := startRegistry(t, first, second)
	if got := names(r.CustomTools()); !slices.Equal(got, []string{"dup", "solo"}) {
		t.Fatalf("tools = %v, want [dup solo]\n%s", got, logs)
	}
	if d := find(t, r, "dup").Def().Description; d != "The first dup." {
		t.Errorf("dup is %q; the folder of the first directory should win", d)
	}
	log := logs.String()
	for _, want := range []string{
		`msg="custom tool refused: a folder that comes first offers a tool of the same name, and that one is used" tool=dup folder=` + filepath.Join(second, "a-dup") + " used=" + filepath.Join(first, "a-dup"),
		`msg="custom tool refused: a built-in tool has its name; rename it" tool=bash folder=` + filepath.Join(first, "b-bash"),
		`it has both tool.json and mcp.json`,
		`msg="custom tool folder skipped" folder=` + filepath.Join(first, "e-empty") + ` err="it has no tool.json or mcp.json (yet)"`,
		filepath.Join(second, "broken", "tool.json") + ` is not valid JSON`,
		`run.sh is not executable (chmod +x`,
		`unknown key \"timout\"; did you mean \"timeout\"? (known keys: name, description, parameters, run, timeout, env)`,
		`\"name\" \"bad name\" must be 1 to 64 letters`,
		`badschema/tool.json: \"parameters\"`,
		`\"env\".K: environment variable NOT_SET_ANYWHERE is not set`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "hidden") {
		t.Errorf("a hidden folder was looked at:\n%s", log)
	}
}

// TestReload: folders added, changed and removed while the registry runs take effect.
func TestReload(t *testing.T) {
	dir := t.TempDir()
	r, logs := startRegistry(t, dir)
	if len(r.CustomTools()) != 0 {
		t.Fatalf("tools in an empty directory: %v", names(r.CustomTools()))
	}
	folder := execFolder(t, dir, "greet", simpleManifest("greet", "Say hello."), "echo hello")
	waitUntil(t, "the new tool", func() bool { return hasTool(r, "greet") })

	writeFile(t, folder, "tool.json", simpleManifest("greet", "Say hello, politely."), 0o644)
	waitUntil(t, "the changed description", func() bool {
		return hasTool(r, "greet") && find(t, r, "greet").Def().Description == "Say hello, politely."
	})

	mcpFolder(t, dir, "server", nil)
	waitUntil(t, "the MCP server's tools", func() bool { return hasTool(r, "echo") })
	if err := os.RemoveAll(filepath.Join(dir, "server")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the tools to go", func() bool { return len(r.CustomTools()) == 0 })
	if !strings.Contains(logs.String(), "custom tool folder removed") {
		t.Errorf("no log line for the removal:\n%s", logs)
	}
}

// TestDirectoryCreatedLater: a tool directory that does not exist when mom starts (as
// ~/.config/mom/tools on a new machine) is noticed when it is created, however deep.
func TestDirectoryCreatedLater(t *testing.T) {
	base := t.TempDir()
	later := filepath.Join(base, "config", "mom", "tools")
	r, _ := startRegistry(t, filepath.Join(base, "data", "tools"), later) // the first is made at start
	writeFile(t, base, "unrelated.txt", "noise beside the awaited directory", 0o644)
	if err := os.MkdirAll(filepath.Join(base, "config", "mom"), 0o755); err != nil {
		t.Fatal(err)
	}
	execFolder(t, later, "greet", simpleManifest("greet", "Say hello."), "echo hello")
	waitUntil(t, "the tool in the directory made after start", func() bool { return hasTool(r, "greet") })

	execFolder(t, later, "wave", simpleManifest("wave", "Wave."), "echo wave")
	waitUntil(t, "a second tool there", func() bool { return hasTool(r, "wave") })
}

// TestStopEndsServers: Stop stops every MCP server; their tools are gone.
func TestStopEndsServers(t *testing.T) {
	dir := t.TempDir()
	mcpFolder(t, dir, "server", nil)
	r, _ := startRegistry(t, dir)
	find(t, r, "echo")
	r.mu.Lock()
	srv := r.folders[filepath.Join(dir, "server")].server
	r.mu.Unlock()
	r.Stop()
	select {
	case <-srv.done:
	default:
		t.Error("the server's supervisor still runs after Stop")
	}
	if len(r.CustomTools()) != 0 {
		t.Errorf("tools after Stop: %v", names(r.CustomTools()))
	}
	r.Stop() // a second Stop does nothing
}

// TestStateFilesDoNotReload: files a tool keeps in its folder (a token cache) do not reload
// it; a rebuilt program does.
func TestStateFilesDoNotReload(t *testing.T) {
	dir := t.TempDir()
	folder := execFolder(t, dir, "greet", simpleManifest("greet", "Say hello."), "echo hello")
	r, _ := startRegistry(t, dir)
	before := find(t, r, "greet")
	writeFile(t, folder, "token-cache.json", `{"token": "t"}`, 0o600)
	r.Rescan()
	if find(t, r, "greet") != before {
		t.Error("writing a state file reloaded the tool")
	}
	writeFile(t, folder, "run.sh", "#!/bin/sh\necho hello again\n", 0o755)
	r.Rescan()
	if find(t, r, "greet") == before {
		t.Error("changing the program did not reload the tool")
	}
}
