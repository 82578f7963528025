package skills

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
)

// Skill is one discovered skill.
type Skill struct {
	// Name comes from the frontmatter, or the folder's name when the frontmatter has none.
	Name string
	// Description says what the skill does and when to use it; the model decides from it.
	Description string
	// Path is the SKILL.md file on the host.
	Path string
	// Dir is the skill's folder on the host; SKILL.md refers to its other files relative to it.
	Dir string
}

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// Discover returns the skills under dirs, sorted by name. Each dir holds skill folders (which
// may be grouped in sub-folders); a dir that does not exist is simply empty. A skill in a later
// dir replaces one of the same name from an earlier dir, so pass the workspace's skills/ first
// and the channel's skills/ after it. A skill whose frontmatter says
// "disable-model-invocation: true" is left out, and so hides an earlier one of the same name.
//
// The skills directories are in the workspace, where commands write, so they are read
// through package confined: a symbolic link (to a folder elsewhere, to another channel's
// skills) is not followed but reported, and so is a skills directory that is itself a link.
//
// The errors describe skills that were skipped (no description, unreadable, duplicate name,
// a link) for the caller to log; they never stop discovery.
func Discover(dirs ...confined.Dir) ([]Skill, []error) {
	w := walker{}
	var byName map[string]Skill
	for _, dir := range dirs {
		found := w.scan(dir)
		if len(found) > 0 && byName == nil {
			byName = make(map[string]Skill, len(found))
		}
		for _, f := range found {
			if f.hidden {
				delete(byName, f.Name)
			} else {
				byName[f.Name] = f.Skill
			}
		}
	}
	out := make([]Skill, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return out, w.errs
}

// found is a skill as one directory defines it, hidden ones included.
type found struct {
	Skill
	hidden bool
}

// skipped builds the error for a SKILL.md that is not offered to the model.
func skipped(path, format string, args ...any) error {
	return fmt.Errorf("skipping skill %s: %s", path, fmt.Sprintf(format, args...))
}
