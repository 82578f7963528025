package pimport

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
)

// The original mom kept its context.jsonl with pi-coding-agent's SessionManager, so the file
// is a pi session of whatever version that pi wrote: 1 (no ids), 2 (ids and parentId) or 3.
// migrateContext does what pi's SessionManager does when it opens an older one
// (session-manager.ts, migrateToCurrentVersion, then _rewriteFile):
//
//   - v1 → v2: every entry after the header gets an id (8 hex digits, unique in the file) and
//     the id of the entry before it as parentId, the first null; a compaction's
//     firstKeptEntryIndex (an index into the file's entries, the header being 0) becomes the
//     firstKeptEntryId of the entry there, and is dropped;
//   - v2 → v3: a message whose role is hookMessage gets the role custom;
//   - the header's version becomes 3, and the file is written out whole.
//
// Lines that are not JSON are dropped, as pi's loader drops them. Like pi's migration test
// ("should repair v2 sessions that contain trailing entries without id/parentId"), an entry of
// a v2 file that lacks an id gets one, chained to the entry before it. Everything else is
// kept as it was, key by key, value by value.

// migrated is what migrateContext found and wrote.
type migrated struct {
	version int // the version the file had
	entries int // entries written after the header
	dropped int // lines that were not JSON objects
	// userTexts are the texts of the user messages, as the original's log sync compares them
	// (see syncText): which of the log's messages the conversation holds already.
	userTexts map[string]bool
}

// migrateContext converts the context src/sname and writes the result to dst/dname, which
// must not exist. It fails, writing nothing, for a file with no session header (pi would
// start a new session over it) or of a version newer than 3.
func migrateContext(src confined.Dir, sname string, dst confined.Dir, dname string) (migrated, error) {
	res := migrated{userTexts: make(map[string]bool)}
	if st, err := src.Stat(sname); err == nil && st.Size() > maxContext {
		return res, errors.New(tooBig(st.Size(), maxContext))
	}
	// First pass: the header, and the ids entries have already, so that new ones never
	// collide with an id that comes later in the file.
	taken := make(map[string]bool)
	var header fields
	n := 0
	_, err := jsonl.Scan(src, sname, 0, func(line []byte, _, _ int64) error {
		obj, err := parseObject(line)
		if err != nil {
			return jsonl.ErrSkip
		}
		if n++; n == 1 {
			header = obj
			return nil
		}
		if id, ok := obj.str("id"); ok && id != "" {
			taken[id] = true
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("could not read it: %s", reason(err))
	}
	if typ, _ := header.str("type"); typ != "session" {
		return res, errors.New("its first line is not a session header, so pi would start a new session over it")
	}
	if _, ok := header.str("id"); !ok {
		return res, errors.New("its session header has no id, so pi would start a new session over it")
	}
	res.version = 1
	if v, ok := header.get("version"); ok {
		if res.version, err = strconv.Atoi(string(v)); err != nil || res.version < 1 {
			return res, fmt.Errorf("its session version %s is not a version", v)
		}
	}
	if res.version > 3 {
		return res, fmt.Errorf("its session version %d is newer than the 3 mom reads", res.version)
	}

	out, err := dst.OpenFile(dname, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return res, err
	}
	w := bufio.NewWriterSize(out, 64<<10)
	var ids []string // the id of each entry, by its index in the file (the header's is "")
	prev := ""       // the id of the entry before, for chaining
	first := true
	_, err = jsonl.Scan(src, sname, 0, func(line []byte, _, _ int64) error {
		obj, perr := parseObject(line)
		if perr != nil {
			res.dropped++
			return nil
		}
		if first {
			first = false
			ids = append(ids, "")
			return writeObject(w, obj.set("version", json.RawMessage("3")), nil)
		}
		e := obj
		if isType(e, "session") {
			res.dropped++ // a second header: pi skips it when it gives ids
			return nil
		}
		id, _ := e.str("id")
		switch {
		case res.version < 2:
			id = newID(taken)
			e = e.set("id", jsonString(id)).set("parentId", parentRef(prev))
			e = firstKeptByIndex(e, append(ids, id))
		case id == "":
			id = newID(taken)
			e = e.set("id", jsonString(id)).set("parentId", parentRef(prev))
		default:
			if _, ok := e.get("parentId"); !ok {
				e = e.set("parentId", json.RawMessage("null")) // what pi reads a missing one as
			}
		}
		if res.version < 3 {
			e = renameHookMessage(e)
		}
		ids = append(ids, id)
		prev = id
		res.entries++
		collectUserTexts(e, res.userTexts)
		return writeObject(w, e, []string{"type", "id", "parentId", "timestamp"})
	})
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		dst.Remove(dname)
		return res, fmt.Errorf("could not convert it: %w", err)
	}
	return res, nil
}

// firstKeptByIndex turns a v1 compaction's firstKeptEntryIndex, an index into the file's
// entries (the header is 0), into the firstKeptEntryId of the entry there. ids holds the id of
// every entry up to this one; an index past it names an entry with no id yet, and pi then sets
// no firstKeptEntryId either. An index that is not a number is left as pi leaves it.
func firstKeptByIndex(e fields, ids []string) fields {
	raw, ok := e.get("firstKeptEntryIndex")
	if !ok || !isType(e, "compaction") {
		return e
	}
	var idx json.Number
	if len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &idx) != nil {
		return e
	}
	if i, err := strconv.Atoi(idx.String()); err == nil && i > 0 && i < len(ids) {
		e = e.set("firstKeptEntryId", jsonString(ids[i]))
	}
	return e.del("firstKeptEntryIndex")
}

