package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

// customSet is a fixed set of custom tools.
type customSet []Tool

func (s customSet) CustomTools() []Tool { return s }

// greeter is a custom tool that records the arguments it ran with.
func greeter(t *testing.T, ran *[]string) Tool {
	t.Helper()
	tool, err := NewCustom(llm.Tool{
		Name: "greet", Description: "Greet someone.",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": false}`),
	}, func(_ context.Context, env *Env, args json.RawMessage) (Result, error) {
		*ran = append(*ran, string(args))
		var a struct{ Name string }
		_ = json.Unmarshal(args, &a)
		if a.Name == "nobody" {
			return Result{}, errors.New("nobody is there")
		}
		return Result{Content: textContent("hello " + a.Name + " in " + env.Channel), Details: map[string]int{"n": 1}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestInvokeTool(t *testing.T) {
	var ran []string
	invoke := NewInvoke(customSet{greeter(t, &ran)})
	env := &Env{Channel: "cli/local"}
	callInvoke := func(args string) (Result, error) {
		t.Helper()
		if err := Validate(invoke, json.RawMessage(args)); err != nil {
			return Result{}, err
		}
		return invoke.Run(context.Background(), env, json.RawMessage(args))
	}

	res, err := callInvoke(`{"label": "greeting", "tool": "greet", "args": {"name": "Ada"}}`)
	if err != nil || resultText(res) != "hello Ada in cli/local" {
		t.Fatalf("greet: %q, %v", resultText(res), err)
	}
	if d, _ := json.Marshal(res.Details); string(d) != `{"tool":"greet","details":{"n":1}}` {
		t.Errorf("details = %s", d)
	}
	for args, want := range map[string]string{
		`{"label": "x", "tool": "greet", "args": {}}`:                 `invalid arguments for greet: missing required argument "name"`,
		`{"label": "x", "tool": "greet"}`:                             `invalid arguments for greet: missing required argument "name"`,
		`{"label": "x", "tool": "greet", "args": {"name": 1}}`:        `invalid arguments for greet: argument "name" must be a string, not an integer`,
		`{"label": "x", "tool": "greet", "args": "{\"name\":\"A\"}"}`: `argument "args" must be an object, not a string`,
		`{"label": "x", "tool": "shout", "args": {}}`:                 `there is no custom tool named "shout"; the custom tools are: greet`,
		`{"label": "x", "tool": "greet", "args": {"name": "nobody"}}`: `nobody is there`,
	} {
		if _, err := callInvoke(args); err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", args, err, want)
		}
	}
	if len(ran) != 2 {
		t.Errorf("the tool ran %d times (%v), want 2: bad arguments must stop it", len(ran), ran)
	}
	empty := NewInvoke(customSet{})
	if _, err := empty.Run(context.Background(), env, json.RawMessage(`{"tool": "greet"}`)); err == nil || !strings.Contains(err.Error(), "no custom tools are installed") {
		t.Errorf("with no custom tools: %v", err)
	}
}

func TestDirectAddsAndRemovesTheLabel(t *testing.T) {
	var ran []string
	d, err := Direct(greeter(t, &ran))
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"label": "greeting Ada", "name": "Ada"}`)
	if err := Validate(d, args); err != nil {
		t.Fatalf("a label was not accepted: %v", err)
	}
	if _, err := d.Run(context.Background(), &Env{}, args); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 1 || ran[0] != `{"name":"Ada"}` {
		t.Errorf("the tool got %v, want its own arguments only", ran)
	}
	if err := Validate(d, json.RawMessage(`{"label": "x"}`)); err == nil || !strings.Contains(err.Error(), `"name"`) {
		t.Errorf("the tool's own required argument is no longer required: %v", err)
	}
}

func TestCustomOutputIsCut(t *testing.T) {
	tool, err := NewCustom(llm.Tool{Name: "flood", Description: "x"}, func(context.Context, *Env, json.RawMessage) (Result, error) {
		return Result{Content: textContent(strings.Repeat("line\n", 5000))}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Run(context.Background(), &Env{}, nil)
	text := resultText(res)
	if err != nil || strings.Count(text, "line\n") != maxOutputLines || !strings.Contains(text, "[Output cut: showing 2000 of 5000 lines") {
		t.Errorf("output of %d bytes, err %v; ends %q", len(text), err, text[max(0, len(text)-80):])
	}
	if _, err := NewCustom(llm.Tool{Name: "bad", Parameters: json.RawMessage(`{"type": 5}`)}, nil); err == nil {
		t.Error("a broken schema was accepted")
	}
}
