package session

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/llm"
)

// decodeLine reads an entry line into l the way json.Unmarshal would, about five times faster:
// a channel's first run after a restart opens a context.jsonl that can hold tens of thousands
// of entries, most of them tool output, and encoding/json spends its time scanning each line
// twice through reflection. It handles the lines mom and pi write; for anything it is not
// certain to read exactly as json.Unmarshal does (a key that differs from a field's only in
// case, a key given twice, a null where a value belongs, a lone surrogate, invalid UTF-8, a
// number that is not a plain integer where one belongs, a string where content blocks
// belong) it returns false without deciding, and the caller asks encoding/json.
// FuzzDecodeLine holds it to that.
func decodeLine(line []byte, l *lineJSON) bool {
	d := lineDecoder{b: line}
	d.ws()
	o := d.members()
	for o.next() {
		var ok bool
		switch string(o.key) {
		case "type":
			var s string
			s, ok = d.sym()
			l.Type = EntryType(s)
		case "id":
			ok = d.strInto(&l.ID)
		case "parentId":
			if ok = d.null(); ok {
				l.ParentID = nil
				break
			}
			var s string
			s, ok = d.str()
			l.ParentID = &s
		case "timestamp":
			ok = d.strInto(&l.Timestamp)
		case "message":
			if ok = d.null(); ok {
				l.Message = nil
				break
			}
			l.Message = new(llm.Message)
			ok = d.message(l.Message)
		case "summary":
			ok = d.strInto(&l.Summary)
		case "firstKeptEntryId":
			ok = d.strInto(&l.FirstKeptEntryID)
		case "tokensBefore":
			ok = d.intInto(&l.TokensBefore)
		case "fromId":
			ok = d.strInto(&l.FromID)
		case "details":
			ok = d.rawInto(&l.Details)
		case "customType":
			ok = d.strInto(&l.CustomType)
		case "data":
			ok = d.rawInto(&l.Data)
		default:
			ok = d.unknown(o.key, "type", "id", "parentId", "timestamp", "message", "summary", "firstKeptEntryId",
				"tokensBefore", "fromId", "details", "customType", "data")
		}
		if !ok {
			return false
		}
	}
	if !o.closed() {
		return false
	}
	d.ws()
	return d.i == len(d.b)
}

// lineDecoder walks one line. Every method returns false when the input is not what it can
// read exactly as encoding/json would; nothing it filled in counts then.
type lineDecoder struct {
	b []byte
	i int
}

func (d *lineDecoder) message(m *llm.Message) bool {
	o := d.members()
	for o.next() {
		var ok bool
		switch string(o.key) {
		case "role":
			var s string
			s, ok = d.sym()
			m.Role = llm.Role(s)
		case "content":
			ok = d.content(&m.Content)
		case "timestamp":
			m.Timestamp, ok = d.integer(64)
		case "api":
			ok = d.symInto(&m.API)
		case "provider":
			ok = d.symInto(&m.Provider)
		case "model":
			ok = d.strInto(&m.Model)
		case "usage":
			ok = d.usage(&m.Usage)
		case "stopReason":
			var s string
			s, ok = d.sym()
			m.StopReason = llm.StopReason(s)
		case "errorMessage":
			ok = d.strInto(&m.ErrorMessage)
		case "toolCallId":
			ok = d.strInto(&m.ToolCallID)
		case "toolName":
			ok = d.symInto(&m.ToolName)
		case "details":
			ok = d.rawInto(&m.Details)
		case "isError":
			ok = d.boolInto(&m.IsError)
		default:
			ok = d.unknown(o.key, "role", "content", "timestamp", "api", "provider", "model", "usage", "stopReason",
				"errorMessage", "toolCallId", "toolName", "details", "isError")
		}
		if !ok {
			return false
		}
	}
	return o.closed()
}

// maxBlocks is how many content blocks are gathered on the stack before a message's slice is
// made, at its exact size.
const maxBlocks = 8

func (d *lineDecoder) content(out *[]llm.Content) bool {
	if d.peek() != '[' {
		return false // a plain string (pi's user messages) or something odder
	}
	d.i++
	var buf [maxBlocks]llm.Content
	blocks := buf[:0]
	d.ws()
	if d.peek() == ']' {
		d.i++
		*out = []llm.Content{}
		return true
	}
	for {
		d.ws()
		var c llm.Content
		if !d.block(&c) {
			return false
		}
		blocks = append(blocks, c)
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			*out = append(make([]llm.Content, 0, len(blocks)), blocks...)
			return true
		default:
			return false
		}
	}
}

