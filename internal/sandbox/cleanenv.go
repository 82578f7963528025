package sandbox

// CleanEnv returns the environment for a program mom runs on the host on the agent's behalf
// (a custom tool): the non-interactive defaults and the allowlisted part of host (os.Environ()
// form), with extra (KEY=VALUE pairs) on top. It is the same rule the sandbox applies to the
// agent's commands, so API keys and bot tokens in mom's environment reach such a program only
// when its configuration names them in extra. Loader variables (LD_*, DYLD_*) are dropped even
// from extra; a malformed entry of extra is an error.
func CleanEnv(host, extra []string) ([]string, error) {
	env, err := newEnvBuilder(host, nil).build(extra)
	if err != nil {
		return nil, err
	}
	// build may return the builder's own base; the caller owns what it gets.
	return append([]string(nil), env...), nil
}
