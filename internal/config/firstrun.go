package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// templateText is embedded as a string so nobody can change it at run time. Its "adapters"
// object holds only partsMarker, where Template puts the platforms' parts.
//
//go:embed template.jsonc
var templateText string

// partsMarker is the line of templateText that Template replaces with the platforms' parts.
const partsMarker = "    // @platforms: each platform's part goes here (see Template).\n"

// partsIndent is how deep the lines inside "adapters" sit in the template.
const partsIndent = "    "

// TemplatePart is one platform's part of the config.json mom writes on first run. Platforms
// supply their own, so that this package, which writes the file, knows none of them.
type TemplatePart struct {
	// Name is how TemplateWritten names the platform in a sentence, among the adapters the
	// file starts or among those it shows how to add.
	Name string
	// Text is the lines the platform adds inside the "adapters" object, JSONC without the
	// indentation, which Template adds. A part whose lines are all comments is an example a
	// person uncomments once the platform is set up; a part with any other line starts an
	// adapter. Empty leaves the platform out of the file.
	Text string
}

// starts says the part starts an adapter as written, rather than only showing how.
func (p TemplatePart) starts() bool {
	for _, line := range strings.Split(p.Text, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "//") {
			return true
		}
	}
	return false
}

// blank says the part adds nothing to the file.
func (p TemplatePart) blank() bool { return strings.TrimSpace(p.Text) == "" }

// Template returns the commented config.json written on first run, with parts in the
// "adapters" object in their order: the platforms that need no setting up start, so a new
// user can talk to mom before setting up any other, and the others are examples. The rest of
// the file shows the other options as comments.
//
// An empty line separates parts, except between two examples: a commented empty line there
// keeps the examples one block of comments, which an editor comments and uncomments whole.
func Template(parts ...TemplatePart) string {
	var b strings.Builder
	var prev *TemplatePart
	for i := range parts {
		p := &parts[i]
		if p.blank() {
			continue
		}
		if prev != nil {
			if !prev.starts() && !p.starts() {
				b.WriteString(partsIndent + "//")
			}
			b.WriteString("\n")
		}
		for _, line := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
			if line != "" {
				b.WriteString(partsIndent)
			}
			b.WriteString(line + "\n")
		}
		prev = p
	}
	return strings.Replace(templateText, partsMarker, b.String(), 1)
}

// TemplateWritten is what mom says once it has written Template(parts...) to path: which
// platforms it starts, and which it shows how to add. It lives beside the template because it
// describes it.
func TemplateWritten(path string, parts ...TemplatePart) string {
	var on, off []string
	for _, p := range parts {
		switch {
		case p.blank():
		case p.starts():
			on = append(on, p.Name)
		default:
			off = append(off, p.Name)
		}
	}
	msg := "Created " + path
	if len(on) > 0 {
		msg += " with " + joinNames(on, "and") + " enabled"
	}
	msg += "."
	if len(off) > 0 {
		msg += " Edit it to add " + joinNames(off, "or") + "."
	}
	return msg
}

// joinNames lists names as a sentence does: "a", "a and b", "a, b and c" (with conj "and").
func joinNames(names []string, conj string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// FileName is the name of the config file inside the data directory.
const FileName = "config.json"

// EnsureDir makes sure dataDir holds a config.json. When it does not, EnsureDir creates the
// directory and writes Template(parts...) there, readable by the owner only because it will hold
// tokens, and reports created. An existing file is never touched, even if two mom processes
// start at once.
func EnsureDir(dataDir string, parts ...TemplatePart) (created bool, err error) {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("checking for %s: %w", path, err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return false, fmt.Errorf("creating the data directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("creating %s: %w", path, err)
	}
	if _, err := f.WriteString(Template(parts...)); err != nil {
		f.Close()
		os.Remove(path)
		return false, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return false, fmt.Errorf("writing %s: %w", path, err)
	}
	return true, nil
}
