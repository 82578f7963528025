package session

import (
	"strings"
	"testing"
)

// TestCheckFormatAcceptsPi: pi's own example, which branches and holds every entry type,
// keeps the rules.
func TestCheckFormatAcceptsPi(t *testing.T) {
	t.Parallel()
	if err := CheckFormat(strings.NewReader(piFixture)); err != nil {
		t.Fatal(err)
	}
}

// TestCheckFormatRefuses: each rule broken once, in an otherwise good file, is named with its
// line.
func TestCheckFormatRefuses(t *testing.T) {
	t.Parallel()
	const header = `{"type":"session","version":3,"id":"s","timestamp":"2026-03-15T10:00:00.000Z","cwd":"/"}` + "\n"
	const first = `{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-03-15T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1773568801000}}` + "\n"
	for name, tc := range map[string]struct{ file, want string }{
		"empty":          {"", "empty"},
		"no newline":     {strings.TrimSuffix(header, "\n"), "line 1 does not end with a newline"},
		"v2 header":      {strings.Replace(header, `"version":3`, `"version":2`, 1), "line 1: the header's version is 2"},
		"v1 header":      {strings.Replace(header, `"version":3,`, ``, 1), "line 1: the header's version is missing"},
		"not a header":   {first, "line 1: the header's type is \"message\""},
		"header no cwd":  {strings.Replace(header, `,"cwd":"/"`, ``, 1), "no string cwd"},
		"not json":       {header + "{oops\n", "line 2: not a JSON object"},
		"v1 entry":       {header + `{"type":"message","timestamp":"2026-03-15T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n", `line 2: the entry's id ""`},
		"duplicate id":   {header + first + strings.Replace(first, `"parentId":null`, `"parentId":"a1b2c3d4"`, 1), "line 3: the id a1b2c3d4 is used twice"},
		"no parentId":    {header + strings.Replace(first, `"parentId":null,`, ``, 1), "line 2: the entry has no parentId"},
		"orphan":         {header + strings.Replace(first, `"parentId":null`, `"parentId":"ffffffff"`, 1), `parentId "ffffffff" names no earlier entry`},
		"entry time":     {header + strings.Replace(first, `"2026-03-15T10:00:01.000Z"`, `1773568801000`, 1), "timestamp is 1773568801000, not an ISO 8601 string"},
		"message time":   {header + strings.Replace(first, `"timestamp":1773568801000`, `"timestamp":"2026-03-15T10:00:01.000Z"`, 1), "timestamp is not a number"},
		"no content":     {header + strings.Replace(first, `"content":"hi",`, ``, 1), "the user message has no content"},
		"hookMessage ok": {header + strings.Replace(first, `"role":"user","content":"hi"`, `"role":"custom","customType":"x","content":"hi","display":true`, 1), ""},
		"kept ahead": {header + first + `{"type":"compaction","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2026-03-15T10:00:02.000Z","summary":"s","firstKeptEntryId":"c3d4e5f6","tokensBefore":5}` + "\n",
			`firstKeptEntryId "c3d4e5f6" names no earlier entry`},
		"no customType": {header + `{"type":"custom","id":"b2c3d4e5","parentId":null,"timestamp":"2026-03-15T10:00:02.000Z"}` + "\n", "no customType"},
	} {
		err := CheckFormat(strings.NewReader(tc.file))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error with %q", name, err, tc.want)
		}
	}
}
