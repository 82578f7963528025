package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// fastLineSeeds are lines as mom and pi write them, and lines that differ from those in the
// ways decodeLine must leave to encoding/json.
var fastLineSeeds = []string{
	`{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"[mario]: hi \u003cb\u003e \"q\" \\ \n\t é 😀"}],"timestamp":1773568800000}}`,
	`{"type":"message","id":"b2","parentId":"a1b2c3d4","timestamp":"2026-03-15T10:00:01Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"plan","thinkingSignature":"EqQB","redacted":false},{"type":"text","text":"Let me look."},{"type":"toolCall","id":"toolu_1","name":"bash","arguments":{"label":"ls","command":"ls -la"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3120,"output":88,"cacheRead":40000,"cacheWrite":3050,"totalTokens":46258,"cost":{"input":0.00936,"output":0.00132,"cacheRead":0.012,"cacheWrite":0.0114375,"total":0.0342175}},"stopReason":"toolUse","timestamp":1773568801000}}`,
	`{"type":"message","id":"c3","parentId":"b2","timestamp":"2026-03-15T10:00:02Z","message":{"role":"toolResult","toolCallId":"toolu_1","toolName":"bash","content":[{"type":"text","text":"total 0\n"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"details":{"truncation":{"truncated":false}},"isError":false,"timestamp":1773568802000}}`,
	`{"type":"compaction","id":"d4","parentId":"c3","timestamp":"2026-03-15T10:00:03Z","summary":"## Goal\nfix it","firstKeptEntryId":"b2","tokensBefore":183000,"details":{"readFiles":[],"modifiedFiles":["a.go"]}}`,
	`{"type":"custom","id":"e5","parentId":"d4","timestamp":"2026-03-15T10:00:04Z","customType":"mom-log-sync","data":{"offset":1234}}`,
	`{"type":"branch_summary","id":"f6","parentId":"e5","timestamp":"2026-03-15T10:00:05Z","fromId":"c3","summary":"tried another way"}`,
	`{"type":"model_change","id":"g7","parentId":"f6","timestamp":"2026-03-15T10:00:06Z","provider":"openai","modelId":"gpt-4.1"}`,
	`{"type":"message","id":"h8","parentId":"g7","timestamp":"2026-03-15T10:00:07Z","message":{"role":"user","content":"plain string, as pi writes it","timestamp":1}}`,
	`{"type":"message","id":"i9","parentId":"h8","timestamp":"x","message":{"role":"bashExecution","command":"ls","output":"","exitCode":0}}`,
	`{"type":"message","id":"j","Type":"custom"}`,
	`{"type":"message","id":"k","id":"k2"}`,
	`{"type":"message","id":"l","message":null,"details":null,"data":null}`,
	`{"type":"message","id":"m","message":{"role":"user","content":[],"timestamp":1.5}}`,
	`{"type":"message","id":"n","message":{"role":"user","content":[null],"timestamp":-0}}`,
	`{"type":"message","id":"o","message":{"role":"user","content":[{"type":"text","text":"lone \ud800 surrogate"}]}}`,
	"{\"type\":\"message\",\"id\":\"p\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"bad \xff byte\"}]}}",
	`{"type":"custom","id":"q","tokensBefore":1e3,"extra":[1,{"a":[true,false,null,-1.5e-3]},"\u00e9"]}`,
	` {"type" : "custom" , "id" : "r" } `,
	`{"type":"custom","id":"s"} x`,
	`{"type":"custom","id":"t",}`,
	`{"type":"custom","id":"u","data":{"a":01}}`,
	`{"type":"message","id":"v","message":{"role":"assistant","usage":{"input":9223372036854775808}}}`,
	`{"type":"message","id":"w","message":{"role":"assistant","usage":{"cost":{"total":1e400}}}}`,
	`[]`,
	`{"type":"message","id":"x","message":{"role":"user","content":[{"type":"text","text":"\u0000\u001b[31m\u2028"}]}}`,
}

// decodeLineAgrees fails t unless decodeLine either gives up on line or reads it exactly as
// encoding/json does, without error.
func decodeLineAgrees(t *testing.T, line []byte) (handled bool) {
	var fast lineJSON
	if !decodeLine(line, &fast) {
		return false
	}
	var slow lineJSON
	if err := json.Unmarshal(line, &slow); err != nil {
		t.Fatalf("decodeLine read a line that encoding/json refuses (%v):\n%s", err, line)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decodeLine and encoding/json differ on\n%s\nfast: %#v\nslow: %#v", line, fast, slow)
	}
	return true
}

func TestDecodeLineAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	handled := 0
	for _, s := range fastLineSeeds {
		if decodeLineAgrees(t, []byte(s)) {
			handled++
		}
	}
	// The first seven are what mom and pi write every day: the fast path must take them.
	for _, s := range fastLineSeeds[:7] {
		var l lineJSON
		if !decodeLine([]byte(s), &l) {
			t.Errorf("decodeLine left an ordinary line to encoding/json:\n%s", s)
		}
	}
	if handled == len(fastLineSeeds) {
		t.Error("decodeLine took every seed, also those it must leave to encoding/json")
	}
}

func TestDecodeLineLeavesOddLinesToEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`{"type":"message","id":"j","Type":"custom"}`, // encoding/json matches keys regardless of case
		`{"type":"message","id":"k","id":"k2"}`,       // and merges a key given twice
		`{"type":"message","id":"h8","message":{"role":"user","content":"plain"}}`,
		`{"type":"message","id":"o","message":{"role":"user","content":[{"type":"text","text":"\ud800"}]}}`,
		"{\"type\":\"custom\",\"id\":\"\xff\"}",
		`{"type":"custom","id":"a","tokensBefore":1.0}`,
		`{"type":"custom","id":"a","summary":null}`,
		strings.Repeat(`{"a":`, maxDepth+2) + "1" + strings.Repeat("}", maxDepth+2),
	} {
		var l lineJSON
		if decodeLine([]byte(s), &l) {
			t.Errorf("decodeLine took a line it must leave to encoding/json:\n%.200s", s)
		}
	}
}

// FuzzDecodeLine holds decodeLine to its promise: whatever it reads, it reads exactly as
// encoding/json does.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range fastLineSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		decodeLineAgrees(t, line)
	})
}
