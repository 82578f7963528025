package pimport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/session"
)

var hex8 = regexp.MustCompile(`^[0-9a-f]{8}$`)

// migrate writes content as an old context.jsonl, migrates it and returns the result's lines
// as objects, after checking them against pi's rules and loading them with mom's loader.
func migrate(t *testing.T, content string) (migrated, []map[string]any) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.jsonl"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	d := confined.Root(dir)
	mig, err := migrateContext(d, "old.jsonl", d, "context.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "context.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := session.CheckFormat(bytes.NewReader(data)); err != nil {
		t.Fatalf("the result breaks pi's format: %v\n%s", err, data)
	}
	s, err := session.Open(d, "context.jsonl", "/unused")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Recovered() != "" || s.Stats().Malformed != 0 || s.Stats().Lines != mig.entries+1 {
		t.Fatalf("mom's loader: recovered %q, stats %+v, for %d entries", s.Recovered(), s.Stats(), mig.entries)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return mig, out
}

const v1Header = `{"type":"session","id":"sess-1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp","provider":"anthropic","modelId":"claude-sonnet-4-5","thinkingLevel":"off"}`

func v1Message(role, text string, ms int) string {
	return `{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"` + role + `","content":[{"type":"text","text":` + enc(text) + `}],"timestamp":` + enc(ms) + `}}`
}

func enc(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestMigrateV1 is pi's migration test "should add id/parentId to v1 entries" and its
// compaction conversion: 8-hex ids, the first parentId null, a linear chain, the header's
// version 3 with its other keys kept, firstKeptEntryIndex (counting the header as 0) turned
// into the id of the entry there.
func TestMigrateV1(t *testing.T) {
	t.Parallel()
	content := strings.Join([]string{
		v1Header,
		v1Message("user", "hi", 1),
		`not json`,
		v1Message("user", "[2025-01-01 01:00:00+01:00] [ada]: keep this\n\n<slack_attachments>\n/workspace/C1/attachments/x\n</slack_attachments>", 2),
		`{"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"sum","firstKeptEntryIndex":2,"tokensBefore":10}`,
		`{"type":"compaction","timestamp":"2025-01-01T00:00:04.000Z","summary":"ahead","firstKeptEntryIndex":9,"tokensBefore":10}`,
	}, "\n") + "\n"
	mig, lines := migrate(t, content)
	if mig.version != 1 || mig.entries != 4 || mig.dropped != 1 {
		t.Fatalf("migrated %+v", mig)
	}
	h := lines[0]
	if h["version"] != 3.0 || h["id"] != "sess-1" || h["modelId"] != "claude-sonnet-4-5" {
		t.Fatalf("header %v", h)
	}
	var prev any
	for i, l := range lines[1:] {
		if id, _ := l["id"].(string); !hex8.MatchString(id) || l["parentId"] != prev {
			t.Fatalf("entry %d: id %v parentId %v, want parent %v", i+1, l["id"], l["parentId"], prev)
		}
		prev = l["id"]
	}
	// Index 2 is the second entry after the header (the malformed line is not an entry).
	if c := lines[3]; c["firstKeptEntryId"] != lines[2]["id"] || c["firstKeptEntryIndex"] != nil {
		t.Fatalf("compaction %v, want firstKeptEntryId %v", c, lines[2]["id"])
	}
	// An index past the entry names no entry with an id yet: pi sets none, and neither do we.
	if c := lines[4]; c["firstKeptEntryId"] != nil || c["firstKeptEntryIndex"] != nil {
		t.Fatalf("compaction ahead %v", c)
	}
	want := map[string]bool{"[ada]: keep this": true, "hi": true}
	if len(mig.userTexts) != 2 || !mig.userTexts["[ada]: keep this"] || !mig.userTexts["hi"] {
		t.Fatalf("user texts %v, want %v", mig.userTexts, want)
	}
}

// TestMigrateV2 is pi's "should repair v2 sessions that contain trailing entries without
// id/parentId" with its v2 → v3 rename: ids there stay, missing ones are chained to the entry
// before, hookMessage becomes custom, and a branch is kept as it was.
func TestMigrateV2(t *testing.T) {
	t.Parallel()
	content := `{"type":"session","id":"sess-1","version":2,"timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}
{"type":"message","id":"abc12345","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"def67890","parentId":"abc12345","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"abandoned","timestamp":2}}
{"type":"message","id":"0badc0de","parentId":"abc12345","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"hookMessage","customType":"x","content":"hook <&>","display":true,"timestamp":3}}
{"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":{"role":"user","content":"later","timestamp":4}}
`
	mig, lines := migrate(t, content)
	if mig.version != 2 || mig.entries != 4 {
		t.Fatalf("migrated %+v", mig)
	}
	if lines[1]["id"] != "abc12345" || lines[2]["id"] != "def67890" || lines[3]["id"] != "0badc0de" || lines[3]["parentId"] != "abc12345" {
		t.Fatalf("ids changed: %v", lines)
	}
	if id, _ := lines[4]["id"].(string); !hex8.MatchString(id) || lines[4]["parentId"] != "0badc0de" {
		t.Fatalf("repaired entry %v", lines[4])
	}
	if msg := lines[3]["message"].(map[string]any); msg["role"] != "custom" || msg["content"] != "hook <&>" {
		t.Fatalf("hookMessage %v", msg)
	}
	if !mig.userTexts["abandoned"] {
		t.Fatal("the original compared with user messages on every branch")
	}
}

// TestMigrateV3KeepsEntries: pi's "should be idempotent": a v3 file's entries are written
// back as they were, byte for byte.
func TestMigrateV3KeepsEntries(t *testing.T) {
	t.Parallel()
	header := `{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}`
	entry := `{"type":"message","id":"abc12345","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"<b> & </b>"}],"timestamp":1}}`
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old.jsonl"), []byte(header+"\n"+entry+"\n"), 0o644)
	d := confined.Root(dir)
	if _, err := migrateContext(d, "old.jsonl", d, "context.jsonl"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "context.jsonl"))
	if string(got) != header+"\n"+entry+"\n" {
		t.Fatalf("got\n%s", got)
	}
}

// TestMigrateRefuses: what pi would not migrate (no header: it starts over) and what mom does
// not know (a newer version) is refused, and nothing is written.
func TestMigrateRefuses(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"no header": v1Message("user", "hi", 1) + "\n",
		"header id": `{"type":"session","timestamp":"2025-01-01T00:00:00.000Z"}` + "\n",
		"v4":        `{"type":"session","version":4,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}` + "\n",
		"empty":     "",
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "old.jsonl"), []byte(content), 0o644)
		d := confined.Root(dir)
		if _, err := migrateContext(d, "old.jsonl", d, "context.jsonl"); err == nil {
			t.Errorf("%s: migrated", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "context.jsonl")); err == nil {
			t.Errorf("%s: wrote a file", name)
		}
	}
}

