package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
	"time"
)

// entryID is what pi's generateId makes: 8 hex digits, or a whole UUID after 100 collisions.
var entryID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9a-f]{8}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)
})

// CheckFormat reads a whole session file from r and checks it against the rules of pi's
// format, version 3, that pi's tools and mom's loader rely on:
//
//   - every line is one JSON object and ends with a newline;
//   - the first line is the header: type "session", version 3, a string id, an ISO 8601
//     timestamp and a cwd;
//   - every other line is an entry with a type, an id of 8 hex digits (or a UUID) unique in
//     the file, a parentId key that is null or names an earlier entry, and an ISO 8601
//     timestamp;
//   - a message entry holds a message with a role, content and a numeric timestamp (Unix
//     milliseconds); a compaction entry a summary, a numeric tokensBefore and, when it has
//     one, a firstKeptEntryId that names an earlier entry; a branch summary a fromId and a
//     summary; a custom or custom_message entry a customType.
//
// It reports the first rule broken, with its line number. mom checks what it writes for
// others to read with it (mom import's contexts), and its tests check what it appends.
func CheckFormat(r io.Reader) error {
	br := bufio.NewReader(r)
	ids := make(map[string]bool)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(line) > 0 {
				return fmt.Errorf("line %d does not end with a newline", n)
			}
			if n == 1 {
				return errors.New("the file is empty: it needs a session header")
			}
			return nil
		}
		if err != nil {
			return err
		}
		if err := checkLine(bytes.TrimSuffix(line, []byte("\n")), n == 1, ids); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
}

// checkLine checks one line; ids holds the entry ids seen so far and gets this entry's.
func checkLine(line []byte, header bool, ids map[string]bool) error {
	var l map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&l); err != nil || l == nil {
		return errors.New("not a JSON object")
	}
	if d.More() {
		return errors.New("more than one JSON value")
	}
	typ, _ := str(l, "type")
	if header {
		if typ != "session" {
			return fmt.Errorf("the header's type is %q, not \"session\"", typ)
		}
		if v, ok := l["version"]; !ok || string(v) != "3" {
			return fmt.Errorf("the header's version is %s, not 3", orMissing(v))
		}
		if id, ok := str(l, "id"); !ok || id == "" {
			return errors.New("the header has no string id")
		}
		if _, ok := str(l, "cwd"); !ok {
			return errors.New("the header has no string cwd")
		}
		return checkTime(l, "timestamp")
	}
	if typ == "" {
		return errors.New("the entry has no type")
	}
	if typ == "session" {
		return errors.New("a second session header")
	}
	id, _ := str(l, "id")
	if !entryID().MatchString(id) {
		return fmt.Errorf("the entry's id %q is not 8 hex digits", id)
	}
	if ids[id] {
		return fmt.Errorf("the id %s is used twice", id)
	}
	if err := checkRef(l, "parentId", ids, true); err != nil {
		return err
	}
	if err := checkTime(l, "timestamp"); err != nil {
		return err
	}
	ids[id] = true
	switch typ {
	case "message":
		return checkMessage(l["message"])
	case "compaction":
		if _, ok := str(l, "summary"); !ok {
			return errors.New("the compaction has no summary")
		}
		if !isNumber(l["tokensBefore"]) {
			return errors.New("the compaction's tokensBefore is not a number")
		}
		if _, ok := l["firstKeptEntryId"]; ok {
			return checkRef(l, "firstKeptEntryId", ids, false)
		}
	case "branch_summary":
		if _, ok := str(l, "fromId"); !ok {
			return errors.New("the branch summary has no fromId")
		}
		if _, ok := str(l, "summary"); !ok {
			return errors.New("the branch summary has no summary")
		}
	case "custom", "custom_message":
		if ct, _ := str(l, "customType"); ct == "" {
			return fmt.Errorf("the %s entry has no customType", typ)
		}
	}
	return nil
}

// checkMessage checks the message of a message entry.
func checkMessage(raw json.RawMessage) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return errors.New("the message entry has no message object")
	}
	if role, _ := str(m, "role"); role == "" {
		return errors.New("the message has no role")
	}
	if c := bytes.TrimSpace(m["content"]); len(c) == 0 || c[0] != '[' && c[0] != '"' {
		if role, _ := str(m, "role"); role == "user" || role == "assistant" || role == "toolResult" {
			return fmt.Errorf("the %s message has no content", role)
		}
	}
	if !isNumber(m["timestamp"]) {
		return errors.New("the message's timestamp is not a number of milliseconds")
	}
	return nil
}

// checkRef checks that key names an entry in ids (or is null, when nullable).
func checkRef(l map[string]json.RawMessage, key string, ids map[string]bool, nullable bool) error {
	raw, ok := l[key]
	if !ok {
		return fmt.Errorf("the entry has no %s", key)
	}
	if string(raw) == "null" && nullable {
		return nil
	}
	ref, ok := str(l, key)
	if !ok || !ids[ref] {
		return fmt.Errorf("%s %s names no earlier entry", key, raw)
	}
	return nil
}

// checkTime checks that key is an ISO 8601 time, as JavaScript's toISOString writes.
func checkTime(l map[string]json.RawMessage, key string) error {
	s, ok := str(l, key)
	if !ok {
		return fmt.Errorf("%s is %s, not an ISO 8601 string", key, orMissing(l[key]))
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return fmt.Errorf("%s %q is not an ISO 8601 time", key, s)
	}
	return nil
}

func str(l map[string]json.RawMessage, key string) (string, bool) {
	var s string
	raw, ok := l[key]
	if !ok || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func isNumber(raw json.RawMessage) bool {
	var n json.Number
	return len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &n) == nil
}

func orMissing(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	return string(raw)
}
