package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

func TestBuiltinOrderAndSchemas(t *testing.T) {
	var names []string
	for _, tool := range Builtin() {
		def := tool.Def()
		names = append(names, def.Name)
		if def.Description == "" {
			t.Errorf("%s has no description", def.Name)
		}
		var s struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(def.Parameters, &s); err != nil {
			t.Fatalf("%s: %v", def.Name, err)
		}
		if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema must be a closed object: %s", def.Name, def.Parameters)
		}
		if !slices.Contains(s.Required, "label") {
			t.Errorf("%s: label is not required", def.Name)
		}
		var label struct{ Type, Description string }
		json.Unmarshal(s.Properties["label"], &label)
		if label.Type != "string" || !strings.Contains(label.Description, "shown to the user") {
			t.Errorf("%s: label %s", def.Name, s.Properties["label"])
		}
		// The label comes first in the schema, so the model writes it first and people see it
		// as soon as the call starts streaming.
		if !strings.HasPrefix(string(def.Parameters), `{"type":"object","properties":{"label":`) {
			t.Errorf("%s: label is not the first property: %s", def.Name, def.Parameters)
		}
		// The schema is resolved on the first call's validation; it must resolve.
		if _, err := newValidator(def.Parameters); err != nil {
			t.Errorf("%s: the schema does not resolve: %v", def.Name, err)
		}
	}
	if want := []string{"read", "bash", "edit", "write", "attach"}; !slices.Equal(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		tool Tool
		args string
		want string // "" for valid
	}{
		{NewBash(), `{"label":"x","command":"ls"}`, ""},
		{NewBash(), `{"label":"x","command":"ls","timeout":30}`, ""},
		{NewBash(), `{"label":"x","command":"ls","timeout":2.5}`, ""},
		{NewBash(), `{"command":"ls"}`, `missing required argument "label"`},
		{NewBash(), `{}`, `missing required arguments "label", "command"`},
		{NewBash(), ``, `missing required arguments "label", "command"`},
		{NewBash(), `null`, `missing required arguments "label", "command"`},
		{NewBash(), `{"label":"x","command":"ls","timeout":"10"}`, `argument "timeout" must be a number, not a string`},
		{NewBash(), `{"label":5,"command":"ls"}`, `argument "label" must be a string, not an integer`},
		{NewBash(), `{"label":"x","command":null}`, `argument "command" must be a string, not null`},
		{NewBash(), `{"label":"x","command":"ls","cwd":"/"}`, `unknown argument "cwd"; the accepted arguments are command, label, timeout`},
		{NewBash(), `{"label":"x","command":"ls","b":1,"a":2}`, `unknown arguments "a", "b"; the accepted arguments are command, label, timeout`},
		{NewBash(), `["ls"]`, `arguments must be a JSON object, not an array`},
		{NewBash(), `{"label":`, `arguments are not valid JSON: unexpected end of JSON input`},
		{NewRead(), `{"label":"x","path":"f","offset":0}`, `argument "offset" must be at least 1`},
		{NewRead(), `{"label":"x","path":"f","limit":1.5}`, `argument "limit" must be an integer, not a number`},
		{NewRead(), `{"label":"x","path":"f","offset":3.0}`, ""},
		{NewEdit(), `{"label":"x","path":"f","oldText":"","newText":"y"}`, `argument "oldText" must not be empty`},
		{NewEdit(), `{"label":"x","path":"f","oldText":"a"}`, `missing required argument "newText"`},
		{NewWrite(), `{"label":"x","path":"f","content":["a"]}`, `argument "content" must be a string, not an array`},
		{NewAttach(), `{"label":"x","path":"f","title":{}}`, `argument "title" must be a string, not an object`},
	} {
		err := Validate(tc.tool, json.RawMessage(tc.args))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool.Def().Name, tc.args, got, tc.want)
		}
	}
}

// customTool is a tool from elsewhere (an MCP server, say), with a schema Validate has not seen.
type customTool struct{ schema string }

func (c customTool) Def() llm.Tool {
	return llm.Tool{Name: "custom", Parameters: json.RawMessage(c.schema)}
}

func (customTool) Run(context.Context, *Env, json.RawMessage) (Result, error) { return Result{}, nil }

func TestValidateOtherTools(t *testing.T) {
	tool := customTool{`{"type":"object","properties":{"opts":{"type":"object","properties":{"depth":{"type":"integer","maximum":3}},"required":["mode"]}}}`}
	for args, want := range map[string]string{
		`{"opts":{"mode":1}}`:             "",
		`{"opts":{"mode":1,"depth":9}}`:   `argument "opts.depth" must be at most 3`,
		`{"opts":{}}`:                     `missing required argument "opts.mode"`,
		`{"opts":{"mode":1,"depth":"x"}}`: `argument "opts.depth" must be an integer, not a string`,
	} {
		err := Validate(tool, json.RawMessage(args))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", args, got, want)
		}
	}
	if err := Validate(customTool{`{"type":`}, json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "schema is broken") {
		t.Errorf("broken schema: %v", err)
	}
	v, err := NewValidator(tool)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(json.RawMessage(`{"opts":{"mode":1}}`)); err != nil {
		t.Error(err)
	}
}

func BenchmarkValidateBash(b *testing.B) {
	bash := NewBash()
	args := json.RawMessage(`{"label":"Listing files","command":"ls -la","timeout":30}`)
	for b.Loop() {
		if err := Validate(bash, args); err != nil {
			b.Fatal(err)
		}
	}
}
