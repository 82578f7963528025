package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestEdit(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "code.go")
	writeFile(t, path, numbered(20))
	got, res := mustText(t, NewEdit(), env, map[string]any{"path": "code.go", "oldText": "10\n11\n", "newText": "ten\n"})
	if got != "Successfully replaced text in code.go." {
		t.Errorf("text %q", got)
	}
	want := strings.Replace(numbered(20), "10\n11\n", "ten\n", 1)
	if c := readFile(t, path); c != want {
		t.Errorf("file %q", c)
	}
	d := res.Details.(editDetails)
	wantDiff := strings.Join([]string{
		"    ...",
		"  6 6",
		"  7 7",
		"  8 8",
		"  9 9",
		"-10 10",
		"-11 11",
		"+10 ten",
		" 12 12",
		" 13 13",
		" 14 14",
		" 15 15",
		"    ...",
	}, "\n")
	if d.Diff != wantDiff {
		t.Errorf("diff\n%s\nwant\n%s", d.Diff, wantDiff)
	}
	if d.FirstChangedLine != 10 {
		t.Errorf("first changed line %d", d.FirstChangedLine)
	}
}

func TestEditErrors(t *testing.T) {
	env := newEnv(t)
	writeFile(t, filepath.Join(env.Cwd, "f.txt"), "alpha\nbeta\nalpha\n")
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "missing.txt", "oldText": "a", "newText": "b"}, "File not found: missing.txt"},
		{map[string]any{"path": "f.txt", "oldText": "gamma", "newText": "b"}, "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines."},
		{map[string]any{"path": "f.txt", "oldText": "Beta", "newText": "b"}, "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines."},
		{map[string]any{"path": "f.txt", "oldText": "alpha", "newText": "b"}, "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique."},
		{map[string]any{"path": "f.txt", "oldText": "beta", "newText": "beta"}, "No changes made to f.txt. The replacement produced identical content."},
		{map[string]any{"path": ".", "oldText": "a", "newText": "b"}, ". is a directory, not a file"},
	} {
		if got, _ := mustFail(t, NewEdit(), env, tc.args); got != tc.want {
			t.Errorf("%v:\n got %q\nwant %q", tc.args, got, tc.want)
		}
	}
	if c := readFile(t, filepath.Join(env.Cwd, "f.txt")); c != "alpha\nbeta\nalpha\n" {
		t.Errorf("a failed edit changed the file: %q", c)
	}
}

func TestEditKeepsCRLFAndBOM(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "win.txt")
	writeFile(t, path, "\ufeffone\r\ntwo\r\nthree\r\n")
	// The model writes LF; the file keeps CRLF, and the BOM stays in front.
	mustText(t, NewEdit(), env, map[string]any{"path": "win.txt", "oldText": "one\ntwo\n", "newText": "1\n2\n2.5\n"})
	if c, want := readFile(t, path), "\ufeff1\r\n2\r\n2.5\r\nthree\r\n"; c != want {
		t.Errorf("file %q, want %q", c, want)
	}
	// The first line's text after the BOM can be matched.
	mustText(t, NewEdit(), env, map[string]any{"path": "win.txt", "oldText": "1\r\n", "newText": "uno\n"})
	if c, want := readFile(t, path), "\ufeffuno\r\n2\r\n2.5\r\nthree\r\n"; c != want {
		t.Errorf("file %q, want %q", c, want)
	}
}

func TestEditLeavesOtherLineEndingsAlone(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "mixed.txt")
	writeFile(t, path, "a\r\nb\nc\r\nd\n")
	mustText(t, NewEdit(), env, map[string]any{"path": "mixed.txt", "oldText": "c\n", "newText": "C\nC2\n"})
	if c, want := readFile(t, path), "a\r\nb\nC\r\nC2\r\nd\n"; c != want {
		t.Errorf("file %q, want %q", c, want)
	}
	path = filepath.Join(env.Cwd, "unix.txt")
	writeFile(t, path, "x\ny\n")
	mustText(t, NewEdit(), env, map[string]any{"path": "unix.txt", "oldText": "y", "newText": "y\r\nz"})
	if c, want := readFile(t, path), "x\ny\nz\n"; c != want {
		t.Errorf("LF file %q, want %q", c, want)
	}
}

func TestNumberedDiff(t *testing.T) {
	t.Run("changes far apart get separate context", func(t *testing.T) {
		old := numbered(30)
		updated := strings.Replace(strings.Replace(old, "\n3\n", "\nthree\n", 1), "\n27\n", "\ntwenty-seven\n", 1)
		diff, first := numberedDiff(old, updated, 2)
		want := strings.Join([]string{
			"  1 1",
			"  2 2",
			"- 3 3",
			"+ 3 three",
			"  4 4",
			"  5 5",
			"    ...",
			" 25 25",
			" 26 26",
			"-27 27",
			"+27 twenty-seven",
			" 28 28",
			" 29 29",
			"    ...",
		}, "\n")
		if diff != want || first != 3 {
			t.Errorf("first %d, diff\n%s\nwant\n%s", first, diff, want)
		}
	})
	t.Run("close changes share context", func(t *testing.T) {
		diff, _ := numberedDiff("a\nb\nc\nd\n", "A\nb\nc\nD\n", 4)
		want := "-1 a\n+1 A\n 2 b\n 3 c\n-4 d\n+4 D"
		if diff != want {
			t.Errorf("diff\n%s\nwant\n%s", diff, want)
		}
	})
	t.Run("insertion and deletion", func(t *testing.T) {
		diff, first := numberedDiff("a\nb\n", "a\nx\ny\nb\n", 1)
		if want := " 1 a\n+2 x\n+3 y\n 2 b"; diff != want || first != 2 {
			t.Errorf("first %d diff\n%s\nwant\n%s", first, diff, want)
		}
		diff, first = numberedDiff("a\nx\ny\nb\n", "a\nb\n", 1)
		if want := " 1 a\n-2 x\n-3 y\n 4 b"; diff != want || first != 2 {
			t.Errorf("first %d diff\n%s\nwant\n%s", first, diff, want)
		}
	})
	t.Run("minimal inside a replaced block", func(t *testing.T) {
		diff, _ := numberedDiff("p\nq\nr\ns\nt\n", "p\nQ\nr\ns\nT\n", 0)
		if want := "   ...\n-2 q\n+2 Q\n   ...\n-5 t\n+5 T"; diff != want {
			t.Errorf("diff\n%s\nwant\n%s", diff, want)
		}
	})
	t.Run("too many edits falls back to a block", func(t *testing.T) {
		var a, b strings.Builder
		for i := range 2 * maxDiffEdits {
			a.WriteString("a" + itoa(i) + "\n")
			b.WriteString("b" + itoa(i) + "\n")
		}
		diff, _ := numberedDiff(a.String(), b.String(), 4)
		if n := strings.Count(diff, "\n-"); n != 2*maxDiffEdits-1 {
			t.Errorf("%d removed lines", n+1)
		}
		if !strings.HasPrefix(diff, "-   1 a0\n") || !strings.HasSuffix(diff, "\n+1000 b999") {
			t.Errorf("diff starts %q ends %q", diff[:20], diff[len(diff)-20:])
		}
	})
}
