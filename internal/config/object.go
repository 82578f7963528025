package config

import (
	"net/url"
	"strings"
)

// Object is an adapter's entry in "adapters" as its platform's Decode sees it. Every value is
// read with its ${VAR} references expanded, and every problem is reported with the full key
// path, so that platforms word their errors the way the rest of config.json's are worded.
// Keys Decode does not read are reported as unknown, with a near miss suggested.
type Object struct {
	o *object
}

// Str returns the string under key; ok is false when the key is absent, null, or not a
// string (then reported).
func (o *Object) Str(key string) (s string, ok bool) { return o.o.str(key) }

// Fail reports a problem with the value under key ("" for the entry itself). The message
// follows the path: "config.json: adapters.acme.botToken: <message>".
func (o *Object) Fail(key, format string, args ...any) {
	path := o.o.path
	if key != "" {
		path = joinPath(path, key)
	}
	o.o.d.fail(path, format, args...)
}

// Token returns a required secret under key, trimmed. what says what it is and where to find
// it, for the message when it is missing or empty. A value starting with wrong (another kind
// of token, as when a platform's two tokens are swapped) is reported too, because its symptom
// would otherwise be an opaque refusal by the platform; wrong "" checks nothing.
func (o *Object) Token(key, what, wrong string) string {
	if o.o.get(key) == nil {
		o.Fail("", "missing %q: %s", key, what)
		return ""
	}
	s, ok := o.o.str(key)
	switch {
	case !ok:
		return ""
	case strings.TrimSpace(s) == "":
		o.Fail(key, "is empty; it should hold %s", what)
	case wrong != "" && strings.HasPrefix(s, wrong):
		o.Fail(key, "holds a %s… token, but %q takes %s", wrong, key, what)
	}
	return strings.TrimSpace(s)
}

// Int returns an optional whole number under key that is at least min; ok is false when
// the key is absent, or its value is not such a number (then reported).
func (o *Object) Int(key string, min int) (n int, ok bool) { return o.o.int(key, min) }

// URL returns an optional http(s) URL under key: a platform's API address, pointed at a
// loopback fake in tests. "" means the key is absent or not such a URL (reported).
func (o *Object) URL(key string) string {
	s, ok := o.o.str(key)
	if !ok {
		return ""
	}
	if !checkURL(s) {
		o.Fail(key, "%q is not an http:// or https:// URL", s)
		return ""
	}
	return s
}

// RedactURL hides a password in a URL's user information and the query, where some servers
// take their key, so that a summary can show the URL.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.RawQuery != "" {
		u.RawQuery = "(hidden)"
	}
	return u.Redacted()
}
