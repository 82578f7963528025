package approval

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Allowed reports whether every command that script would run is on allow. An entry is one
// or more words ("ls", "git status"): a command is on it when its first words are those
// words, whatever arguments follow. Commands are found by parsing the script as bash does,
// so each command of a pipeline, a list, a subshell or a command substitution counts, and a
// script the parser cannot read is not allowed. A command whose name is not plain text
// ($CMD, $(which rm)), one with variable assignments in front (LD_PRELOAD=...), a redirection
// into a file, a function definition, `eval` or `exec` unless listed, are not allowed either.
//
// This is a convenience that spares people questions about harmless commands, not a security
// boundary: an allowed program can still do anything its arguments tell it to.
func Allowed(script string, allow []string) bool {
	if len(allow) == 0 || strings.TrimSpace(script) == "" {
		return false
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return false
	}
	entries := make([][]string, 0, len(allow))
	for _, a := range allow {
		if words := strings.Fields(a); len(words) > 0 {
			entries = append(entries, words)
		}
	}
	ok, commands := true, 0
	syntax.Walk(file, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) == 0 || len(n.Assigns) > 0 { // a bare assignment, or env in front
				ok = false
				return false
			}
			commands++
			ok = listed(n.Args, entries)
		case *syntax.Redirect:
			ok = harmlessRedirect(n)
		case *syntax.FuncDecl, *syntax.DeclClause, *syntax.CoprocClause, *syntax.LetClause:
			ok = false
		}
		return ok
	})
	return ok && commands > 0
}

// listed reports whether the command made of args starts with the words of an entry.
func listed(args []*syntax.Word, entries [][]string) bool {
	for _, e := range entries {
		if len(args) < len(e) {
			continue
		}
		match := true
		for i, w := range e {
			lit, static := literal(args[i])
			if !static || lit != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// literal returns the text of w when it is plain text, quoted or not, and false when its
// value is only known when the shell runs (expansions, substitutions, globs).
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// harmlessRedirect reports whether r only reads, duplicates a descriptor or writes to
// /dev/null: an allowed command that writes into a file is a write like any other.
func harmlessRedirect(r *syntax.Redirect) bool {
	lit, static := literal(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.DplIn, syntax.DplOut: // 2>&1 and >&- only: bash reads >&name as a file
		return static && (lit == "-" || strings.Trim(lit, "0123456789") == "")
	}
	return static && lit == "/dev/null"
}
