package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFill(t *testing.T) {
	t.Parallel()
	values := map[string]value{
		"Name":   {text: "mom"},
		"Empty":  {text: ""},
		"Lines":  {text: "one\ntwo"},
		"Ended":  {text: "one\n"},
		"Braces": {text: "{{Name}}"},
		"Prose":  {text: "I am {{Name}}.\n{{Empty}}\n", prose: true},
	}
	lookup := func(name string) (value, bool) {
		v, ok := values[name]
		return v, ok
	}
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"no placeholders\n", "no placeholders\n"},
		{"Hi {{Name}}, {{Name}}{{Name}}!\n", "Hi mom, mommom!\n"},
		{"{{Name}}", "mom\n"}, // Alone on its line, even the last one: it ends the line.
		{"a\n{{Name}}\nb\n", "a\nmom\nb\n"},
		{"a\n{{Lines}}\nb\n", "a\none\ntwo\nb\n"},
		{"a\n{{Ended}}\nb\n", "a\none\nb\n"},
		{"a\n{{Empty}}\nb\n", "a\nb\n"},                    // An empty value takes its line with it...
		{"a {{Empty}}\nb\n", "a \nb\n"},                    // ...but not when the line has more.
		{"a\n{{Empty}}", "a\n"},                            // Last line, no newline.
		{"[{{Lines}}]\n", "[one\ntwo]\n"},                  // Inline, a value is written as it is.
		{"{{Braces}} {{Braces}}\n", "{{Name}} {{Name}}\n"}, // Values are not filled again.
		{"{{Prose}}\nend\n", "I am mom.\nend\n"},           // Prose is, and its empty line goes.
		{"say: {{Prose}}", "say: I am mom.\n"},
		{"{{Unknown}} {{ Name }} {{}} {{Na-me}} {{Name\n", "{{Unknown}} {{ Name }} {{}} {{Na-me}} {{Name\n"},
		{"{{Unknown}}\n", "{{Unknown}}\n"},
		{"{{{Name}}} {Name} {{Name}", "{mom} {Name} {{Name}"},
		{`{"a":{"b":{"c":1}}}`, `{"a":{"b":{"c":1}}}`},
	} {
		var b strings.Builder
		fill(&b, tt.in, lookup)
		if got := b.String(); got != tt.want {
			t.Errorf("fill(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSectionFiles checks sections/ against build.go: every file is embedded, and every
// placeholder in a file is one that lookup knows.
func TestSectionFiles(t *testing.T) {
	t.Parallel()
	code, err := os.ReadFile("build.go")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("sections", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no section files: %v", err)
	}
	v := newView(&Params{})
	for _, f := range files {
		if !strings.Contains(string(code), "//go:embed "+filepath.ToSlash(f)+"\n") {
			t.Errorf("%s is not embedded in build.go", f)
		}
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for s := string(text); ; {
			i := strings.Index(s, "{{")
			if i < 0 {
				break
			}
			s = s[i:]
			name, n := placeholder(s)
			if n == 0 {
				t.Errorf("%s: %q is not a placeholder", f, s[:min(len(s), 20)])
				s = s[2:]
				continue
			}
			if _, ok := v.lookup(name); !ok {
				t.Errorf("%s: no value for {{%s}}", f, name)
			}
			s = s[n:]
		}
	}
}
