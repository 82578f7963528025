package tools

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// decodeArgs unmarshals a call's arguments into v. The agent has validated them already; this
// only guards direct callers.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// resolvePath makes p absolute against cwd. Paths are the sandbox's, which is always a POSIX
// system, hence package path rather than filepath. "~" is not expanded: it means a directory
// only a shell knows about.
func resolvePath(cwd, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(cwd, p)
}

// shellQuote quotes s for a POSIX shell when it contains anything a shell would interpret, so
// a suggested command works for any path.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,:@%=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