func (d *lineDecoder) block(c *llm.Content) bool {
	o := d.members()
	for o.next() {
		var ok bool
		switch string(o.key) {
		case "type":
			var s string
			s, ok = d.sym()
			c.Type = llm.ContentType(s)
		case "text":
			ok = d.strInto(&c.Text)
		case "thinking":
			ok = d.strInto(&c.Thinking)
		case "thinkingSignature":
			ok = d.strInto(&c.Signature)
		case "redacted":
			ok = d.boolInto(&c.Redacted)
		case "data":
			ok = d.strInto(&c.Data)
		case "mimeType":
			ok = d.strInto(&c.MimeType)
		case "id":
			ok = d.strInto(&c.ID)
		case "name":
			ok = d.symInto(&c.Name)
		case "arguments":
			ok = d.rawInto(&c.Arguments)
		default:
			ok = d.unknown(o.key, "type", "text", "thinking", "thinkingSignature", "redacted", "data", "mimeType", "id",
				"name", "arguments")
		}
		if !ok {
			return false
		}
	}
	return o.closed()
}

func (d *lineDecoder) usage(u *llm.Usage) bool {
	o := d.members()
	for o.next() {
		var ok bool
		switch string(o.key) {
		case "input":
			ok = d.intInto(&u.Input)
		case "output":
			ok = d.intInto(&u.Output)
		case "cacheRead":
			ok = d.intInto(&u.CacheRead)
		case "cacheWrite":
			ok = d.intInto(&u.CacheWrite)
		case "totalTokens":
			ok = d.intInto(&u.TotalTokens)
		case "cost":
			ok = d.cost(&u.Cost)
		default:
			ok = d.unknown(o.key, "input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost")
		}
		if !ok {
			return false
		}
	}
	return o.closed()
}

func (d *lineDecoder) cost(c *llm.Cost) bool {
	o := d.members()
	for o.next() {
		var ok bool
		switch string(o.key) {
		case "input":
			ok = d.floatInto(&c.Input)
		case "output":
			ok = d.floatInto(&c.Output)
		case "cacheRead":
			ok = d.floatInto(&c.CacheRead)
		case "cacheWrite":
			ok = d.floatInto(&c.CacheWrite)
		case "total":
			ok = d.floatInto(&c.Total)
		default:
			ok = d.unknown(o.key, "input", "output", "cacheRead", "cacheWrite", "total")
		}
		if !ok {
			return false
		}
	}
	return o.closed()
}

// members walks the members of the object that starts at d: each next() reads up to a key
// and leaves d at its value; closed() then says whether the object ended well.
//
//	o := d.members()
//	for o.next() {
//		… read the value of o.key, return false if it is bad …
//	}
//	return o.closed()
//
// A key given twice ends the walk as bad input, because encoding/json would merge the second
// value into the first.
func (d *lineDecoder) members() objectWalk { return objectWalk{d: d} }

// objectWalk is the state of members.
type objectWalk struct {
	d       *lineDecoder
	key     []byte
	seen    [16][]byte
	n       int
	started bool
	end     bool // the closing brace was read
}

// next moves to the next member; false at the end of the object and on bad input.
func (o *objectWalk) next() bool {
	d := o.d
	switch {
	case o.end:
		return false
	case !o.started:
		o.started = true
		if d.peek() != '{' {
			return false
		}
		d.i++
		d.ws()
		if d.peek() == '}' {
			d.i++
			o.end = true
			return false
		}
	default:
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
			d.ws()
		case '}':
			d.i++
			o.end = true
			return false
		default:
			return false
		}
	}
	key, ok := d.key()
	if !ok || o.n == len(o.seen) {
		return false // more keys than any line of ours has are left to encoding/json too
	}
	for _, k := range o.seen[:o.n] {
		if bytes.Equal(k, key) {
			return false
		}
	}
	o.seen[o.n] = key
	o.n++
	d.ws()
	if d.peek() != ':' {
		return false
	}
	d.i++
	d.ws()
	o.key = key
	return true
}

// closed reports whether the walk ended at the object's closing brace.
func (o *objectWalk) closed() bool { return o.end }

