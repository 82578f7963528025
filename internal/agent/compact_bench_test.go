package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
)

// BenchmarkCompact10000 compacts a channel whose context.jsonl holds 10,000 entries (people's
// messages, tool calls with 800-character results, answers) through Agent.Compact, the real
// Anthropic provider and a fake model that answers at once. harness-ms is the time spent
// outside the model request: reading the branch, choosing the cut, serializing the
// conversation, appending the entry and rebuilding the context.
func BenchmarkCompact10000(b *testing.B) {
	srv := fakellm.New(fakellm.WithAPIKey("k"))
	defer srv.Close()
	srv.Default(fakellm.Reply{Text: "## Goal\nbenchmark summary", ChunkSize: 64})
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	exec, err := sandbox.NewHost(st.Workspace())
	if err != nil {
		b.Fatal(err)
	}
	prov := &timedProvider{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL()})}
	ag := New(st, Options{Provider: prov, Model: llm.Lookup("anthropic", "claude-sonnet-4-5"), Exec: exec, Tools: tools.Builtin()})
	var harness time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		ch, err := st.ChannelDir("bench", fmt.Sprint("C", i))
		if err != nil {
			b.Fatal(err)
		}
		fill10000(b, ch)
		prov.spent = 0
		b.StartTimer()
		start := time.Now()
		info, err := ag.Compact(context.Background(), ch, "", "", nil)
		took := time.Since(start)
		if err != nil || info.Kept == 0 || info.Kept > 1000 {
			b.Fatalf("compact: %+v, %v", info, err)
		}
		harness += took - prov.spent
	}
	b.ReportMetric(float64(harness.Microseconds())/1000/float64(b.N), "harness-ms/op")
}

// fill10000 writes a 10,000-entry conversation into ch's context.jsonl.
func fill10000(b *testing.B, ch *store.ChannelDir) {
	b.Helper()
	sess, err := ch.Session()
	if err != nil {
		b.Fatal(err)
	}
	out := make([]byte, 800)
	for i := range out {
		out[i] = 'a' + byte(i%26)
	}
	for n := 0; sess.Len() < 10000; n++ {
		id := fmt.Sprint("toolu_", n)
		args, _ := json.Marshal(map[string]string{"label": "run the tests", "command": "make test"})
		msgs := []llm.Message{
			llm.NewUserText(fmt.Sprint("[mario]: message ", n, ", please run the tests again"), time.Now()),
			{Role: llm.RoleAssistant, StopReason: llm.StopToolUse, Content: []llm.Content{llm.Text("Running them."), llm.ToolCall(id, "bash", args)}},
			{Role: llm.RoleToolResult, ToolCallID: id, ToolName: "bash", Content: []llm.Content{llm.Text(string(out))}},
			{Role: llm.RoleAssistant, StopReason: llm.StopEnd, Content: []llm.Content{llm.Text("All green.")}, Usage: llm.Usage{Input: 150000}},
		}
		for _, m := range msgs {
			if _, err := sess.AppendMessage(m); err != nil {
				b.Fatal(err)
			}
		}
	}
}