// FuzzMigrateContext: whatever the old file holds, the migration does not panic, and what it
// writes keeps pi's rules and loads whole with mom's loader.
func FuzzMigrateContext(f *testing.F) {
	f.Add([]byte(v1Header + "\n" + v1Message("user", "hi", 1) + "\n" + `{"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":1,"tokensBefore":1}` + "\n"))
	f.Add([]byte(`{"type":"session","version":2,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}` + "\n" + `{"type":"message","id":"abc12345","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"hookMessage","content":"x","timestamp":1}}` + "\n"))
	f.Fuzz(func(t *testing.T, content []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "old.jsonl"), content, 0o644); err != nil {
			t.Fatal(err)
		}
		d := confined.Root(dir)
		mig, err := migrateContext(d, "old.jsonl", d, "context.jsonl")
		if err != nil {
			return
		}
		data, _ := os.ReadFile(filepath.Join(dir, "context.jsonl"))
		if err := session.CheckFormat(bytes.NewReader(data)); err != nil {
			// The importer refuses such a result (pi's rules are checked before it is used);
			// what matters here is that nothing else goes wrong.
			return
		}
		s, err := session.Open(d, "context.jsonl", "/")
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.Recovered() != "" || s.Stats().Lines != mig.entries+1 {
			t.Fatalf("a result that keeps pi's rules did not load whole: %+v for %d entries\n%s", s.Stats(), mig.entries, data)
		}
	})
}
