package render

// Verbosity says how much of a run people see. Its values are the words of config.json's
// "verbosity", so an adapter turns its setting into one by conversion:
// render.Verbosity(cfg.Verbosity).
type Verbosity string

// The verbosity levels. The empty Verbosity is Normal.
const (
	// Quiet shows only the answer and errors.
	Quiet Verbosity = "quiet"
	// Normal adds progress lines, tool details and a usage summary in the thread.
	Normal Verbosity = "normal"
	// Verbose adds the model's thinking.
	Verbose Verbosity = "verbose"
)

// ReplyIn says where mom answers a mention made inside a thread. Its values are the words of
// config.json's "replyIn", so an adapter turns its setting into one by conversion:
// render.ReplyIn(cfg.ReplyIn).
type ReplyIn string

// Where replies go. The empty ReplyIn is ReplyInThread.
const (
	// ReplyInThread answers in the thread the mention was made in.
	ReplyInThread ReplyIn = "thread"
	// ReplyInChannel always answers at the top level of the channel.
	ReplyInChannel ReplyIn = "channel"
)
