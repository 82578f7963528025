package customtools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/config"
)

// The manifest files that make a folder a tool folder.
const (
	toolManifest = "tool.json"
	mcpManifest  = "mcp.json"
)

// headerName is what HTTP allows as a header name (RFC 9110's token).
var headerName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
})

// maxManifest caps a manifest's size: it is configuration, and a huge file is a mistake.
const maxManifest = 1 << 20

// validName is what the model APIs accept as a tool name (Anthropic's rule, the strictest).
var validName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
})

// execSpec is a tool.json: one tool that runs an executable per call.
type execSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Run is the executable, relative to the folder (or absolute).
	Run string `json:"run"`
	// Timeout is in seconds; zero means the configured default.
	Timeout float64           `json:"timeout"`
	Env     map[string]string `json:"env"`
}

// mcpSpec is an mcp.json: an MCP server whose tools are custom tools, either a program mom
// starts and speaks to over stdio (Command) or a remote server at URL.
type mcpSpec struct {
	// Command is a program on PATH ("npx", "uvx") or a path; a relative path with a slash
	// ("./server") is relative to the folder.
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	// URL is a remote server's endpoint, spoken to with the transport Transport names.
	URL string `json:"url"`
	// Transport is "streamable" (the default: MCP's streamable HTTP) or "sse" (the older
	// HTTP+SSE transport of protocol version 2024-11-05).
	Transport string `json:"transport"`
	// Headers go with every request to URL; values may use ${VAR} for tokens.
	Headers map[string]string `json:"headers"`
	// Timeout limits each call, in seconds; zero means the configured default.
	Timeout float64 `json:"timeout"`
}

// The transports of a remote server.
const (
	transportStreamable = "streamable"
	transportSSE        = "sse"
)

// readManifest decodes a manifest strictly: an unknown key is probably a typo that would
// otherwise be silently ignored.
func readManifest(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return err
	}
	if len(data) > maxManifest {
		return fmt.Errorf("%s is larger than %d bytes", path, maxManifest)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn):
			return fmt.Errorf("%s is not valid JSON (at byte %d): %w", path, syn.Offset, err)
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return fmt.Errorf("%s is not valid JSON: it ends before the object does", path)
		}
		if key, ok := unknownKey(err); ok {
			return fmt.Errorf("%s: %s", path, config.UnknownKey(key, jsonKeys(v)))
		}
		return fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// unknownKey reads the key out of the decoder's error for a key no field has.
func unknownKey(err error) (string, bool) {
	quoted, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
	if !ok {
		return "", false
	}
	key, uerr := strconv.Unquote(quoted)
	return key, uerr == nil
}

