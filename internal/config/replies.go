package config

import "fmt"

// The settings below are keys that several chat platforms share: how much of a run people
// see, and where a mention inside a thread is answered. A platform that has them lists them
// in its Keys and reads them with Object.Verbosity and Object.ReplyIn, so that they mean the
// same everywhere.

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

// Verbosity reads "verbosity"; Normal when it is not set or not valid (reported).
func (o *Object) Verbosity() Verbosity { return o.VerbosityOr(Normal) }

// VerbosityOr reads "verbosity"; def when it is not set or not valid (reported), for a
// platform whose own default differs.
func (o *Object) VerbosityOr(def Verbosity) Verbosity {
	v, ok := o.o.enum("verbosity", "verbosity", []string{string(Quiet), string(Normal), string(Verbose)})
	if !ok {
		return def
	}
	return Verbosity(v)
}

// ReplyIn reads "replyIn", where a mention inside a thread is answered: in the thread unless
// it says "channel".
func (o *Object) ReplyIn() ReplyIn {
	r, ok := o.o.enum("replyIn", "reply placement", []string{string(ReplyInThread), string(ReplyInChannel)})
	if !ok {
		return ReplyInThread
	}
	return ReplyIn(r)
}

// DescribeReplies is what `mom check` says of a threaded chat's reply settings and API address.
func DescribeReplies(in ReplyIn, v Verbosity, apiURL string) string {
	out := fmt.Sprintf("thread mentions answered in the %s; verbosity %s", in, v)
	if apiURL != "" {
		out += "; API " + RedactURL(apiURL)
	}
	return out
}