// field is one key of a JSON object and its value, as it was written.
type field struct {
	key string
	val json.RawMessage
}

// fields is a JSON object with its keys in order, so an entry is written back as it was,
// with only the keys the migration changes.
type fields []field

// parseObject reads a JSON object keeping its keys' order and its values' bytes.
func parseObject(line []byte) (fields, error) {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out fields
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		out = out.set(key, v)
	}
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one JSON value")
	}
	return out, nil
}

func (f fields) get(key string) (json.RawMessage, bool) {
	for _, kv := range f {
		if kv.key == key {
			return kv.val, true
		}
	}
	return nil, false
}

func (f fields) str(key string) (string, bool) {
	var s string
	v, ok := f.get(key)
	if !ok || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// set replaces key's value, or adds the key at the end, as JavaScript's assignment does (a
// later key of the same name wins, as in JSON.parse).
func (f fields) set(key string, val json.RawMessage) fields {
	for i := range f {
		if f[i].key == key {
			f[i].val = val
			return f
		}
	}
	return append(f, field{key, val})
}

func (f fields) del(key string) fields {
	out := f[:0]
	for _, kv := range f {
		if kv.key != key {
			out = append(out, kv)
		}
	}
	return out
}

func isType(f fields, typ string) bool {
	t, _ := f.str("type")
	return t == typ
}

// renameHookMessage gives a message entry of role hookMessage the role custom (v2 → v3).
func renameHookMessage(e fields) fields {
	msg, ok := e.get("message")
	if !isType(e, "message") || !ok {
		return e
	}
	m, err := parseObject(msg)
	if err != nil {
		return e
	}
	if role, _ := m.str("role"); role != "hookMessage" {
		return e
	}
	var b bytes.Buffer
	if writeObject(&b, m.set("role", jsonString("custom")), nil) != nil {
		return e
	}
	return e.set("message", json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
}

// writeObject writes f as one compact line, the keys of first (those it has) first, then the
// others in their order. Values are written as they were, compacted, without HTML escapes
// (JavaScript's JSON.stringify makes none).
func writeObject(w io.Writer, f fields, first []string) error {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	put := func(kv field) error {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(kv.key)
		b.Write(unescapeKey(k))
		b.WriteByte(':')
		return json.Compact(&b, kv.val)
	}
	for _, k := range first {
		if v, ok := f.get(k); ok {
			if err := put(field{k, v}); err != nil {
				return err
			}
		}
	}
	for _, kv := range f {
		if !contains(first, kv.key) {
			if err := put(kv); err != nil {
				return err
			}
		}
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// unescapeKey undoes json.Marshal's HTML escapes in a key, which keys of pi's entries never
// need.
func unescapeKey(k []byte) []byte {
	r := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	return []byte(r.Replace(string(k)))
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return unescapeKey(b)
}

// parentRef is the parentId value of an entry whose parent is id ("" for none: null).
func parentRef(id string) json.RawMessage {
	if id == "" {
		return json.RawMessage("null")
	}
	return jsonString(id)
}

// newID returns an entry id not in taken, and takes it: 8 hex digits as pi's generateId
// makes them (the first 8 of a random UUID).
func newID(taken map[string]bool) string {
	for {
		var b [4]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if !taken[id] {
			taken[id] = true
			return id
		}
	}
}

// stampPrefix is the time the original put before a message that started a run.
var stampPrefix = regexp.MustCompile(`^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}\] `)

// syncText is a user message's text as the original's syncLogToSessionManager compares it
// with the log: without the time of a run's trigger, cut before its <slack_attachments>.
func syncText(text string) string {
	text = stampPrefix.ReplaceAllString(text, "")
	if i := strings.Index(text, "\n\n<slack_attachments>\n"); i >= 0 {
		text = text[:i]
	}
	return text
}

// collectUserTexts adds the texts of e, when it is a user message, to texts: its string
// content, or each of its text blocks.
func collectUserTexts(e fields, texts map[string]bool) {
	raw, ok := e.get("message")
	if !isType(e, "message") || !ok {
		return
	}
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Role != "user" {
		return
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		texts[syncText(s)] = true
		return
	}
	var blocks []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if json.Unmarshal(m.Content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if b.Type == "text" && b.Text != nil {
			texts[syncText(*b.Text)] = true
		}
	}
}
