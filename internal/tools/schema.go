package tools

import (
	"bytes"
	"encoding/json"

	"github.com/mom-agent/mom/internal/llm"
)

// labelProperty is the "label" argument every built-in tool requires, first in each schema:
// people watching the chat see it while the tool runs.
const labelProperty = `"label": {"type": "string", "description": "A few words shown to the user about what you are doing, e.g. \"Reading the config\"."}`

// definition is a built-in tool's name, description and schema, with the schema resolved once
// for validation. The schemas are constants in the tool files, so a broken one is a programming
// error caught by the tests, and mustDefine panics on it.
type definition struct {
	def       llm.Tool
	validates *Validator
}

func mustDefine(name, description, schema string) definition {
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(schema)); err != nil {
		panic("tools: schema of " + name + ": " + err.Error())
	}
	v, err := newValidator(compact.Bytes())
	if err != nil {
		panic("tools: schema of " + name + ": " + err.Error())
	}
	return definition{
		def:       llm.Tool{Name: name, Description: description, Parameters: compact.Bytes()},
		validates: v,
	}
}

// Def returns the tool's definition.
func (d definition) Def() llm.Tool { return d.def }

func (d definition) validator() *Validator { return d.validates }
