package sandbox

import (
	"fmt"
	"strings"
)

// nonInteractiveEnv is set for every command before anything else, so a passthrough variable or
// Command.Env can still override it. Commands run unattended with stdin on /dev/null and no
// terminal, so anything that waits for a person would only sit there until the timeout:
//
//   - PAGER, GIT_PAGER: git, man and friends print instead of starting less.
//   - GIT_TERMINAL_PROMPT=0: git fails at once instead of asking for a password.
//   - GIT_EDITOR=true: git commit/merge/rebase do not open an editor that nobody will close.
//   - DEBIAN_FRONTEND=noninteractive: apt-get and dpkg take defaults instead of asking.
//
// CI=1 is deliberately left out: besides silencing prompts it makes many build tools stricter
// (warnings become errors, watch modes and caches change), which is a behaviour change rather
// than a non-interactive default.
func nonInteractiveEnv() []string {
	return []string{
		"PAGER=cat",
		"GIT_PAGER=cat",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_EDITOR=true",
		"DEBIAN_FRONTEND=noninteractive",
	}
}

// passedByDefault reports whether a variable of mom's own environment reaches commands without
// being named in config. Only what programs need to find themselves and format text; everything
// else (API keys, bot tokens, cloud credentials) stays with mom.
func passedByDefault(name string) bool {
	switch name {
	case "PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TERM", "TMPDIR", "SHELL":
		return true
	}
	return strings.HasPrefix(name, "LC_")
}

// loaderVariable reports whether name steers the dynamic loader. Such a variable would let
// whoever sets it inject code into every program the agent runs, so it is dropped even when
// config or a tool asks for it.
func loaderVariable(name string) bool {
	return strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_")
}

// envBuilder makes the environment of each command from a fixed base: the non-interactive
// defaults and the allowed part of mom's environment, captured once. The docker and bwrap
// executors build their environments the same way.
type envBuilder struct {
	base []string
}

// newEnvBuilder captures the variables of host (os.Environ() form) that are allowed by default
// or named in passthrough.
func newEnvBuilder(host []string, passthrough []string) envBuilder {
	extra := make(map[string]bool, len(passthrough))
	for _, name := range passthrough {
		extra[name] = true
	}
	var allowed []string
	for _, kv := range host {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || loaderVariable(name) {
			continue
		}
		if passedByDefault(name) || extra[name] {
			allowed = append(allowed, kv)
		}
	}
	return envBuilder{base: merge(nonInteractiveEnv(), allowed)}
}

// build returns the base environment with extra (KEY=VALUE pairs) on top. Loader variables in
// extra are dropped; a malformed entry is an error, since silently ignoring it would run the
// command in an environment its caller did not ask for.
func (b envBuilder) build(extra []string) ([]string, error) {
	if len(extra) == 0 {
		return b.base, nil
	}
	keep := make([]string, 0, len(extra))
	for _, kv := range extra {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("environment entry %q is not of the form KEY=VALUE", kv)
		}
		if loaderVariable(name) {
			continue
		}
		keep = append(keep, kv)
	}
	return merge(b.base, keep), nil
}

// merge returns lower with the entries of upper added, an entry of upper replacing the entry of
// lower with the same name. Order is kept, so environments are reproducible.
func merge(lower, upper []string) []string {
	out := make([]string, 0, len(lower)+len(upper))
	index := make(map[string]int, len(lower)+len(upper))
	for _, list := range [][]string{lower, upper} {
		for _, kv := range list {
			name, _, _ := strings.Cut(kv, "=")
			if i, ok := index[name]; ok {
				out[i] = kv
				continue
			}
			index[name] = len(out)
			out = append(out, kv)
		}
	}
	return out
}
