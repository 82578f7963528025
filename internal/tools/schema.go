package tools

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/mom-agent/mom/internal/llm"
)

// labelProperty is the "label" argument every built-in tool requires, first in each schema:
// people watching the chat see it while the tool runs.
const labelProperty = `"label": {"type": "string", "description": "A few words shown to the user about what you are doing, e.g. \"Reading the config\"."}`

// definition is a built-in tool's name, description and schema, with the schema resolved for
// validation once, when a call of the tool is first validated: building the validators cost
// more than the rest of a one-shot run's set-up, and most runs call few of the tools. The
// schemas are constants in the tool files, so a broken one is a programming error caught by
// the tests (TestBuiltinOrderAndSchemas resolves each), and resolving it panics.
type definition struct {
	def       llm.Tool
	validates func() *Validator
}

func mustDefine(name, description, schema string) definition {
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(schema)); err != nil {
		panic("tools: schema of " + name + ": " + err.Error())
	}
	params := compact.Bytes()
	return definition{
		def: llm.Tool{Name: name, Description: description, Parameters: params},
		validates: sync.OnceValue(func() *Validator {
			v, err := newValidator(params)
			if err != nil {
				panic("tools: schema of " + name + ": " + err.Error())
			}
			return v
		}),
	}
}

// Def returns the tool's definition.
func (d definition) Def() llm.Tool { return d.def }

func (d definition) validator() *Validator { return d.validates() }

// resolved is the definition of a tool whose schema was resolved when it was made: custom
// tools, whose schema comes from outside and must be refused up front if it is broken.
func resolved(def llm.Tool, v *Validator) definition {
	return definition{def: def, validates: func() *Validator { return v }}
}
