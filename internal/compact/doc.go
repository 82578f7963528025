// Package compact keeps a channel's context inside the model's context window the way
// pi-coding-agent does: it estimates how full the context is, picks where to cut (keeping
// about Settings.KeepRecentTokens of the newest messages, never separating a tool call from
// its result), has the model summarize what is cut into a structured checkpoint (or update the
// previous one), and hands back the summary for a pi-compatible compaction entry.
//
// The package only reads the session: the caller appends the compaction entry (see
// session.AppendCompaction), so context.jsonl stays append-only. Pruning old tool results
// (Prune) is likewise a view of the messages, never a rewrite of the file.
//
// The model is reached through the Model interface, so the caller decides how requests are
// sent and retried.
package compact
