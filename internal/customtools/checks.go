package customtools

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The checks a tool folder goes through, shared by the Registry, which logs what fails, and
// Summary, which prints it for `mom check`, so that the two never disagree about a folder.

// lookupEnv makes a getenv over an environment in os.Environ() form.
func lookupEnv(environ []string) func(string) (string, bool) {
	env := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return func(name string) (string, bool) { v, ok := env[name]; return v, ok }
}

// openFolder makes a scanned folder's tool or MCP server, starting nothing. The error says
// why the folder is skipped: a manifest missing or wrong, a parameters schema that is not
// one, an ${VAR} of "env" that is not set. The folder is returned either way, without tools
// when it is skipped.
func openFolder(s scanned, o *Options, getenv func(string) (string, bool), changed func()) (*folder, error) {
	f := &folder{path: s.path, order: s.order, fingerprint: s.fingerprint}
	switch s.kind {
	case kindExec:
		spec, err := parseExec(s.path)
		if err == nil {
			f.exec, err = newExecTool(s.path, spec, o, getenv)
		}
		if err != nil {
			return f, err
		}
		f.shows = fmt.Sprintf("tool %s (runs %s)", spec.Name, spec.Run)
	case kindMCP:
		spec, err := parseMCP(s.path)
		if err == nil {
			f.server, err = newMCPServer(s.path, spec, o, getenv, changed)
		}
		if err != nil {
			return f, err
		}
		if spec.URL != "" {
			f.shows = fmt.Sprintf("MCP server at %s (%s)", spec.URL, transportNames[spec.Transport])
		} else {
			f.shows = fmt.Sprintf("MCP server (%s)", strings.Join(append([]string{spec.Command}, spec.Args...), " "))
		}
	case kindBoth:
		return f, errors.New("it has both " + toolManifest + " and " + mcpManifest + "; keep the one it is")
	default:
		return f, errors.New("it has no " + toolManifest + " or " + mcpManifest + " (yet)")
	}
	return f, nil
}

// transportNames are the names people know a remote server's transports by.
var transportNames = map[string]string{transportStreamable: "streamable HTTP", transportSSE: "HTTP+SSE"}

// The reasons a tool's name is refused.
const (
	reservedName = "a built-in tool has its name; rename it"
	takenName    = "a folder that comes first offers a tool of the same name, and that one is used"
)

// refusal is why a folder may not offer a tool of some name.
type refusal struct {
	reason string // reservedName or takenName
	used   string // for takenName, the folder whose tool is used
}

func (r *refusal) String() string {
	if r.used != "" {
		return r.reason + ": " + r.used
	}
	return r.reason
}

// nameRefused says why a tool called name may not be offered, when reserved are the built-in
// tools' names and taken maps the names offered so far (by folders that come first) to their
// folders; nil when it may.
func nameRefused(name string, reserved []string, taken map[string]string) *refusal {
	if slices.Contains(reserved, name) {
		return &refusal{reason: reservedName}
	}
	if first, ok := taken[name]; ok {
		return &refusal{reason: takenName, used: first}
	}
	return nil
}
