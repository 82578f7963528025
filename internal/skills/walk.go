package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
)

// maxDepth is how far below a skills directory a SKILL.md is looked for: deep enough for
// grouping (skills/google/gmail/SKILL.md), shallow enough that a stray checkout of some large
// project under skills/ does not slow every run.
const maxDepth = 3

// walker holds the state of one Discover call: the errors so far and a buffer reused for
// every SKILL.md head.
type walker struct {
	errs []error
	buf  []byte
}

// scan returns the skills under one skills directory, in the order of their paths. Within one
// directory the first of two skills with the same name wins. Links are not followed (see
// Discover), so no folder can be reached twice and no loop is possible.
func (w *walker) scan(root confined.Dir) []found {
	entries, err := root.ReadDir("")
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.errs = append(w.errs, fmt.Errorf("looking for skills in %s: %w", root, err))
		}
		return nil
	}
	s := scanState{root: root, byName: map[string]string{}}
	w.dir(&s, "", entries, 1)
	return s.found
}

type scanState struct {
	root confined.Dir
	// byName maps a skill name to the SKILL.md that defined it first.
	byName map[string]string
	found  []found
}

// dir looks at the entries of the folder rel (relative to the skills directory).
func (w *walker) dir(s *scanState, rel string, entries []fs.DirEntry, depth int) {
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		child := path.Join(rel, name)
		switch {
		case e.IsDir():
			w.folder(s, name, child, depth)
		case e.Type()&fs.ModeSymlink != 0:
			w.errs = append(w.errs, skipped(s.root.Join(child).Path(), "it is a symbolic link, and skills are read only from real folders in the workspace (a command could point a link at another channel's files)"))
		}
	}
}

// folder handles one sub-folder: a skill when it holds SKILL.md, otherwise a group to look in.
func (w *walker) folder(s *scanState, name, rel string, depth int) {
	file := path.Join(rel, FileName)
	f, err := s.root.Open(file)
	if err == nil {
		w.skill(s, name, rel, f)
		return
	}
	if !errors.Is(err, fs.ErrNotExist) {
		w.errs = append(w.errs, skipped(s.root.Join(file).Path(), "%v", err))
		return
	}
	if depth >= maxDepth {
		return
	}
	entries, err := s.root.ReadDir(rel)
	if err != nil {
		w.errs = append(w.errs, fmt.Errorf("looking for skills in %s: %w", s.root.Join(rel), err))
		return
	}
	w.dir(s, rel, entries, depth+1)
}

func (w *walker) skill(s *scanState, folderName, rel string, f io.ReadCloser) {
	dir := s.root.Join(rel).Path()
	file := s.root.Join(rel, FileName).Path()
	if w.buf == nil {
		w.buf = make([]byte, maxHead)
	}
	n, err := io.ReadFull(f, w.buf)
	f.Close()
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		w.errs = append(w.errs, skipped(file, "%v", err))
		return
	}
	fm, problem := parseFrontmatter(w.buf[:n], n == len(w.buf))
	if problem != "" {
		w.errs = append(w.errs, skipped(file, "%s", problem))
		return
	}
	if fm.description == "" {
		w.errs = append(w.errs, skipped(file, "its frontmatter has no description; add a line like \"description: what it does and when to use it\""))
		return
	}
	name := fm.name
	if name == "" {
		name = folderName
	}
	if first, dup := s.byName[name]; dup {
		w.errs = append(w.errs, skipped(file, "the name %q is already used by %s", name, first))
		return
	}
	s.byName[name] = file
	s.found = append(s.found, found{
		Skill:  Skill{Name: name, Description: fm.description, Path: file, Dir: dir},
		hidden: fm.hidden,
	})
}
