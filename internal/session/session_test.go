package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/llm"
)

var (
	reUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	reID   = regexp.MustCompile(`^[0-9a-f]{8}$`)
	reISO  = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

// conversation appends the shapes mom writes and returns the entries.
func conversation(t testing.TB, s *Session) []Entry {
	t.Helper()
	base := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	var out []Entry
	add := func(e Entry, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	add(s.AppendMessage(llm.NewUserText("[mario]: what's in <this> & that?", base)))
	add(s.AppendMessage(llm.Message{
		Role: llm.RoleAssistant,
		Content: []llm.Content{llm.Text("Let me look."),
			llm.ToolCall("toolu_01ABC", "bash", json.RawMessage(`{"label":"list","command":"ls"}`))},
		API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5",
		Usage:      llm.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}.Apply(llm.Usage{Input: 3120, Output: 88, CacheWrite: 3050}),
		StopReason: llm.StopToolUse, Timestamp: base.Add(3 * time.Second).UnixMilli(),
	}))
	add(s.AppendMessage(llm.Message{
		Role: llm.RoleToolResult, ToolCallID: "toolu_01ABC", ToolName: "bash", IsError: true,
		Content: []llm.Content{llm.Text("ls: cannot access: No such file")}, Timestamp: base.Add(4 * time.Second).UnixMilli(),
	}))
	add(s.AppendCustom("mom.logSync", map[string]any{"offset": 1234}))
	add(s.AppendMessage(llm.Message{
		Role: llm.RoleAssistant, Content: []llm.Content{llm.Text("Nothing there.")},
		API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", StopReason: llm.StopEnd,
	}))
	add(s.AppendCompaction("## Goal\nlook at files", out[0].ID, 6258, map[string]any{"readFiles": []string{}, "modifiedFiles": []string{}}))
	add(s.AppendMessage(llm.NewUserText("[mario]: thanks", base.Add(time.Minute))))
	return out
}

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatalf("%s does not end with a newline", path)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", len(out)+1, err, sc.Bytes())
		}
		out = append(out, m)
	}
	return out
}

// checkPiFormat fails the test unless the file at path keeps pi's format rules (CheckFormat).
func checkPiFormat(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := CheckFormat(f); err != nil {
		t.Fatalf("%s breaks pi's format: %v", path, err)
	}
}

func keys(m map[string]any) string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return strings.Join(k, ",")
}

func TestWrittenFileMatchesPiFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c", "context.jsonl")
	s, err := openPath(path, "/data/workspace/channels/slack/C1")
	if err != nil {
		t.Fatal(err)
	}
	written := conversation(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	checkPiFormat(t, path)
	lines := readLines(t, path)
	if len(lines) != 1+len(written) {
		t.Fatalf("%d lines for %d entries", len(lines), len(written))
	}
	h := lines[0]
	if keys(h) != "cwd,id,timestamp,type,version" || !reUUID.MatchString(h["id"].(string)) ||
		!reISO.MatchString(h["timestamp"].(string)) || h["cwd"] != "/data/workspace/channels/slack/C1" {
		t.Fatalf("header %v", h)
	}
	// Beyond pi's rules (CheckFormat): mom's ids are always 8 hex digits, its files linear,
	// its times in toISOString's own form.
	var parent any
	for n, l := range lines[1:] {
		id, _ := l["id"].(string)
		if !reID.MatchString(id) {
			t.Fatalf("line %d: id %q is not 8 hex digits", n+2, id)
		}
		if l["parentId"] != parent {
			t.Fatalf("line %d: parentId %v, want %v", n+2, l["parentId"], parent)
		}
		parent = id
		if ts, _ := l["timestamp"].(string); !reISO.MatchString(ts) {
			t.Fatalf("line %d: timestamp %q", n+2, ts)
		}
		if id != written[n].ID {
			t.Fatalf("line %d has id %s, AppendX returned %s", n+2, id, written[n].ID)
		}
		if l["type"] == "message" {
			msg := l["message"].(map[string]any)
			ts, err := msg["timestamp"].(json.Number).Int64()
			if err != nil || ts < 1_700_000_000_000 {
				t.Fatalf("line %d: message timestamp %v is not Unix ms", n+2, msg["timestamp"])
			}
		}
	}

	user := lines[1]["message"].(map[string]any)
	if keys(user) != "content,role,timestamp" || user["timestamp"] != json.Number("1773568800000") {
		t.Fatalf("user message %v", user)
	}
	asst := lines[2]["message"].(map[string]any)
	if keys(asst) != "api,content,model,provider,role,stopReason,timestamp,usage" || asst["stopReason"] != "toolUse" {
		t.Fatalf("assistant message keys %s", keys(asst))
	}
	usage := asst["usage"].(map[string]any)
	cost := usage["cost"].(map[string]any)
	if keys(usage) != "cacheRead,cacheWrite,cost,input,output,totalTokens" || usage["totalTokens"] != json.Number("6258") ||
		keys(cost) != "cacheRead,cacheWrite,input,output,total" || cost["total"] == json.Number("0") {
		t.Fatalf("usage %v", usage)
	}
	call := asst["content"].([]any)[1].(map[string]any)
	if keys(call) != "arguments,id,name,type" || call["type"] != "toolCall" {
		t.Fatalf("tool call %v", call)
	}
	res := lines[3]["message"].(map[string]any)
	if keys(res) != "content,isError,role,timestamp,toolCallId,toolName" || res["isError"] != true {
		t.Fatalf("tool result %v", res)
	}
	cust := lines[4]
	if keys(cust) != "customType,data,id,parentId,timestamp,type" || cust["customType"] != "mom.logSync" {
		t.Fatalf("custom %v", cust)
	}
	comp := lines[6]
	if keys(comp) != "details,firstKeptEntryId,id,parentId,summary,timestamp,tokensBefore,type" ||
		comp["firstKeptEntryId"] != written[0].ID || comp["tokensBefore"] != json.Number("6258") {
		t.Fatalf("compaction %v", comp)
	}
	// The timestamp of a message appended with none is the entry's.
	if lines[5]["message"].(map[string]any)["timestamp"] != json.Number(fmt.Sprint(written[4].Time.UnixMilli())) {
		t.Fatalf("zero timestamp not filled: %v", lines[5])
	}
	// JSON.stringify does not escape <, > or &; neither do we.
	data, _ := os.ReadFile(path)
	if !bytes.Contains(data, []byte(`what's in <this> & that?`)) {
		t.Fatal("text was HTML-escaped")
	}
}

func TestReopenGivesSameState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "context.jsonl")
	s, err := openPath(path, "/cwd")
	if err != nil {
		t.Fatal(err)
	}
	conversation(t, s)
	ctx, entries, id := s.Context(), s.Entries(), s.ID()
	s.Close()

	s2, err := openPath(path, "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.ID() != id || s2.Header().Cwd != "/cwd" || s2.Recovered() != "" {
		t.Fatalf("header changed: %+v", s2.Header())
	}
	if !reflect.DeepEqual(s2.Context(), ctx) {
		t.Fatalf("context differs after reopening:\n%+v\n%+v", s2.Context(), ctx)
	}
	got := s2.Entries()
	if len(got) != len(entries) {
		t.Fatalf("%d entries, want %d", len(got), len(entries))
	}
	for i := range got {
		// Times were written to the millisecond.
		entries[i].Time = entries[i].Time.Truncate(time.Millisecond)
		if !got[i].Time.Equal(entries[i].Time) {
			t.Fatalf("entry %d time %v, want %v", i, got[i].Time, entries[i].Time)
		}
		got[i].Time = entries[i].Time
		if !reflect.DeepEqual(got[i], entries[i]) {
			t.Fatalf("entry %d:\n%+v\n%+v", i, got[i], entries[i])
		}
	}
	if d, ok := s2.LastCustom("mom.logSync"); !ok || string(d) != `{"offset":1234}` {
		t.Fatalf("LastCustom = %s, %v", d, ok)
	}
	if _, ok := s2.LastCustom("nope"); ok {
		t.Fatal("LastCustom found a type never written")
	}
}

