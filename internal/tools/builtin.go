package tools

// Builtin returns the built-in tools in pi's order: read, bash, edit, write, attach. Each call
// returns new values, so callers may keep them without sharing.
func Builtin() []Tool {
	return []Tool{NewRead(), NewBash(), NewEdit(), NewWrite(), NewAttach()}
}
