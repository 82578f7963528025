package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
// directory the first of two skills with the same name wins.
func (w *walker) scan(root string) []found {
	entries, err := os.ReadDir(root)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.errs = append(w.errs, fmt.Errorf("looking for skills in %s: %w", root, err))
		}
		return nil
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		w.errs = append(w.errs, fmt.Errorf("looking for skills in %s: %w", root, err))
		return nil
	}
	s := scanState{visited: map[string]bool{real: true}, byName: map[string]string{}}
	w.dir(&s, root, real, entries, 1)
	return s.found
}

type scanState struct {
	// visited holds the real paths of the directories entered, so a symlink back to an
	// ancestor (or a second link to the same folder) is not followed again.
	visited map[string]bool
	// byName maps a skill name to the SKILL.md that defined it first.
	byName map[string]string
	found  []found
}

func (w *walker) dir(s *scanState, dir, real string, entries []fs.DirEntry, depth int) {
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		path := filepath.Join(dir, name)
		childReal := filepath.Join(real, name)
		switch {
		case e.IsDir():
		case e.Type()&fs.ModeSymlink != 0:
			target, err := filepath.EvalSymlinks(path)
			if err != nil {
				continue // A dangling link is not a skill.
			}
			if info, err := os.Stat(target); err != nil || !info.IsDir() {
				continue
			}
			childReal = target
		default:
			continue
		}
		if s.visited[childReal] {
			continue
		}
		s.visited[childReal] = true
		w.folder(s, name, path, childReal, depth)
	}
}

// folder handles one sub-folder: a skill when it holds SKILL.md, otherwise a group to look in.
func (w *walker) folder(s *scanState, name, path, real string, depth int) {
	file := filepath.Join(path, FileName)
	f, err := os.Open(file)
	if err == nil {
		w.skill(s, name, path, file, f)
		return
	}
	if !errors.Is(err, fs.ErrNotExist) {
		w.errs = append(w.errs, skipped(file, "%v", err))
		return
	}
	if depth >= maxDepth {
		return
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		w.errs = append(w.errs, fmt.Errorf("looking for skills in %s: %w", path, err))
		return
	}
	w.dir(s, path, real, entries, depth+1)
}

func (w *walker) skill(s *scanState, folderName, dir, file string, f *os.File) {
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
