package skills

import (
	"strings"
	"testing"
)

func TestParseFrontmatter(t *testing.T) {
	tests := []struct {
		name, in    string
		wantName    string
		wantDesc    string
		wantHidden  bool
		wantProblem string
	}{
		{name: "plain", in: "---\nname: pdf\ndescription: Reads PDFs.\n---\nbody",
			wantName: "pdf", wantDesc: "Reads PDFs."},
		{name: "CRLF and BOM", in: "\xef\xbb\xbf---\r\nname: pdf\r\ndescription: Reads PDFs.\r\n---\r\n",
			wantName: "pdf", wantDesc: "Reads PDFs."},
		{name: "plain with comment", in: "---\ndescription: Reads PDFs. # todo\n---\n",
			wantDesc: "Reads PDFs."},
		{name: "plain keeps a hash inside a word", in: "---\ndescription: Uses C# and F#\n---\n",
			wantDesc: "Uses C# and F#"},
		{name: "plain continued on indented lines", in: "---\ndescription: Reads PDFs\n  and fills forms.\nname: x\n---\n",
			wantName: "x", wantDesc: "Reads PDFs and fills forms."},
		{name: "single quoted", in: "---\nname: 'pdf'\ndescription: 'It''s: for PDFs'\n---\n",
			wantName: "pdf", wantDesc: "It's: for PDFs"},
		{name: "double quoted with escapes", in: "---\ndescription: \"Say \\\"hi\\\"\\tto \\u00e9\\nnow\" # c\n---\n",
			wantDesc: "Say \"hi\"\tto é\nnow"},
		{name: "double quoted across lines", in: "---\ndescription: \"one\n  two\\\n  three\"\n---\n",
			wantDesc: "one twothree"},
		{name: "folded", in: "---\ndescription: >\n  Reads PDFs\n  and fills forms.\n\n  Second paragraph.\nname: f\n---\n",
			wantName: "f", wantDesc: "Reads PDFs and fills forms.\nSecond paragraph."},
		{name: "folded strip", in: "---\ndescription: >-\n    Reads PDFs\n    quickly.\n---\n",
			wantDesc: "Reads PDFs quickly."},
		{name: "literal", in: "---\ndescription: |\n  line one\n    indented\n  line three\n---\n",
			wantDesc: "line one\n  indented\nline three"},
		{name: "other keys ignored", in: "---\nname: x\nlicense: MIT\nmetadata:\n  description: not this\n  author: a\nallowed-tools:\n  - bash\ndescription: this\n---\n",
			wantName: "x", wantDesc: "this"},
		{name: "hidden", in: "---\ndescription: d\ndisable-model-invocation: true\n---\n",
			wantDesc: "d", wantHidden: true},
		{name: "not hidden", in: "---\ndescription: d\ndisable-model-invocation: false\n---\n",
			wantDesc: "d"},
		{name: "name spaces collapsed", in: "---\nname: \"a\\nb\"\ndescription: d\n---\n",
			wantName: "a b", wantDesc: "d"},
		{name: "dots end the block", in: "---\ndescription: d\n...\n",
			wantDesc: "d"},
		{name: "no frontmatter", in: "# PDF skill\n",
			wantProblem: "it does not start with a frontmatter block (a \"---\" line, then name and description, then \"---\")"},
		{name: "unclosed", in: "---\ndescription: d\n",
			wantProblem: "its frontmatter has no closing \"---\" line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, problem := parseFrontmatter([]byte(tt.in), false)
			if problem != tt.wantProblem {
				t.Fatalf("problem = %q, want %q", problem, tt.wantProblem)
			}
			if fm.name != tt.wantName || fm.description != tt.wantDesc || fm.hidden != tt.wantHidden {
				t.Errorf("got name %q desc %q hidden %v; want %q %q %v", fm.name, fm.description, fm.hidden,
					tt.wantName, tt.wantDesc, tt.wantHidden)
			}
		})
	}
}

func TestParseFrontmatterTruncated(t *testing.T) {
	in := "---\ndescription: " + strings.Repeat("x", maxHead)
	_, problem := parseFrontmatter([]byte(in[:maxHead]), true)
	if problem != "its frontmatter does not end within the first 16 KiB" {
		t.Errorf("problem = %q", problem)
	}
}

func TestDescriptionIsCapped(t *testing.T) {
	fm, _ := parseFrontmatter([]byte("---\ndescription: "+strings.Repeat("é", 3000)+"\n---\n"), false)
	if n := len([]rune(fm.description)); n != maxDescription {
		t.Errorf("description has %d runes, want %d", n, maxDescription)
	}
	if !strings.HasSuffix(fm.description, "…") {
		t.Errorf("cut not marked")
	}
}

func FuzzParseFrontmatter(f *testing.F) {
	f.Add("---\nname: a\ndescription: >\n  b\n  c\n---\n")
	f.Add("---\ndescription: \"x\\u00\n  y\\\n---\n")
	f.Add("---\ndescription: 'a''\n---\n")
	f.Fuzz(func(t *testing.T, in string) {
		fm, _ := parseFrontmatter([]byte(in), false)
		if len([]rune(fm.description)) > maxDescription {
			t.Errorf("description longer than the cap")
		}
	})
}
