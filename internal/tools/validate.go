package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Validator checks a tool's arguments against its JSON Schema. Build it once per tool: resolving
// a schema costs far more than validating against it.
type Validator struct {
	root     *jsonschema.Schema
	resolved *jsonschema.Resolved
}

// NewValidator resolves t's parameter schema.
func NewValidator(t Tool) (*Validator, error) {
	return newValidator(t.Def().Parameters)
}

func newValidator(raw json.RawMessage) (*Validator, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("parameter schema is not valid JSON Schema: %w", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("parameter schema cannot be resolved: %w", err)
	}
	return &Validator{root: &s, resolved: r}, nil
}

// validating is implemented by tools that resolved their schema when they were made, so that
// Validate does not resolve it again on every call.
type validating interface {
	validator() *Validator
}

// Validate checks args (a tool call's JSON arguments) against t's schema, for the agent loop to
// run before Tool.Run. The error names the argument that is missing, unknown, or of the wrong
// type, in words the model can act on. Built-in tools validate with a schema resolved once;
// other tools have theirs resolved on each call (use NewValidator to avoid that).
func Validate(t Tool, args json.RawMessage) error {
	if v, ok := t.(validating); ok {
		return v.validator().Validate(args)
	}
	v, err := NewValidator(t)
	if err != nil {
		return fmt.Errorf("the tool's own schema is broken: %w", err)
	}
	return v.Validate(args)
}

// Validate checks args against the schema. Missing or null arguments count as an empty object.
func (v *Validator) Validate(args json.RawMessage) error {
	raw := bytes.TrimSpace(args)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	obj, ok := instance.(map[string]any)
	if !ok {
		return fmt.Errorf("arguments must be a JSON object, not %s", article(jsonType(instance)))
	}
	if err := v.resolved.Validate(obj); err != nil {
		return v.explain(err, obj)
	}
	return nil
}

// explain rewrites a jsonschema-go error, which reads like "validating root: validating
// /properties/timeout: type: abc has type "string", want "number"", into a sentence that names
// the argument. The library wraps one layer per schema it descends into, each saying which
// schema; the innermost error names the failed keyword.
func (v *Validator) explain(err error, obj map[string]any) error {
	inner, path := err, ""
	for {
		next := errors.Unwrap(inner)
		if next == nil {
			break
		}
		prefix := strings.TrimSuffix(inner.Error(), next.Error())
		if p, ok := strings.CutPrefix(prefix, "validating "); ok {
			path = strings.TrimSuffix(p, ": ")
		}
		inner = next
	}
	names := propertyPath(path)
	sub, value := v.root, any(obj)
	for _, n := range names {
		if sub != nil {
			sub = sub.Properties[n]
		}
		if m, ok := value.(map[string]any); ok {
			value = m[n]
		}
	}
	arg := strings.Join(names, ".")
	qualify := func(n string) string {
		if arg == "" {
			return strconv.Quote(n)
		}
		return strconv.Quote(arg + "." + n)
	}

	msg := inner.Error()
	keyword, _, _ := strings.Cut(msg, ":")
	switch {
	case keyword == "required":
		missing := quotedStrings(msg)
		for i, n := range missing {
			missing[i] = qualify(n)
		}
		if len(missing) == 1 {
			return fmt.Errorf("missing required argument %s", missing[0])
		}
		return fmt.Errorf("missing required arguments %s", strings.Join(missing, ", "))
	case strings.HasPrefix(msg, "unexpected additional properties"):
		unknown := quotedStrings(msg)
		slices.Sort(unknown)
		for i, n := range unknown {
			unknown[i] = qualify(n)
		}
		var known []string
		if sub != nil {
			for n := range sub.Properties {
				known = append(known, n)
			}
			slices.Sort(known)
		}
		what := "unknown argument " + strings.Join(unknown, ", ")
		if len(unknown) > 1 {
			what = "unknown arguments " + strings.Join(unknown, ", ")
		}
		return fmt.Errorf("%s; the accepted arguments are %s", what, strings.Join(known, ", "))
	case sub == nil || arg == "":
		return errors.New(msg)
	case keyword == "type":
		return fmt.Errorf("argument %q must be %s, not %s", arg, article(sub.Type), article(jsonType(value)))
	case keyword == "minimum" && sub.Minimum != nil:
		return fmt.Errorf("argument %q must be at least %s", arg, formatNumber(*sub.Minimum))
	case keyword == "maximum" && sub.Maximum != nil:
		return fmt.Errorf("argument %q must be at most %s", arg, formatNumber(*sub.Maximum))
	case keyword == "minLength" && sub.MinLength != nil && *sub.MinLength == 1:
		return fmt.Errorf("argument %q must not be empty", arg)
	}
	return fmt.Errorf("argument %q is invalid: %s", arg, msg)
}

// propertyPath turns a schema path such as "/properties/a/properties/b" into [a b]. The root
// schema's path ("root" or "") gives none.
func propertyPath(path string) []string {
	var names []string
	for rest := path; ; {
		_, after, ok := strings.Cut(rest, "/properties/")
		if !ok {
			return names
		}
		name, tail, _ := strings.Cut(after, "/")
		names = append(names, strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~"))
		if tail == "" {
			return names
		}
		rest = "/" + tail
	}
}

// quotedStrings returns the Go-quoted strings in s, unquoted, in order.
func quotedStrings(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return out
		}
		q, err := strconv.QuotedPrefix(s[i:])
		if err != nil {
			return out
		}
		if u, err := strconv.Unquote(q); err == nil {
			out = append(out, u)
		}
		s = s[i+len(q):]
	}
}

// jsonType names the JSON type of a decoded value the way JSON Schema does.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// article puts "a" or "an" before a JSON type name, for sentences like "must be an integer".
func article(typ string) string {
	switch typ {
	case "":
		return "a value"
	case "null":
		return "null"
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