func TestCompactionContext(t *testing.T) {
	clock := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	s, err := openPath(filepath.Join(t.TempDir(), "context.jsonl"), "/", WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ids []string
	for i, text := range []string{"u1", "a1", "u2", "a2", "tr"} {
		var m llm.Message
		switch {
		case text[0] == 'u':
			m = llm.NewUserText(text, clock)
		case text[0] == 'a':
			m = llm.Message{Role: llm.RoleAssistant, Content: []llm.Content{llm.Text(text)}, StopReason: llm.StopEnd}
		default:
			m = llm.Message{Role: llm.RoleToolResult, ToolCallID: "x", ToolName: "bash", Content: []llm.Content{llm.Text(text)}}
		}
		e, err := s.AppendMessage(m)
		if err != nil {
			t.Fatal(i, err)
		}
		ids = append(ids, e.ID)
	}
	if _, err := s.AppendCompaction("s", ids[4], 1, nil); err == nil || !strings.Contains(err.Error(), "tool result") {
		t.Fatalf("compaction keeping a lone tool result: %v", err)
	}
	if _, err := s.AppendCompaction("s", "deadbeef", 1, nil); err == nil {
		t.Fatal("compaction keeping an unknown entry was accepted")
	}
	if _, err := s.AppendCustom("mom.x", nil); err != nil {
		t.Fatal(err)
	}
	c1, err := s.AppendCompaction("first summary", ids[1], 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.AppendMessage(llm.NewUserText("u3", clock))
	c2, err := s.AppendCompaction("second summary", ids[2], 200, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.AppendMessage(llm.NewUserText("u4", clock))

	var got []string
	for _, m := range s.Context() {
		got = append(got, m.Text())
	}
	want := []string{
		"The conversation history before this point was compacted into the following summary:\n\n<summary>\nsecond summary\n</summary>",
		"u2", "a2", "tr", "u3", "u4",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("context %q\nwant %q", got, want)
	}
	if ts := s.Context()[0].Timestamp; ts != c2.Time.UnixMilli() || c1.Time.Equal(c2.Time) {
		t.Fatalf("summary timestamp %d, compaction at %v", ts, c2.Time)
	}
	if d, ok := s.LastCustom("mom.x"); !ok || d != nil {
		t.Fatalf("custom without data: %s %v", d, ok)
	}
}

// piFixture is pimom.md §4.3's example, which branches: the branch_summary goes back to the
// first message, so the active branch is session_info → label → branch_summary → a1b2c3d4.
const piFixture = `{"type":"session","version":3,"id":"5f0c1a0e-2c43-4d4e-9f3e-8a9b2d1e7c11","timestamp":"2026-03-15T10:00:00.000Z","cwd":"/home/me/mom"}
{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-03-15T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"[mario]: morning all"}],"timestamp":1773568801000}}
{"type":"message","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2026-03-15T10:00:05.100Z","message":{"role":"user","content":[{"type":"text","text":"[2026-03-15 11:00:05+01:00] [mario]: what's in this file?\n\n<slack_attachments>\n/workspace/C123ABC/attachments/1773568805000_report.pdf\n</slack_attachments>"}],"timestamp":1773568805100}}
{"type":"message","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2026-03-15T10:00:08.900Z","message":{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"toolCall","id":"toolu_01ABC","name":"bash","arguments":{"label":"Extract PDF text","command":"pdftotext /workspace/C123ABC/attachments/1773568805000_report.pdf - | head -50"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3120,"output":88,"cacheRead":0,"cacheWrite":3050,"totalTokens":6258,"cost":{"input":0.00936,"output":0.00132,"cacheRead":0,"cacheWrite":0.0114375,"total":0.0221175}},"stopReason":"toolUse","timestamp":1773568806000}}
{"type":"message","id":"d4e5f6a7","parentId":"c3d4e5f6","timestamp":"2026-03-15T10:00:09.300Z","message":{"role":"toolResult","toolCallId":"toolu_01ABC","toolName":"bash","content":[{"type":"text","text":"Quarterly report ..."}],"isError":false,"timestamp":1773568809300}}
{"type":"compaction","id":"e5f6a7b8","parentId":"d4e5f6a7","timestamp":"2026-03-15T12:00:00.000Z","summary":"## Goal\n...\n<read-files>\n...\n</read-files>","firstKeptEntryId":"b2c3d4e5","tokensBefore":171234,"details":{"readFiles":[],"modifiedFiles":[]}}
{"type":"model_change","id":"f6a7b8c9","parentId":"e5f6a7b8","timestamp":"2026-03-15T12:01:00.000Z","provider":"openai","modelId":"gpt-4o"}
{"type":"thinking_level_change","id":"0a1b2c3d","parentId":"f6a7b8c9","timestamp":"2026-03-15T12:02:00.000Z","thinkingLevel":"high"}
{"type":"custom","id":"1b2c3d4e","parentId":"0a1b2c3d","timestamp":"2026-03-15T12:03:00.000Z","customType":"my-ext","data":{"count":42}}
{"type":"custom_message","id":"2c3d4e5f","parentId":"1b2c3d4e","timestamp":"2026-03-15T12:04:00.000Z","customType":"my-ext","content":"Injected context","display":true}
{"type":"branch_summary","id":"3d4e5f60","parentId":"a1b2c3d4","timestamp":"2026-03-15T12:05:00.000Z","fromId":"2c3d4e5f","summary":"Branch explored approach A..."}
{"type":"label","id":"4e5f6071","parentId":"3d4e5f60","timestamp":"2026-03-15T12:06:00.000Z","targetId":"a1b2c3d4","label":"checkpoint-1"}
{"type":"session_info","id":"5f607182","parentId":"4e5f6071","timestamp":"2026-03-15T12:07:00.000Z","name":"#dev-team"}
`

func TestPiFixtureLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "context.jsonl")
	os.WriteFile(path, []byte(piFixture), 0o644)
	s, err := openPath(path, "/ignored")
	if err != nil {
		t.Fatal(err)
	}
	if s.Recovered() != "" || s.ID() != "5f0c1a0e-2c43-4d4e-9f3e-8a9b2d1e7c11" || s.Stats().Lines != 13 || s.Stats().Malformed != 0 {
		t.Fatalf("recovered %q, header %+v, stats %+v", s.Recovered(), s.Header(), s.Stats())
	}
	var path4 []string
	for _, e := range s.Entries() {
		path4 = append(path4, string(e.Type)+":"+e.ID)
	}
	if strings.Join(path4, " ") != "message:a1b2c3d4 branch_summary:3d4e5f60 label:4e5f6071 session_info:5f607182" {
		t.Fatalf("active branch %v", path4)
	}
	ctx := s.Context()
	if len(ctx) != 2 || ctx[0].Text() != "[mario]: morning all" ||
		ctx[1].Text() != "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nBranch explored approach A...</summary>" ||
		ctx[1].Timestamp != 1773576300000 {
		t.Fatalf("context %+v", ctx)
	}
	if _, ok := s.LastCustom("my-ext"); ok {
		t.Fatal("a custom entry off the active branch was found")
	}
	// Appending continues the active branch.
	e, err := s.AppendMessage(llm.NewUserText("hi", time.Now()))
	if err != nil || e.ParentID != "5f607182" {
		t.Fatalf("appended %+v, %v", e, err)
	}
	s.Close()
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), piFixture) {
		t.Fatal("the fixture's bytes changed")
	}
}

