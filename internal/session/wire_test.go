package session

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

// The fast decoder must read exactly what llm's decoder reads. If llm.Message gains a field,
// wireMessage must carry it too (llm.Content is guarded by the conversion in wire.go, which
// stops compiling).
func TestWireMessageMirrorsLLM(t *testing.T) {
	var want []string
	for f := range reflect.TypeFor[llm.Message]().Fields() {
		want = append(want, f.Name)
	}
	var got []string
	for f := range reflect.TypeFor[wireMessage]().Fields() {
		got = append(got, f.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("llm.Message has fields %v; session's wireMessage has %v", want, got)
	}
}

func TestFastDecodeMatchesLLM(t *testing.T) {
	for _, msg := range []string{
		`{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","data":"iVBOR","mimeType":"image/png"}],"timestamp":1}`,
		`{"role":"user","content":"plain string","timestamp":2}`,
		`{"role":"user","content":null,"timestamp":2}`,
		`{"role":"user","timestamp":2}`,
		`{"role":"assistant","content":[{"type":"thinking","thinking":"hm","thinkingSignature":"sig","redacted":true},{"type":"toolCall","id":"t1","name":"bash","arguments":{"a":[1,2]}},{"type":"future","x":1}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":4,"totalTokens":10,"cost":{"input":0.1,"output":0.2,"cacheRead":0.3,"cacheWrite":0.4,"total":1}},"stopReason":"error","errorMessage":"boom","timestamp":3}`,
		`{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":"out"}],"details":{"diff":"-a\n+b"},"isError":true,"timestamp":4}`,
		`{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[],"isError":false,"timestamp":4}`,
	} {
		line := []byte(`{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-03-15T10:00:00.000Z","message":` + msg + `}`)
		var fast, slow lineJSON
		if err := decodeLine(line, &fast); err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
		if err := json.Unmarshal(line, &slow); err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s:\nfast %+v\nslow %+v", msg, *fast.Message, *slow.Message)
		}
	}
}
