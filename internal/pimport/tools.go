package pimport

import (
	"path"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
)

// oldTools lists the custom tools of the original's design (docs/new.md): folders of
// TypeScript, loaded with jiti, in <old>/tools/ and ~/.pi/mom/tools/. Go cannot run them;
// the summary names them and the formats to rewrite them in. where is how a folder is named
// in the summary ("tools" or the home directory's path).
func oldTools(d confined.Dir, where string) []string {
	entries, err := d.ReadDir("")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		files, err := d.ReadDir(e.Name())
		if err != nil {
			continue
		}
		for _, f := range files {
			if ext := path.Ext(f.Name()); f.Type().IsRegular() && (ext == ".ts" || ext == ".js" || ext == ".mjs") {
				out = append(out, path.Join(where, e.Name()))
				break
			}
		}
	}
	return out
}
