package config

import (
	"fmt"
	"strings"
)

// expand replaces ${VAR} and ${VAR:-default} in s with values from getenv, and $$ with $. A
// dollar sign followed by anything else stays as it is, so passwords with a lone $ survive.
// ${VAR:-default} uses the default when VAR is unset or empty, as the shell does.
func expand(s string, getenv func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return "", fmt.Errorf("%q has an unclosed \"${\"; write \"$$\" for a literal dollar sign", s)
			}
			ref := s[i+2 : i+2+end]
			v, err := lookup(ref, getenv)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i += 2 + end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// lookup resolves the inside of one ${...}.
func lookup(ref string, getenv func(string) (string, bool)) (string, error) {
	name, def, hasDefault := strings.Cut(ref, ":-")
	if !validVarName(name) {
		return "", fmt.Errorf("\"${%s}\" is not a valid variable reference: names use letters, digits and \"_\" and do not start with a digit", ref)
	}
	v, set := "", false
	if getenv != nil {
		v, set = getenv(name)
	}
	if hasDefault && v == "" {
		return def, nil
	}
	if !set {
		return "", fmt.Errorf("environment variable %s is not set", name)
	}
	return v, nil
}

func validVarName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
