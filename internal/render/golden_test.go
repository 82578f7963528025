package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/mrkdwn, testdata/discord and testdata/telegram")

// goldenInputs lists the markdown inputs of a dialect's golden files, testdata/<dir>/*.md.
func goldenInputs(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join("testdata", dir, "*.md"))
}

// checkGolden renders every testdata/<dir>/*.md with render and compares the result, with a
// final newline, to the file beside it with the same name and the extension ext; -update
// rewrites those files instead. render gets the subtest's t for checks of its own.
func checkGolden(t *testing.T, dir, ext string, render func(t *testing.T, md string) string) {
	t.Helper()
	inputs, err := goldenInputs(dir)
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs in testdata/%s (%v)", dir, err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		t.Run(name, func(t *testing.T) {
			md, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, string(md)) + "\n"
			golden := strings.TrimSuffix(in, ".md") + ext
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run %s -update to create it)", err, strings.SplitN(t.Name(), "/", 2)[0])
			}
			if got != string(want) {
				t.Errorf("rendering %s differs from %s:\n%s", in, golden, lineDiff(string(want), got))
			}
		})
	}
}

// addGoldenSeeds adds every golden input of testdata/<dir> to a fuzz test's corpus, once with
// each limit.
func addGoldenSeeds(f *testing.F, dir string, limits ...int) {
	inputs, _ := goldenInputs(dir)
	for _, in := range inputs {
		md, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		for _, n := range limits {
			f.Add(string(md), n)
		}
	}
}

// lineDiff shows the first lines where want and got part ways.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}
