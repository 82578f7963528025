package prompt

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// maxParamDescription caps one parameter's description in the prompt, in bytes: the tool's
// schema (which the model can be shown in full through an error) has the rest.
const maxParamDescription = 200

// maxToolDescription caps a custom tool's description in bytes, so that one verbose MCP server
// cannot crowd the system prompt.
const maxToolDescription = 1024

// customToolList describes each custom tool for the prompt: a list item with its description,
// its arguments (one line each, from paramLines) under it, and a blank line after. The texts
// come from the tools' authors (and from MCP servers), so they are kept to their lines like any
// other outside text.
func customToolList(list []llm.Tool) string {
	var b strings.Builder
	for _, t := range list {
		b.WriteString("- ")
		b.WriteString(oneLine(t.Name))
		b.WriteString(": ")
		b.WriteString(indent(clip(strings.TrimSpace(t.Description), maxToolDescription)))
		params := paramLines(t.Parameters)
		if len(params) == 0 {
			b.WriteString("\n  No arguments.\n\n")
			continue
		}
		b.WriteString("\n  Arguments:")
		for _, p := range params {
			b.WriteString("\n  - ")
			b.WriteString(p)
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// indent puts the lines after the first of a multi-line description under its list item, so
// that none of them can start a section of the prompt.
func indent(s string) string {
	return strings.ReplaceAll(s, "\n", "\n  ")
}

// schemaInfo is the part of a JSON Schema the summary uses.
type schemaInfo struct {
	Type        any               `json:"type"`
	Description string            `json:"description"`
	Enum        []json.RawMessage `json:"enum"`
	Const       json.RawMessage   `json:"const"`
	Items       *schemaInfo       `json:"items"`
	AnyOf       []schemaInfo      `json:"anyOf"`
	OneOf       []schemaInfo      `json:"oneOf"`
	Default     json.RawMessage   `json:"default"`
	Required    []string          `json:"required"`
	Properties  json.RawMessage   `json:"properties"`
}

// paramLines summarises an object schema's properties, in the schema's own order.
func paramLines(schema json.RawMessage) []string {
	var root schemaInfo
	if json.Unmarshal(schema, &root) != nil || len(root.Properties) == 0 {
		return nil
	}
	var props map[string]schemaInfo
	if json.Unmarshal(root.Properties, &props) != nil {
		return nil
	}
	var lines []string
	for _, name := range objectKeys(root.Properties) {
		p := props[name]
		kind := typeOf(&p)
		if slices.Contains(root.Required, name) {
			kind += ", required"
		} else if len(p.Default) > 0 {
			kind += ", default " + compactJSON(p.Default)
		}
		line := oneLine(name) + " (" + kind + ")"
		if d := strings.TrimSpace(oneLine(p.Description)); d != "" {
			line += ": " + clip(d, maxParamDescription)
		}
		lines = append(lines, line)
	}
	return lines
}

// typeOf names a schema's type the way a reader of TypeScript would: string, integer,
// "a" | "b", array of string, string | null.
func typeOf(s *schemaInfo) string {
	switch {
	case len(s.Enum) > 0:
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = compactJSON(v)
		}
		return strings.Join(vals, " | ")
	case len(s.Const) > 0:
		return compactJSON(s.Const)
	case len(s.AnyOf) > 0 || len(s.OneOf) > 0:
		var alts []string
		for _, a := range append(slices.Clip(s.AnyOf), s.OneOf...) {
			alts = append(alts, typeOf(&a))
		}
		return strings.Join(alts, " | ")
	}
	var types []string
	switch t := s.Type.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, v := range t {
			if name, ok := v.(string); ok {
				types = append(types, name)
			}
		}
	}
	if len(types) == 0 {
		return "any"
	}
	for i, t := range types {
		if t == "array" && s.Items != nil {
			types[i] = "array of " + typeOf(s.Items)
		}
	}
	return strings.Join(types, " | ")
}

// objectKeys returns the keys of a JSON object in the order they are written.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		key, _ := tok.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
		keys = append(keys, key)
	}
	return keys
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return oneLine(string(raw))
	}
	return oneLine(b.String())
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
