// Package jsonl owns mom's append-only JSON-lines files: log.jsonl (a channel's permanent
// history) and context.jsonl (the model's context, in pi's session format). It appends whole
// lines, reads them back, and decides when bytes reach the disk.
//
// # Durability
//
// Every line reaches the kernel with a single write(2) before Append returns, so a crash of the
// process (kill -9, panic, OOM kill) never loses or tears an appended line. Data reaches the
// disk at the latest about one second later, when a Flusher fsyncs the files that changed, and
// at every explicit Sync (mom calls it at the end of each agent run and at shutdown). A power
// failure or kernel crash therefore loses at most about the last second of lines.
//
// If a line is torn anyway (a power failure, a full disk, or a line over a gigabyte, which Go
// writes in several calls), the file is never rewritten: readers skip a last line without its
// trailing newline and any line that does not parse, and the next Append starts with a newline
// so the new line is not glued to the torn one. The torn bytes stay where they are.
//
// Lines have no size limit on writing; images in context.jsonl make lines of several
// megabytes. Readers accept lines up to MaxLine bytes and skip longer ones without holding them
// in memory.
//
// One File must own a path at a time: it tracks the file's size itself to report offsets, so a
// second writer (another File or another process) appending to the same path would make those
// offsets wrong. Lines would still stay whole.
package jsonl
