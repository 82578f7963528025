package config

import (
	"fmt"
	"strings"
)

// SlackOptions are the Slack adapter's own options.
type SlackOptions struct {
	// BotToken is the bot user's OAuth token (xoxb-…) for the Web API.
	BotToken string
	// AppToken is the app-level token (xapp-…) that opens Socket Mode connections.
	AppToken string
	// APIURL replaces https://slack.com/api/ (a test seam; a loopback fake in tests).
	APIURL string
	// ReplyIn says where a mention inside a thread is answered.
	ReplyIn ReplyIn
	// Verbosity says how much of a run people see.
	Verbosity Verbosity
}

// ReplyIn says where mom answers a mention made inside a thread.
type ReplyIn string

// The reply placements.
const (
	// ReplyInThread answers in the thread the mention was made in.
	ReplyInThread ReplyIn = "thread"
	// ReplyInChannel always answers at the top level of the channel.
	ReplyInChannel ReplyIn = "channel"
)

// Verbosity says how much of a run a chat platform shows.
type Verbosity string

// The verbosity levels.
const (
	// Quiet shows only the answer and errors.
	Quiet Verbosity = "quiet"
	// Normal adds progress lines, tool details and a usage summary in the thread.
	Normal Verbosity = "normal"
	// Verbose adds the model's thinking.
	Verbose Verbosity = "verbose"
)

var slackKind = adapterKind{
	keys:   []string{"botToken", "appToken", "apiUrl", "replyIn", "verbosity"},
	dm:     DMPolicy{},
	userID: "U0123ABCD",
	// A workspace's channels hold its own members and the guests it invited.
	groups: &groupKind{def: GroupPolicy{Everyone: true}, example: "C0123ABCD"},
	decode: func(o *object, a *Adapter) {
		s := &SlackOptions{}
		a.Slack = s
		s.BotToken = o.token("botToken", "xoxb-", "the bot token (xoxb-…, from OAuth & Permissions)", "xapp-")
		s.AppToken = o.token("appToken", "xapp-", "the app-level token (xapp-…, from Basic Information → App-Level Tokens, scope connections:write)", "xoxb-")
		s.APIURL = o.url("apiUrl")
		s.ReplyIn = o.replyIn()
		s.Verbosity = o.verbosity()
	},
	describe: func(a *Adapter) string {
		s := a.Slack
		return describeReplies(s.ReplyIn, s.Verbosity, s.APIURL)
	},
}

// token decodes a required secret under key. prefix is what such tokens start with; a value
// starting with wrong (the other kind of token) is an error, because swapping the two is an
// easy mistake whose symptom would otherwise be an opaque "invalid_auth".
func (o *object) token(key, prefix, what, wrong string) string {
	path := joinPath(o.path, key)
	if o.get(key) == nil {
		o.d.fail(o.path, "missing %q: %s", key, what)
		return ""
	}
	s, ok := o.str(key)
	switch {
	case !ok:
		return ""
	case strings.TrimSpace(s) == "":
		o.d.fail(path, "is empty; it should hold %s", what)
	case wrong != "" && strings.HasPrefix(s, wrong):
		o.d.fail(path, "holds a %s… token, but %q takes %s", wrong, key, what)
	}
	return strings.TrimSpace(s)
}

// url decodes an optional http(s) URL under key.
func (o *object) url(key string) string {
	s, ok := o.str(key)
	if !ok {
		return ""
	}
	if !checkURL(s) {
		o.d.fail(joinPath(o.path, key), "%q is not an http:// or https:// URL", s)
		return ""
	}
	return s
}

// verbosity decodes the "verbosity" key every chat platform accepts.
func (o *object) verbosity() Verbosity {
	v, ok := o.enum("verbosity", "verbosity", []string{string(Quiet), string(Normal), string(Verbose)})
	if !ok {
		return Normal
	}
	return Verbosity(v)
}

// replyIn decodes "replyIn", where a mention inside a thread is answered: in the thread
// unless it says "channel".
func (o *object) replyIn() ReplyIn {
	r, ok := o.enum("replyIn", "reply placement", []string{string(ReplyInThread), string(ReplyInChannel)})
	if !ok {
		return ReplyInThread
	}
	return ReplyIn(r)
}

// describeReplies is what `mom check` says of a threaded chat's reply options and API seam.
func describeReplies(in ReplyIn, v Verbosity, apiURL string) string {
	out := fmt.Sprintf("thread mentions answered in the %s; verbosity %s", in, v)
	if apiURL != "" {
		out += "; API " + redactURL(apiURL)
	}
	return out
}
