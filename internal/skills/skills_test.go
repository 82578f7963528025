package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
)

// write creates a file with its parent directories.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skillMD(name, desc string) string {
	s := "---\n"
	if name != "" {
		s += "name: " + name + "\n"
	}
	if desc != "" {
		s += "description: " + desc + "\n"
	}
	return s + "---\n# Instructions\n"
}

func names(skills []Skill) string {
	var out []string
	for _, s := range skills {
		out = append(out, s.Name+"="+s.Description)
	}
	return strings.Join(out, ", ")
}

func TestDiscoverOverrides(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "workspace", "skills")
	ch := filepath.Join(root, "channel", "skills")
	write(t, filepath.Join(ws, "pdf", FileName), skillMD("pdf", "workspace pdf"))
	write(t, filepath.Join(ws, "gmail", FileName), skillMD("", "workspace gmail"))
	write(t, filepath.Join(ws, "secret", FileName), skillMD("secret", "workspace secret"))
	write(t, filepath.Join(ch, "my-pdf", FileName), skillMD("pdf", "channel pdf"))
	write(t, filepath.Join(ch, "hide-secret", FileName), "---\nname: secret\ndescription: x\ndisable-model-invocation: true\n---\n")
	write(t, filepath.Join(ch, "zeta", FileName), skillMD("zeta", "channel zeta"))

	got, errs := Discover(confined.Root(ws), confined.Root(ch), confined.Root(filepath.Join(root, "missing")))
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if want := "gmail=workspace gmail, pdf=channel pdf, zeta=channel zeta"; names(got) != want {
		t.Errorf("skills = %s\nwant     %s", names(got), want)
	}
	pdf := got[1]
	if pdf.Dir != filepath.Join(ch, "my-pdf") || pdf.Path != filepath.Join(ch, "my-pdf", FileName) {
		t.Errorf("pdf paths = %q, %q", pdf.Dir, pdf.Path)
	}
}

func TestDiscoverSkipsAndReports(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "nodesc", FileName), skillMD("nodesc", ""))
	write(t, filepath.Join(dir, "nofm", FileName), "# just text\n")
	write(t, filepath.Join(dir, "a-first", FileName), skillMD("dup", "first"))
	write(t, filepath.Join(dir, "b-second", FileName), skillMD("dup", "second"))
	write(t, filepath.Join(dir, ".hidden", "x", FileName), skillMD("dot", "in a dot dir"))
	write(t, filepath.Join(dir, "node_modules", "y", FileName), skillMD("nm", "in node_modules"))
	write(t, filepath.Join(dir, "README.md"), "not a skill folder")
	write(t, filepath.Join(dir, "group", "inner", FileName), skillMD("inner", "grouped"))
	write(t, filepath.Join(dir, "a", "b", "c", "d", FileName), skillMD("deep", "too deep"))
	write(t, filepath.Join(dir, "outer", FileName), skillMD("outer", "outer"))
	write(t, filepath.Join(dir, "outer", "nested", FileName), skillMD("nested", "inside another skill"))

	got, errs := Discover(confined.Root(dir))
	if want := "dup=first, inner=grouped, outer=outer"; names(got) != want {
		t.Errorf("skills = %s\nwant     %s", names(got), want)
	}
	want := []string{
		"skipping skill " + filepath.Join(dir, "b-second", FileName) + ": the name \"dup\" is already used by " + filepath.Join(dir, "a-first", FileName),
		"skipping skill " + filepath.Join(dir, "nodesc", FileName) + ": its frontmatter has no description; add a line like \"description: what it does and when to use it\"",
		"skipping skill " + filepath.Join(dir, "nofm", FileName) + ": it does not start with a frontmatter block (a \"---\" line, then name and description, then \"---\")",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors = %v\nwant %q", errs, want)
	}
	for i := range want {
		if errs[i].Error() != want[i] {
			t.Errorf("error %d = %q\nwant      %q", i, errs[i], want[i])
		}
	}
}

// TestDiscoverSkipsLinks: links in a skills directory are reported, never followed. The
// skills directories are in the workspace, where a command can point a link at another
// channel's skills (which its own sandbox hides) or at a folder outside.
func TestDiscoverSkipsLinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "skills")
	shared := filepath.Join(root, "shared", "pdf")
	write(t, filepath.Join(shared, FileName), skillMD("pdf", "linked in"))
	write(t, filepath.Join(dir, "group", "own", FileName), skillMD("own", "own"))
	links := map[string]string{
		filepath.Join(dir, "pdf"):           shared,                      // a linked skill
		filepath.Join(dir, "pdf-again"):     shared,                      // the same one twice
		filepath.Join(dir, "group", "up"):   dir,                         // a loop to an ancestor
		filepath.Join(dir, "group", "self"): filepath.Join(dir, "group"), // a loop to itself
		filepath.Join(dir, "dangling"):      filepath.Join(root, "nowhere"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Skip("symlinks not supported:", err)
		}
	}
	got, errs := Discover(confined.Root(root).Join("skills"))
	if want := "own=own"; names(got) != want {
		t.Errorf("skills = %s\nwant     %s", names(got), want)
	}
	if len(errs) != len(links) {
		t.Errorf("%d errors, want one per link: %v", len(errs), errs)
	}
	for _, err := range errs {
		if !strings.Contains(err.Error(), "is a symbolic link") && !strings.Contains(err.Error(), "it is a symbolic link") {
			t.Errorf("error does not say why: %v", err)
		}
	}
}

func TestDiscoverRootIsALink(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	write(t, filepath.Join(real, "x", FileName), skillMD("x", "d"))
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	got, errs := Discover(confined.Root(root).Join("link"))
	if len(got) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "is a symbolic link") {
		t.Errorf("a skills directory that is a link: got %+v, %v", got, errs)
	}
}

func BenchmarkDiscover(b *testing.B) {
	root := b.TempDir()
	for i := range 20 {
		p := filepath.Join(root, "ws", string(rune('a'+i)), FileName)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		body := skillMD(string(rune('a'+i)), "does a thing") + strings.Repeat("instructions\n", 2000)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ws, ch := filepath.Join(root, "ws"), filepath.Join(root, "channel", "skills")
	b.ReportAllocs()
	for b.Loop() {
		if s, _ := Discover(confined.Root(ws), confined.Root(ch)); len(s) != 20 {
			b.Fatal(len(s))
		}
	}
}
