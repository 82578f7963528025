package customtools

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
)

// folderKind says what a tool folder holds.
type folderKind int

const (
	kindNone folderKind = iota // neither manifest (yet)
	kindExec                   // tool.json
	kindMCP                    // mcp.json
	kindBoth                   // both: a mistake, refused
)

// scanned is a tool folder as found on disk.
type scanned struct {
	path  string
	order int // index of its directory among the scanned ones
	kind  folderKind
	// fingerprint changes whenever the manifest does or the program it names does (its size,
	// time or mode), so an edited manifest or a rebuilt server reloads the folder. Other files
	// are left out: tools keep state in their folders (a token cache), and writing it must not
	// restart them.
	fingerprint string
}

// scanDirs lists the tool folders of dirs, in order: directories in the order given, folders
// by name. Hidden folders (".git", ".cache") are not tools. A missing directory has none.
func scanDirs(dirs []string) []scanned {
	var out []scanned
	for i, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			// Follow symbolic links: linking a checked-out tool in is a natural way to install it.
			if info, err := os.Stat(path); err != nil || !info.IsDir() {
				continue
			}
			out = append(out, scanFolder(path, i))
		}
	}
	return out
}

func scanFolder(path string, order int) scanned {
	s := scanned{path: path, order: order}
	h := fnv.New64a()
	found := 0
	for _, name := range []string{toolManifest, mcpManifest} {
		data, err := os.ReadFile(filepath.Join(path, name))
		if err != nil {
			continue
		}
		found++
		if name == toolManifest {
			s.kind = kindExec
		} else {
			s.kind = kindMCP
		}
		fmt.Fprintf(h, "%s\x00%s\x00", name, data)
		var ref struct{ Run, Command string }
		_ = json.Unmarshal(data, &ref)
		for _, prog := range []string{ref.Run, ref.Command} {
			if prog == "" {
				continue
			}
			if !filepath.IsAbs(prog) {
				prog = filepath.Join(path, prog)
			}
			if info, err := os.Stat(prog); err == nil {
				fmt.Fprintf(h, "%d\x00%d\x00%o\x00", info.Size(), info.ModTime().UnixNano(), info.Mode())
			}
		}
	}
	if found == 2 {
		s.kind = kindBoth
	}
	s.fingerprint = fmt.Sprintf("%x", h.Sum64())
	return s
}
