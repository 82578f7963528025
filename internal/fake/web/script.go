package fakeweb

import (
	"sync"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// ScriptMidRun has the fake model answer a first run with a tool step ("Let me look.", the
// step labelled "Look") and then an answer, "The answer is 42.", held open until release is
// called (after which a second run is answered "Still 42."), and a third run with an answer
// that fails mid-stream ("Half an answer", overloaded) and its retry, "Done.". The test's end
// releases the held answer if the test did not.
func ScriptMidRun(t testing.TB, llm *fakellm.Server) (release func()) {
	hold := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	llm.Enqueue(
		fakellm.Reply{Text: "Let me look.", ToolCalls: []fakellm.ToolCall{fakellm.Call("bash", map[string]any{"label": "Look", "command": "echo looked"})}},
		fakellm.Reply{Text: "The answer is 42.", ChunkSize: 100, Hold: hold},
		fakellm.Text("Still 42."),
		fakellm.Reply{Text: "Half an answer", StreamError: &fakellm.APIError{Type: "overloaded_error", Message: "Overloaded"}},
		fakellm.Text("Done."),
	)
	return release
}