func TestPiLinearFixtureWithForeignEntries(t *testing.T) {
	// The same entries chained linearly, plus pi message roles mom never writes, an unknown
	// entry type whose fields clash with known ones, and a malformed line.
	lines := strings.Split(strings.TrimSpace(piFixture), "\n")
	lines = lines[:10] // up to custom_message
	lines = append(lines,
		`{"type":"message","id":"6a7b8c9d","parentId":"2c3d4e5f","timestamp":"2026-03-15T12:08:00.000Z","message":{"role":"bashExecution","command":"make","output":"ok","exitCode":2,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/out","timestamp":1773576480000}}`,
		`{"type":"future_thing","id":"7b8c9d0e","parentId":"6a7b8c9d","timestamp":"2026-03-15T12:09:00.000Z","summary":{"x":1}}`,
		`not json at all`,
		`{"type":"message","id":"8c9d0e1f","parentId":"7b8c9d0e","timestamp":"2026-03-15T12:10:00.000Z","message":{"role":"custom","customType":"x","content":[{"type":"text","text":"from ext"}],"display":false,"timestamp":1773576600000}}`,
		`{"type":"message","id":"9d0e1f2a","parentId":"8c9d0e1f","timestamp":"2026-03-15T12:11:00.000Z","message":{"role":"bashExecution","command":"secret","output":"","exitCode":0,"cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":1773576660000}}`,
	)
	path := filepath.Join(t.TempDir(), "context.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	s, err := openPath(path, "/")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Len() != 13 || s.Stats().Malformed != 1 {
		t.Fatalf("len %d, stats %+v", s.Len(), s.Stats())
	}
	var got []string
	for _, m := range s.Context() {
		got = append(got, string(m.Role)+": "+m.Text())
	}
	want := []string{
		"user: The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\n...\n<read-files>\n...\n</read-files>\n</summary>",
		"user: [2026-03-15 11:00:05+01:00] [mario]: what's in this file?\n\n<slack_attachments>\n/workspace/C123ABC/attachments/1773568805000_report.pdf\n</slack_attachments>",
		"assistant: Let me look.",
		"toolResult: Quarterly report ...",
		"user: Injected context",
		"user: Ran `make`\n```\nok\n```\n\nCommand exited with code 2\n\n[Output truncated. Full output: /tmp/out]",
		"user: from ext",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("context:\n%q\nwant\n%q", got, want)
	}
	ctx := s.Context()
	if ctx[2].Usage.Cost.Total != 0.0221175 || len(ctx[2].ToolCalls()) != 1 || ctx[0].Timestamp != 1773576000000 {
		t.Fatalf("assistant %+v", ctx[2])
	}
	entries := s.Entries()
	if e := entries[len(entries)-3]; e.Type != "future_thing" || e.Raw == nil {
		t.Fatalf("unknown entry %+v", e)
	}
	if d, ok := s.LastCustom("my-ext"); !ok || string(d) != `{"count":42}` {
		t.Fatalf("LastCustom %s %v", d, ok)
	}
}

