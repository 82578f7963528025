// Package confined is how mom's own process touches files in the workspace.
//
// Commands in the sandbox can write anywhere in the workspace, so any name there may be a
// symbolic link, a named pipe or a huge file that a command planted, and it may change
// between two looks at it. mom's host-side code (the logs, the contexts, attachments,
// memory, events, skills, saved command output) reaches the workspace only through a Dir,
// which:
//
//   - never follows a symbolic link below the directory it was made from: every component
//     of a name is opened relative to its parent's descriptor with O_NOFOLLOW, so a link,
//     even one swapped in between two steps, makes the operation fail with an error that
//     names it (see RefusedError) instead of leading somewhere else;
//   - opens only regular files, and without blocking, so a named pipe or a device cannot
//     hang mom;
//   - reads a whole file only up to a limit the caller gives, checked before reading, so a
//     100 GB sparse file costs nothing;
//   - renames, links and removes names within the directory tree it confines, never
//     through a link.
//
// The directory a Dir is made from (the workspace) is trusted: it belongs to mom's data
// directory, outside what commands can rename. Everything below it is not.
//
// A test in this package walks mom's source for os calls that take a path and fails on any
// outside an allowlist of places that touch no workspace path, so the rule stays in one
// place.
package confined
