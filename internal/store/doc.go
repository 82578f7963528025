// Package store owns mom's data directory: the workspace tree, each channel's directory with
// its log.jsonl (the permanent history), context.jsonl (through package session),
// attachments and memory files.
//
//	<data>/config.json                       (read by package config, not here)
//	<data>/workspace/MEMORY.md SYSTEM.md skills/ events/
//	<data>/workspace/channels/<adapter>/<channel>/
//	    MEMORY.md log.jsonl context.jsonl attachments/ skills/ scratch/
//
// Adapter names and channel ids come from configuration and from platforms, so they are
// escaped into single path components (see PathComponent): no id can name a path outside its
// adapter's directory.
//
// Writes follow package jsonl's durability policy: a log line is in the kernel when AppendLog
// returns, so a crash of mom never loses it, and on disk within about a second.
package store
