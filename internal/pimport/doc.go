// Package pimport brings a data directory of pi's original mom (pi-mono's packages/mom, the
// Node.js Slack bot) into a mom data directory: `mom import <old-dir> <data-dir> --adapter
// <name>`.
//
// The original keeps everything at the top of one directory:
//
//	<old>/MEMORY.md SYSTEM.md settings.json skills/ events/
//	<old>/<channel id>/ MEMORY.md log.jsonl context.jsonl attachments/ scratch/ skills/
//
// Each channel directory is copied to workspace/channels/<adapter>/<channel>/, its log.jsonl
// converted line by line to mom's format (logline.go) and its context.jsonl migrated to
// session version 3 the way pi migrates old sessions (context.go); the shared memory files and
// skills go to workspace/, the wake-up files to workspace/events/ with their channels
// qualified, and settings.json becomes config.json lines to add (settings.go).
//
// The old directory is read, never written: the import copies. It is read as mom reads its
// workspace (package confined), because the original's sandbox let any command write there:
// no link is followed, only regular files are opened, and sizes are checked before reading,
// so a link to /etc, a named pipe or a 100 GB sparse file is named in the summary and left
// out. The new files are written through confined too, each channel into a hidden staging
// directory renamed into place when it is whole, so an interrupted import leaves no half a
// channel behind.
//
// Running the import again changes nothing: a channel whose log already holds what the
// import would write is left alone, a file already there with the same content is kept, and
// one with other content is kept and named. A channel that exists with a history of its own
// is refused, unless Merge, which appends the old lines newer than its newest.
package pimport
