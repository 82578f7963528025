package compact

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// Details is what a compaction entry records besides its summary, in pi's shape: the files
// the conversation read and modified up to the cut, counting those of earlier compactions, so
// the next compaction can carry them forward.
type Details struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

// fileOps collects the paths of read, write and edit tool calls.
type fileOps struct {
	read, modified map[string]bool
}

func newFileOps() *fileOps {
	return &fileOps{read: map[string]bool{}, modified: map[string]bool{}}
}

// addDetails carries forward the files an earlier compaction recorded. Details pi's
// extensions wrote in another shape are ignored.
func (f *fileOps) addDetails(raw json.RawMessage) {
	var d Details
	if json.Unmarshal(raw, &d) != nil {
		return
	}
	for _, p := range d.ReadFiles {
		f.read[p] = true
	}
	for _, p := range d.ModifiedFiles {
		f.modified[p] = true
	}
}

// addMessages records the files the assistant messages among msgs touched with tools.
func (f *fileOps) addMessages(msgs []llm.Message) {
	for _, m := range msgs {
		if m.Role != llm.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls() {
			var args struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(c.Arguments, &args) != nil || args.Path == "" {
				continue
			}
			switch c.Name {
			case "read":
				f.read[args.Path] = true
			case "write", "edit":
				f.modified[args.Path] = true
			}
		}
	}
}

// details lists the files, sorted; a file both read and modified counts as modified only.
func (f *fileOps) details() Details {
	d := Details{ReadFiles: []string{}, ModifiedFiles: []string{}}
	for p := range f.modified {
		d.ModifiedFiles = append(d.ModifiedFiles, p)
	}
	for p := range f.read {
		if !f.modified[p] {
			d.ReadFiles = append(d.ReadFiles, p)
		}
	}
	slices.Sort(d.ReadFiles)
	slices.Sort(d.ModifiedFiles)
	return d
}

// format is the file lists as pi appends them to a summary: <read-files> and
// <modified-files> sections, or "" when there are none.
func (d Details) format() string {
	var sections []string
	if len(d.ReadFiles) > 0 {
		sections = append(sections, "<read-files>\n"+strings.Join(d.ReadFiles, "\n")+"\n</read-files>")
	}
	if len(d.ModifiedFiles) > 0 {
		sections = append(sections, "<modified-files>\n"+strings.Join(d.ModifiedFiles, "\n")+"\n</modified-files>")
	}
	if len(sections) == 0 {
		return ""
	}
	return "\n\n" + strings.Join(sections, "\n\n")
}
