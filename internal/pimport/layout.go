package pimport

import (
	"bufio"
	"io"
	"io/fs"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
)

// The names at the top of the original's data directory that are not channels.
const (
	memoryFile   = "MEMORY.md"
	systemFile   = "SYSTEM.md"
	settingsFile = "settings.json"
	// settingsDir held settings.json in the original's versions before its settings moved to
	// the top (MomSettingsManager: <workspace>/.mom/settings.json).
	settingsDir = ".mom"
	skillsDir   = "skills"
	eventsDir   = "events"
	// toolsDir is where the original's design (docs/new.md) put custom tools in TypeScript.
	toolsDir = "tools"
)

// The files of an old channel directory the import converts rather than copies.
const (
	logFile     = "log.jsonl"
	contextFile = "context.jsonl"
	attachDir   = "attachments"
)

// layout is what the top of an old data directory holds.
type layout struct {
	channels []string // directories with a log.jsonl or a context.jsonl, sorted
	memory   bool
	system   bool
	skills   bool
	events   bool
	tools    bool
	settings string // the settings.json there is, relative to the directory; "" for none
	// others are the entries that are none of these, which the import leaves where they are.
	others []Note
}

// scan reads the top of the old data directory. Nothing is followed: a link where a channel
// or a file should be is named among the others.
func scan(old confined.Dir) (layout, error) {
	var l layout
	entries, err := old.ReadDir("")
	if err != nil {
		return l, err
	}
	for _, e := range entries {
		name, t := e.Name(), e.Type()
		switch {
		case name == memoryFile && t.IsRegular():
			l.memory = true
		case name == systemFile && t.IsRegular():
			l.system = true
		case name == settingsFile && t.IsRegular():
			l.settings = settingsFile
		case name == settingsDir && t.IsDir():
			if l.settings == "" && isFile(old, settingsDir+"/"+settingsFile) {
				l.settings = settingsDir + "/" + settingsFile
			}
		case name == skillsDir && t.IsDir():
			l.skills = true
		case name == eventsDir && t.IsDir():
			l.events = true
		case name == toolsDir && t.IsDir():
			l.tools = true
		case t.IsDir() && (exists(old, name+"/"+logFile) || exists(old, name+"/"+contextFile)):
			l.channels = append(l.channels, name)
		case strings.HasPrefix(name, "."):
			// Hidden files (.git, .DS_Store) were never the original's.
		case !t.IsDir() && !t.IsRegular():
			l.others = append(l.others, Note{Path: name, Reason: leftOut(t)})
		default:
			l.others = append(l.others, Note{Path: name, Reason: "not part of the original mom's layout; copy it into workspace/ yourself if the agent used it"})
		}
	}
	return l, nil
}

// Find lists the channel directories of the original mom at the top of dir: directories
// whose log.jsonl starts with a line in the original's format. mom looks for them at
// start-up, in its data directory and its workspace, to say how to import them rather than
// ignore them. It reads only the first line of each log.
func Find(dir confined.Dir) []string {
	l, err := scan(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, ch := range l.channels {
		if firstLineIsOld(dir, ch+"/"+logFile) {
			out = append(out, ch)
		}
	}
	return out
}

// firstLineIsOld reports whether the log at name begins with a line of the original's format.
func firstLineIsOld(dir confined.Dir, name string) bool {
	f, err := dir.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, 64<<10), 64<<10).ReadSlice('\n')
	return err == nil && isOldLogLine(line)
}

// exists reports whether there is anything at name, a link included.
func exists(d confined.Dir, name string) bool {
	_, err := d.Stat(name)
	return err == nil
}

// isFile reports whether name is a regular file.
func isFile(d confined.Dir, name string) bool {
	st, err := d.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// isDir reports whether name is a directory (not a link to one).
func isDir(d confined.Dir, name string) bool {
	st, err := d.Stat(name)
	return err == nil && st.Mode()&fs.ModeType == fs.ModeDir
}
