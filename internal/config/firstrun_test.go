package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	_, err := Load(path)
	want := path + " does not exist; run mom with the data directory once to create a template, or write it by hand"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

// TestTemplateParts: parts go inside "adapters", indented, in their order; an empty line
// separates them, but a commented one joins two examples into one block of comments.
func TestTemplateParts(t *testing.T) {
	t.Parallel()
	got := Template(
		TemplatePart{Name: "the pager", Text: "// Page someone.\n\"pager\": {\"type\": \"pager\"},\n"},
		TemplatePart{Name: "Nothing"},
		TemplatePart{Name: "Matrix", Text: "// Matrix: make a bot.\n//\n// \"matrix\": {\"type\": \"matrix\"},"},
		TemplatePart{Name: "IRC", Text: "// \"irc\": {\"type\": \"irc\"},\n"},
	)
	want := `  "adapters": {
    // Page someone.
    "pager": {"type": "pager"},

    // Matrix: make a bot.
    //
    // "matrix": {"type": "matrix"},
    //
    // "irc": {"type": "irc"},
  },
`
	if !strings.Contains(got, want) {
		t.Errorf("template's adapters:\n%s\nwant:\n%s", got[strings.Index(got, `  "adapters"`):], want)
	}
	if strings.Contains(got, "@platforms") {
		t.Error("the marker for the parts is left in the template")
	}
	if none := Template(); !strings.Contains(none, "  \"adapters\": {\n  },\n") {
		t.Errorf("template without parts:\n%s", none)
	}
}

func TestTemplateWritten(t *testing.T) {
	t.Parallel()
	on := TemplatePart{Name: "the pager", Text: `"pager": {"type": "pager"},`}
	on2 := TemplatePart{Name: "the kiosk", Text: "// A screen.\n\"kiosk\": {},"}
	off := TemplatePart{Name: "Matrix", Text: `// "matrix": {},`}
	off2 := TemplatePart{Name: "IRC", Text: `// "irc": {},`}
	off3 := TemplatePart{Name: "XMPP", Text: `// "xmpp": {},`}
	tests := []struct {
		parts []TemplatePart
		want  string
	}{
		{nil, "Created c.json."},
		{[]TemplatePart{on}, "Created c.json with the pager enabled."},
		{[]TemplatePart{on, off}, "Created c.json with the pager enabled. Edit it to add Matrix."},
		{[]TemplatePart{off, on, {Name: "Nothing"}, off2, on2}, "Created c.json with the pager and the kiosk enabled. Edit it to add Matrix or IRC."},
		{[]TemplatePart{off, off2, off3}, "Created c.json. Edit it to add Matrix, IRC or XMPP."},
	}
	for _, tt := range tests {
		if got := TemplateWritten("c.json", tt.parts...); got != tt.want {
			t.Errorf("TemplateWritten(%v) =\n%s\nwant\n%s", tt.parts, got, tt.want)
		}
	}
}