func TestUnusableHeaderIsMovedAside(t *testing.T) {
	for name, content := range map[string]string{
		"torn":    `{"type":"session","version":3,"id":"5f0c`,
		"garbage": "hello\n{\"type\":\"message\"}\n",
		"v2":      `{"type":"session","version":2,"id":"x","timestamp":"2026-03-15T10:00:00.000Z","cwd":"/"}` + "\n",
		"v1":      `{"type":"session","id":"x","timestamp":"2026-03-15T10:00:00.000Z","provider":"anthropic"}` + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "context.jsonl")
			os.WriteFile(path, []byte(content), 0o644)
			s, err := openPath(path, "/cwd")
			if err != nil {
				t.Fatal(err)
			}
			wantSuffix := "broken"
			if name == "v1" || name == "v2" {
				wantSuffix = name
			}
			if !strings.HasPrefix(s.Recovered(), path+"."+wantSuffix+"-") {
				t.Fatalf("Recovered() = %q", s.Recovered())
			}
			if backup, _ := os.ReadFile(s.Recovered()); string(backup) != content {
				t.Fatalf("backup holds %q", backup)
			}
			if _, err := s.AppendMessage(llm.NewUserText("hi", time.Now())); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s2, err := openPath(path, "/cwd")
			if err != nil || s2.Recovered() != "" || s2.Len() != 1 || s2.Context()[0].Text() != "hi" {
				t.Fatalf("reopen: %v %q %d", err, s2.Recovered(), s2.Len())
			}
			s2.Close()
			// No temporary files are left behind.
			if ents, _ := os.ReadDir(dir); len(ents) != 2 {
				t.Fatalf("directory holds %d files", len(ents))
			}
		})
	}
}

func TestEmptyFileGetsHeaderWithoutBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "context.jsonl")
	os.WriteFile(path, nil, 0o644)
	s, err := openPath(path, "/")
	if err != nil || s.Recovered() != "" || s.ID() == "" {
		t.Fatalf("%v %q", err, s.Recovered())
	}
	s.Close()
}

func TestCrashMidLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "context.jsonl")
	s, err := openPath(path, "/")
	if err != nil {
		t.Fatal(err)
	}
	written := conversation(t, s)
	s.Close()

	data, _ := os.ReadFile(path)
	lastStart := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	cut := lastStart + (len(data)-lastStart)/2
	if err := os.Truncate(path, int64(cut)); err != nil {
		t.Fatal(err)
	}

	s, err = openPath(path, "/")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(written)-1 || s.Stats().TornTail != int64(cut-lastStart) || s.Leaf() != written[len(written)-2].ID {
		t.Fatalf("after the crash: len %d, stats %+v", s.Len(), s.Stats())
	}
	before := s.Context()
	e, err := s.AppendMessage(llm.NewUserText("after the crash", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	after, _ := os.ReadFile(path)
	if !bytes.Equal(after[:cut], data[:cut]) || after[cut] != '\n' {
		t.Fatal("bytes before the torn line changed, or the append was glued to it")
	}
	s, err = openPath(path, "/")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := s.Context()
	if s.Len() != len(written) || s.Stats().Malformed != 1 || !reflect.DeepEqual(ctx[:len(ctx)-1], before) ||
		ctx[len(ctx)-1].Text() != "after the crash" || s.Leaf() != e.ID {
		t.Fatalf("reloaded: len %d stats %+v context %d", s.Len(), s.Stats(), len(ctx))
	}
}

func TestConcurrentReadersWhileAppending(t *testing.T) {
	s, err := openPath(filepath.Join(t.TempDir(), "context.jsonl"), "/")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				for _, m := range s.Context() {
					_ = m.Text()
				}
				_ = s.Entries()
				s.LastCustom("c")
				_ = s.Len()
			}
		}()
	}
	for i := range 300 {
		switch i % 3 {
		case 0:
			_, err = s.AppendMessage(llm.NewUserText(fmt.Sprint(i), time.Now()))
		case 1:
			_, err = s.AppendCustom("c", i)
		case 2:
			_, err = s.AppendCompaction("sum", s.Entries()[i-2].ID, i, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
}

func TestAppendAfterCloseFails(t *testing.T) {
	s, _ := openPath(filepath.Join(t.TempDir(), "context.jsonl"), "/")
	s.Close()
	if _, err := s.AppendMessage(llm.NewUserText("x", time.Now())); err == nil {
		t.Fatal("appended to a closed session")
	}
	if _, err := s.AppendMessage(llm.Message{Role: "compactionSummary"}); err == nil {
		t.Fatal("accepted a role pi refuses to store")
	}
}

// openPath opens the session file at path, for the tests that name files by path.
func openPath(path, cwd string, opts ...Option) (*Session, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return Open(confined.Root(filepath.Dir(path)), filepath.Base(path), cwd, opts...)
}