// key reads an object key without escapes, which is every key mom and pi write. It returns
// the key's bytes in the line.
func (d *lineDecoder) key() ([]byte, bool) {
	if d.peek() != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// unknown skips the value of a key that is not a field, unless encoding/json would take it
// for one of the object's known keys, whose names it matches regardless of case.
func (d *lineDecoder) unknown(key []byte, known ...string) bool {
	for _, k := range known {
		if bytes.EqualFold([]byte(k), key) {
			return false
		}
	}
	return d.skip(0)
}

func (d *lineDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

func (d *lineDecoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// null consumes a null literal if one is next.
func (d *lineDecoder) null() bool {
	if d.i+4 <= len(d.b) && string(d.b[d.i:d.i+4]) == "null" {
		d.i += 4
		return true
	}
	return false
}

// sym reads a string that is most often one of a few words (a type, a role, a provider, a
// tool's name), returning the word without allocating a copy of it for every entry.
func (d *lineDecoder) sym() (string, bool) {
	if d.peek() == '"' {
		if end := bytes.IndexByte(d.b[d.i+1:], '"'); end >= 0 {
			if w, ok := word(d.b[d.i+1 : d.i+1+end]); ok {
				d.i += end + 2
				return w, true
			}
		}
	}
	return d.str()
}

// word returns b as one of the words sym knows, a constant that costs no allocation.
func word(b []byte) (string, bool) {
	switch string(b) {
	case "message":
		return "message", true
	case "custom":
		return "custom", true
	case "compaction":
		return "compaction", true
	case "model_change":
		return "model_change", true
	case "user":
		return "user", true
	case "assistant":
		return "assistant", true
	case "toolResult":
		return "toolResult", true
	case "text":
		return "text", true
	case "thinking":
		return "thinking", true
	case "toolCall":
		return "toolCall", true
	case "image":
		return "image", true
	case "anthropic":
		return "anthropic", true
	case "anthropic-messages":
		return "anthropic-messages", true
	case "openai":
		return "openai", true
	case "openai-completions":
		return "openai-completions", true
	case "stop":
		return "stop", true
	case "toolUse":
		return "toolUse", true
	case "length":
		return "length", true
	case "error":
		return "error", true
	case "aborted":
		return "aborted", true
	case "bash":
		return "bash", true
	case "read":
		return "read", true
	case "write":
		return "write", true
	case "edit":
		return "edit", true
	case "attach":
		return "attach", true
	case "invoke_tool":
		return "invoke_tool", true
	}
	return "", false
}

func (d *lineDecoder) symInto(p *string) bool {
	s, ok := d.sym()
	*p = s
	return ok
}

func (d *lineDecoder) strInto(p *string) bool {
	s, ok := d.str()
	*p = s
	return ok
}

// plain classifies each byte inside a string: '0' for the quote, the backslash and control
// characters, which end a run of text or are not allowed in it; '2' for bytes of UTF-8
// sequences; '1' for the rest.
const plain = "0000000000000000000000000000000011011111111111111111111111111111" +
	"1111111111111111111111111111011111111111111111111111111111111111" +
	"2222222222222222222222222222222222222222222222222222222222222222" +
	"2222222222222222222222222222222222222222222222222222222222222222"

// run returns the index of the first byte from j on that is not plain text, and whether any
// byte before it was outside ASCII.
func (d *lineDecoder) run(j int) (int, bool) {
	wide := false
	b := d.b
	for ; j+4 <= len(b); j += 4 {
		c0, c1, c2, c3 := plain[b[j]], plain[b[j+1]], plain[b[j+2]], plain[b[j+3]]
		if c0 == '0' || c1 == '0' || c2 == '0' || c3 == '0' {
			break
		}
		wide = wide || (c0|c1|c2|c3)&2 != 0 // only '2' has that bit
	}
	for ; j < len(b); j++ {
		c := plain[b[j]]
		if c == '0' {
			break
		}
		wide = wide || c == '2'
	}
	return j, wide
}

// str reads a string value; null and every other kind of value give up.
func (d *lineDecoder) str() (string, bool) {
	if d.peek() != '"' {
		return "", false
	}
	start := d.i + 1
	j, wide := d.run(start)
	if j == len(d.b) || d.b[j] < 0x20 {
		return "", false
	}
	if d.b[j] == '\\' {
		return d.escaped(start)
	}
	if wide && !utf8.Valid(d.b[start:j]) {
		return "", false // encoding/json would put U+FFFD in the place of each bad byte
	}
	d.i = j + 1
	return string(d.b[start:j]), true
}

// escaped reads a string that has escapes, from its first byte at start.
func (d *lineDecoder) escaped(start int) (string, bool) {
	// The text is never longer than its escaped form: size the result once.
	save := d.i
	d.i = start - 1
	if !d.skipString() {
		return "", false
	}
	end := d.i - 1
	d.i = save
	var out strings.Builder
	out.Grow(end - start)
	j := start
	for j < end {
		// Copy the run up to the next backslash in one go.
		k := j + bytes.IndexByte(d.b[j:end], '\\')
		if k < j {
			k = end
		}
		run := d.b[j:k]
		if !utf8.Valid(run) {
			return "", false // encoding/json would put U+FFFD in the place of each bad byte
		}
		out.Write(run)
		if k == end {
			break
		}
		// skipString has checked the escape's form.
		switch e := d.b[k+1]; e {
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			r, _ := strconv.ParseUint(string(d.b[k+2:k+6]), 16, 32)
			if r >= 0xD800 && r < 0xE000 {
				return "", false // surrogates, paired or not, are left to encoding/json
			}
			out.WriteRune(rune(r))
			j = k + 6
			continue
		default: // '"', '\\', '/'
			out.WriteByte(e)
		}
		j = k + 2
	}
	d.i = end + 1
	return out.String(), true
}

func (d *lineDecoder) boolInto(p *bool) bool {
	switch {
	case d.i+4 <= len(d.b) && string(d.b[d.i:d.i+4]) == "true":
		d.i += 4
		*p = true
		return true
	case d.i+5 <= len(d.b) && string(d.b[d.i:d.i+5]) == "false":
		d.i += 5
		*p = false
		return true
	}
	return false
}

func (d *lineDecoder) intInto(p *int) bool {
	n, ok := d.integer(strconv.IntSize)
	*p = int(n)
	return ok
}

// integer reads a number that json.Unmarshal puts in an int of bits bits without complaint:
// no fraction, no exponent, in range.
func (d *lineDecoder) integer(bits int) (int64, bool) {
	lit, ok := d.number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(lit), 10, bits)
	return n, err == nil
}

func (d *lineDecoder) floatInto(p *float64) bool {
	lit, ok := d.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	*p = f
	return err == nil
}

// number reads a number literal as JSON's grammar has it.
func (d *lineDecoder) number() ([]byte, bool) {
	start, j := d.i, d.i
	digits := func() bool {
		k := j
		for j < len(d.b) && d.b[j] >= '0' && d.b[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(d.b) && d.b[j] == '-' {
		j++
	}
	switch {
	case j < len(d.b) && d.b[j] == '0':
		j++
	case !digits():
		return nil, false
	}
	if j < len(d.b) && d.b[j] == '.' {
		j++
		if !digits() {
			return nil, false
		}
	}
	if j < len(d.b) && (d.b[j] == 'e' || d.b[j] == 'E') {
		j++
		if j < len(d.b) && (d.b[j] == '+' || d.b[j] == '-') {
			j++
		}
		if !digits() {
			return nil, false
		}
	}
	d.i = j
	return d.b[start:j], true
}

// rawInto keeps the bytes of any value, as json.RawMessage does (null included).
func (d *lineDecoder) rawInto(p *json.RawMessage) bool {
	start := d.i
	if !d.skip(0) {
		return false
	}
	*p = append(json.RawMessage(nil), d.b[start:d.i]...)
	return true
}

// maxDepth bounds skip's recursion below encoding/json's own limit of 10,000 levels; deeper
// values go to encoding/json.
const maxDepth = 1000

// skip passes over any valid value.
func (d *lineDecoder) skip(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch c := d.peek(); {
	case c == '"':
		return d.skipString()
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		d.i++
		d.ws()
		if d.peek() == end {
			d.i++
			return true
		}
		for {
			d.ws()
			if c == '{' {
				if !d.skipString() {
					return false
				}
				d.ws()
				if d.peek() != ':' {
					return false
				}
				d.i++
				d.ws()
			}
			if !d.skip(depth + 1) {
				return false
			}
			d.ws()
			switch d.peek() {
			case ',':
				d.i++
			case end:
				d.i++
				return true
			default:
				return false
			}
		}
	case c == 't':
		var b bool
		return d.boolInto(&b)
	case c == 'f':
		var b bool
		return d.boolInto(&b)
	case c == 'n':
		return d.null()
	default:
		_, ok := d.number()
		return ok
	}
}

// skipString passes over a valid string; its bytes need not be valid UTF-8, which
// encoding/json accepts too.
func (d *lineDecoder) skipString() bool {
	if d.peek() != '"' {
		return false
	}
	for j := d.i + 1; j < len(d.b); j++ {
		j, _ = d.run(j)
		if j == len(d.b) {
			return false
		}
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return true
		case c < 0x20:
			return false
		}
		// A backslash.
		if j+1 >= len(d.b) {
			return false
		}
		switch d.b[j+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j++
		case 'u':
			if j+6 > len(d.b) {
				return false
			}
			for _, h := range d.b[j+2 : j+6] {
				if !isHex(h) {
					return false
				}
			}
			j += 5
		default:
			return false
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
