package pimport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/store"
)

// Options say what to import where.
type Options struct {
	// Old is the original mom's data directory: the directory it was started with.
	Old string
	// Data is mom's data directory; it is created if it does not exist.
	Data string
	// Adapter names the adapter (a key of config.json's "adapters") the channels go to.
	Adapter string
	// AdapterType is that adapter's type in config.json (or in the one mom writes on its first
	// start, when there is none yet), or "" when it does not have the adapter: the channels are
	// taken to be Slack's, as the original's were. A web chat's channel names are lowercase, so
	// the Slack ids become lowercase there.
	AdapterType string
	// Merge appends to a channel that exists already the old lines newer than its newest,
	// instead of refusing it.
	Merge bool
	// Home is the home directory, whose .pi/mom/tools the original's design kept custom tools
	// in; "" looks nowhere.
	Home string
}

// importer is one run of the import.
type importer struct {
	ctx context.Context
	o   Options
	old confined.Dir // the old data directory, read only
	st  *store.Store
	ws  confined.Dir // the workspace, where everything is written
	sum *Summary
}

// Run imports the old data directory o.Old into o.Data and says what it did. Channels that
// cannot be imported (one exists already, say) are refused in the summary and the others are
// imported; an error is returned only when nothing could be done: the directories cannot be
// used, or a mom is running on o.Data (the import needs the data directory to itself).
func Run(ctx context.Context, o Options) (*Summary, error) {
	if !config.ValidAdapterName(o.Adapter) {
		return nil, fmt.Errorf("--adapter %q is not an adapter name: config.json's names have 1 to 64 of A-Z, a-z, 0-9, - and _", o.Adapter)
	}
	switch o.AdapterType {
	case "", "slack", "web":
	default:
		return nil, fmt.Errorf("adapter %s is a %s adapter in config.json; the original mom's channels are Slack's: import them into a Slack adapter (or a web chat, to read them there)", o.Adapter, o.AdapterType)
	}
	old := confined.Root(o.Old)
	st, err := old.Stat("")
	if err != nil {
		return nil, fmt.Errorf("the old data directory %s: %w", o.Old, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("the old data directory %s is not a directory", o.Old)
	}
	if err := apart(o.Old, st, o.Data); err != nil {
		return nil, err
	}
	l, err := scan(old)
	if err != nil {
		return nil, fmt.Errorf("the old data directory %s: %w", o.Old, err)
	}
	if len(l.channels) == 0 && !l.memory && !l.skills && !l.events {
		return nil, fmt.Errorf("%s does not look like the original mom's data directory: it has no channel directories (with a log.jsonl), MEMORY.md, skills/ or events/", o.Old)
	}

	s, err := store.Open(o.Data)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	unlock, err := store.Lock(s.DataDir())
	if err != nil {
		if errors.Is(err, store.ErrInUse) {
			return nil, fmt.Errorf("%w\n(mom import needs the data directory to itself: stop mom, import, and start it again.)", err)
		}
		return nil, err
	}
	defer unlock()

	im := &importer{ctx: ctx, o: o, old: old, st: s, ws: s.WorkspaceDir(), sum: newSummary(o, s.DataDir())}
	if err := im.run(l); err != nil {
		return im.sum, err
	}
	return im.sum, nil
}

// run does the import of what scan found.
func (im *importer) run(l layout) error {
	for _, ch := range l.channels {
		if err := im.ctx.Err(); err != nil {
			return err
		}
		im.sum.Channels = append(im.sum.Channels, im.channel(ch))
	}
	for _, f := range []struct {
		name string
		has  bool
	}{{memoryFile, l.memory}, {systemFile, l.system}} {
		if f.has {
			if err := im.topFile(f.name); err != nil {
				return err
			}
		}
	}
	if l.skills {
		tc := treeCopy{src: im.old, dst: im.ws, notePath: func(n string) string { return n }}
		if err := tc.tree(skillsDir, skillsDir, 1, nil); err != nil {
			return err
		}
		im.sum.Skills = countSkills(im.old)
		im.sum.Notes = append(im.sum.Notes, tc.notes...)
	}
	if l.events {
		if err := im.events(); err != nil {
			return err
		}
	}
	im.settings(l.settings)
	if l.tools {
		im.sum.Tools = append(im.sum.Tools, oldTools(im.old.Join(toolsDir), toolsDir)...)
	}
	if im.o.Home != "" {
		home := filepath.Join(im.o.Home, ".pi", "mom", "tools")
		im.sum.Tools = append(im.sum.Tools, oldTools(confined.Root(home), home)...)
	}
	im.sum.Notes = append(im.sum.Notes, l.others...)
	return nil
}

// topFile copies MEMORY.md or SYSTEM.md into the workspace.
func (im *importer) topFile(name string) error {
	what, why, err := placeFile(im.old, name, im.ws, name, maxFile)
	switch what {
	case placedNew, placedSame:
		im.sum.Memory = append(im.sum.Memory, name)
	case placedKept:
		im.sum.Notes = append(im.sum.Notes, Note{Path: im.ws.Join(name).Path(), Reason: "was already there with other content; kept, and the old " + name + " not copied"})
	case placedLeft:
		im.sum.Notes = append(im.sum.Notes, Note{Path: name, Reason: why})
	}
	return err
}

// countSkills counts the skill folders of the old skills/.
func countSkills(old confined.Dir) int {
	entries, _ := old.ReadDir(skillsDir)
	n := 0
	for _, e := range entries {
		if e.Type().IsDir() && isFile(old, skillsDir+"/"+e.Name()+"/SKILL.md") {
			n++
		}
	}
	return n
}

// channelID is the id a channel of the original gets in mom: its Slack id, lowercased for a
// web chat, whose channel names are lowercase.
func (im *importer) channelID(old string) string {
	if im.o.AdapterType == "web" {
		return strings.ToLower(old)
	}
	return old
}

// apart refuses a data directory that is the old one, or inside it, or holds it: the import
// copies and must leave the old directory as it was, and never read what it writes.
func apart(old string, oldInfo fs.FileInfo, data string) error {
	abs, err := filepath.Abs(data)
	if err != nil {
		return err
	}
	for p := abs; ; p = filepath.Dir(p) {
		if st, err := confined.Root(p).Stat(""); err == nil && os.SameFile(st, oldInfo) {
			return fmt.Errorf("the data directory %s is the old data directory %s, or inside it: import into a new directory beside it, so the old one stays as it was", data, old)
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	dataInfo, err := confined.Root(abs).Stat("")
	if err != nil {
		return nil // a new directory cannot hold the old one
	}
	oldAbs, err := filepath.Abs(old)
	if err != nil {
		return err
	}
	for p := oldAbs; ; p = filepath.Dir(p) {
		if st, err := confined.Root(p).Stat(""); err == nil && os.SameFile(st, dataInfo) {
			return fmt.Errorf("the old data directory %s is inside the data directory %s: move it out first, or import into another directory", old, data)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}
