package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// decoder walks the HuJSON syntax tree instead of unmarshalling into structs, because only the
// tree knows which keys were present (an explicit 0 is not an omitted key), the order they came
// in, and the full path of each, which every error message names.
type decoder struct {
	name   string
	getenv func(string) (string, bool)
	// platforms are the adapter types entries may have, by type.
	platforms map[string]*Platform
	errs      []error
}

// fail records a problem with the value at path and carries on, so one run reports them all.
func (d *decoder) fail(path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path == "" {
		d.errs = append(d.errs, fmt.Errorf("%s: %s", d.name, msg))
		return
	}
	d.errs = append(d.errs, fmt.Errorf("%s: %s: %s", d.name, path, msg))
}

func (d *decoder) err() error {
	return errors.Join(d.errs...)
}

// object is one JSON object being decoded. Keys are looked up by name; finish then reports the
// keys nobody asked for.
type object struct {
	d    *decoder
	path string
	obj  *hujson.Object
	used []bool
}

// object checks that v is an object and reports duplicate keys, which JSON decoders would
// silently resolve to the last one.
func (d *decoder) object(v *hujson.Value, path string) (*object, bool) {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		d.fail(path, "expected an object ({...}), got %s", kindName(v))
		return nil, false
	}
	seen := make(map[string]bool, len(obj.Members))
	for _, m := range obj.Members {
		k := memberName(m)
		if seen[k] {
			d.fail(path, "key %q appears more than once", k)
		}
		seen[k] = true
	}
	return &object{d: d, path: path, obj: obj, used: make([]bool, len(obj.Members))}, true
}

func memberName(m hujson.ObjectMember) string {
	return m.Name.Value.(hujson.Literal).String()
}

// get returns the value of key, or nil when the key is absent or null: writing null is a common
// way of saying "not set".
func (o *object) get(key string) *hujson.Value {
	var v *hujson.Value
	for i := range o.obj.Members {
		m := &o.obj.Members[i]
		if memberName(*m) != key {
			continue
		}
		// A duplicate is already reported; mark it used so it is not called unknown too.
		o.used[i] = true
		if v == nil {
			v = &m.Value
		}
	}
	if v == nil {
		return nil
	}
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == 'n' {
		return nil
	}
	return v
}

// members returns every key and value of the object in file order, marking them used.
func (o *object) members() []hujson.ObjectMember {
	for i := range o.used {
		o.used[i] = true
	}
	return o.obj.Members
}

// child returns the object under key, or nil when it is absent or not an object (reported).
func (o *object) child(key string) *object {
	v := o.get(key)
	if v == nil {
		return nil
	}
	c, _ := o.d.object(v, joinPath(o.path, key))
	return c
}

// str decodes the string under key, expanding ${VAR} references.
func (o *object) str(key string) (string, bool) {
	v := o.get(key)
	if v == nil {
		return "", false
	}
	return o.d.str(v, joinPath(o.path, key))
}

func (d *decoder) str(v *hujson.Value, path string) (string, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		d.fail(path, "expected a string, got %s", kindName(v))
		return "", false
	}
	s, err := expand(lit.String(), d.getenv)
	if err != nil {
		d.fail(path, "%v", err)
		return "", false
	}
	return s, true
}

// enum decodes a string under key that must be one of valid.
func (o *object) enum(key, what string, valid []string) (string, bool) {
	s, ok := o.str(key)
	if !ok {
		return "", false
	}
	for _, v := range valid {
		if s == v {
			return s, true
		}
	}
	o.d.fail(joinPath(o.path, key), "%q is not a valid %s (use one of: %s)", s, what, strings.Join(valid, ", "))
	return "", false
}

// boolean decodes true or false under key.
func (o *object) boolean(key string) (bool, bool) {
	v := o.get(key)
	if v == nil {
		return false, false
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || (lit.Kind() != 't' && lit.Kind() != 'f') {
		o.d.fail(joinPath(o.path, key), "expected true or false, got %s", kindName(v))
		return false, false
	}
	return lit.Kind() == 't', true
}

// int decodes a whole number under key that is at least min.
func (o *object) int(key string, min int) (int, bool) {
	v := o.get(key)
	if v == nil {
		return 0, false
	}
	path := joinPath(o.path, key)
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		o.d.fail(path, "expected a number, got %s", kindName(v))
		return 0, false
	}
	n, err := strconv.Atoi(string(lit))
	if err != nil {
		o.d.fail(path, "expected a whole number, got %s", lit)
		return 0, false
	}
	if n < min {
		o.d.fail(path, "must be at least %d, got %d", min, n)
		return 0, false
	}
	return n, true
}

// strings decodes a list of non-empty strings under key.
func (o *object) strings(key string) ([]string, bool) {
	v := o.get(key)
	if v == nil {
		return nil, false
	}
	return o.d.strings(v, joinPath(o.path, key))
}

func (d *decoder) strings(v *hujson.Value, path string) ([]string, bool) {
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		d.fail(path, "expected a list of strings ([...]), got %s", kindName(v))
		return nil, false
	}
	out := make([]string, 0, len(arr.Elements))
	good := true
	for i := range arr.Elements {
		p := fmt.Sprintf("%s[%d]", path, i)
		s, ok := d.str(&arr.Elements[i], p)
		switch {
		case !ok:
			good = false
		case s == "":
			d.fail(p, "empty string")
			good = false
		default:
			out = append(out, s)
		}
	}
	return out, good
}

// finish reports every key that was not read. known lists the valid keys in the order people
// should see them.
func (o *object) finish(known ...string) {
	for i, m := range o.obj.Members {
		if o.used[i] {
			continue
		}
		o.d.fail(o.path, "%s", UnknownKey(memberName(m), known))
	}
}

// joinPath appends key to a dotted key path, quoting keys that would be ambiguous in one.
func joinPath(path, key string) string {
	if !plainKey(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// plainKey reports whether key can be written bare in a dotted path.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// kindName names the JSON type of v for people.
func kindName(v *hujson.Value) string {
	switch v.Value.Kind() {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "true/false"
	case 'n':
		return "null"
	case '{':
		return "an object"
	case '[':
		return "a list"
	}
	return "something else"
}
