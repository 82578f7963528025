// Package session owns context.jsonl: what the model sees of a channel, stored in
// pi-coding-agent's session format version 3 so that pi's own tools open mom's files.
//
// The file is a header line ({"type":"session","version":3,...}) followed by entries, each with
// an 8-hex id and the id of its parent, forming a tree whose active branch runs from the last
// entry in the file back to the root. mom only ever appends to the end of that branch, so its
// files are linear; files pi wrote may branch, and are read the way pi reads them.
//
// The file is append-only (see package jsonl for when bytes reach the disk). It is never
// rewritten: a torn last line is skipped and healed by the next append, a malformed line is
// skipped, and a file whose first line is not a version-3 header is moved aside to a backup
// rather than overwritten (pi would truncate it).
package session