// jsonKeys lists the JSON keys of the struct v points to, in the order of its fields.
func jsonKeys(v any) []string {
	t := reflect.TypeOf(v).Elem()
	keys := make([]string, 0, t.NumField())
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// parseExec reads and checks a tool.json.
func parseExec(dir string) (execSpec, error) {
	path := filepath.Join(dir, toolManifest)
	var s execSpec
	if err := readManifest(path, &s); err != nil {
		return s, err
	}
	switch {
	case !validName().MatchString(s.Name):
		return s, fmt.Errorf("%s: \"name\" %q must be 1 to 64 letters, digits, \"_\" or \"-\"", path, s.Name)
	case strings.TrimSpace(s.Description) == "":
		return s, fmt.Errorf("%s: \"description\" is missing; the model needs it to know when to use %s", path, s.Name)
	case s.Run == "":
		return s, fmt.Errorf("%s: \"run\" is missing: the executable to start, e.g. \"./run.sh\"", path)
	case s.Timeout < 0:
		return s, fmt.Errorf("%s: \"timeout\" must be a number of seconds above 0", path)
	}
	if len(bytes.TrimSpace(s.Parameters)) == 0 || bytes.Equal(bytes.TrimSpace(s.Parameters), []byte("null")) {
		s.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	run := s.Run
	if !filepath.IsAbs(run) {
		run = filepath.Join(dir, run)
	}
	info, err := os.Stat(run)
	switch {
	case err != nil:
		return s, fmt.Errorf("%s: \"run\": %w", path, err)
	case info.IsDir():
		return s, fmt.Errorf("%s: \"run\": %s is a directory, not an executable", path, run)
	case info.Mode().Perm()&0o111 == 0:
		return s, fmt.Errorf("%s: \"run\": %s is not executable (chmod +x %s)", path, run, run)
	}
	s.Run = run
	return s, nil
}

// parseMCP reads and checks an mcp.json.
func parseMCP(dir string) (mcpSpec, error) {
	path := filepath.Join(dir, mcpManifest)
	var s mcpSpec
	if err := readManifest(path, &s); err != nil {
		return s, err
	}
	if s.Timeout < 0 {
		return s, fmt.Errorf("%s: \"timeout\" must be a number of seconds above 0", path)
	}
	if s.URL != "" || s.Transport != "" || s.Headers != nil {
		return s, checkRemote(path, &s)
	}
	if strings.TrimSpace(s.Command) == "" {
		return s, fmt.Errorf("%s: \"command\" is missing: the server to start, e.g. \"./server\" or \"npx\"; or \"url\": a remote server's address", path)
	}
	if strings.ContainsRune(s.Command, filepath.Separator) && !filepath.IsAbs(s.Command) {
		s.Command = filepath.Join(dir, s.Command)
	}
	return s, nil
}

// checkRemote checks the keys of an mcp.json for a remote server: a URL and no process.
func checkRemote(path string, s *mcpSpec) error {
	switch {
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("%s: has both \"command\" and \"url\"; keep \"command\" for a server mom starts, \"url\" for one it connects to", path)
	case s.URL == "":
		return fmt.Errorf("%s: \"url\" is missing: \"transport\" and \"headers\" are for a remote server, at an address like \"https://mcp.example.com/mcp\"", path)
	case len(s.Args) > 0 || s.Env != nil:
		return fmt.Errorf("%s: \"args\" and \"env\" are for a server mom starts; a \"url\" server takes \"headers\" (values may use ${VAR})", path)
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s: \"url\" %q is not an http:// or https:// address", path, s.URL)
	}
	if u.User != nil {
		return fmt.Errorf("%s: \"url\" carries a user name or password; put credentials in \"headers\" (e.g. \"Authorization\": \"Bearer ${TOKEN}\")", path)
	}
	switch s.Transport {
	case "":
		s.Transport = transportStreamable
	case transportStreamable, transportSSE:
	default:
		return fmt.Errorf("%s: \"transport\" %q is not one mom speaks: \"streamable\" (streamable HTTP, the default) or \"sse\" (the older HTTP+SSE transport)", path, s.Transport)
	}
	for name := range s.Headers {
		if !headerName().MatchString(name) {
			return fmt.Errorf("%s: \"headers\": %q is not a header name", path, name)
		}
	}
	return nil
}

// timeout is a manifest's timeout, or def when it sets none.
func timeout(seconds float64, def time.Duration) time.Duration {
	if seconds <= 0 {
		return def
	}
	return time.Duration(seconds * float64(time.Second))
}

// expandEnv turns a manifest's "env" into KEY=VALUE pairs, expanding ${VAR} from mom's
// environment: the one way a tool is given a secret mom holds. A variable that is not set is
// an error naming it, rather than an empty credential that fails later in a confusing way.
func expandEnv(path string, env map[string]string, getenv func(string) (string, bool)) ([]string, error) {
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make([]string, 0, len(names))
	for _, k := range names {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("%s: \"env\": %q is not a variable name", path, k)
		}
		v, err := config.ExpandEnv(env[k], getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: \"env\".%s: %w", path, k, err)
		}
		out = append(out, k+"="+v)
	}
	return out, nil
}
