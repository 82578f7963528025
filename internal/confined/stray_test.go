package confined

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pathCalls are the functions that take a path and open, create, change or look at what is
// there, following links on the way. In mom's own code outside this package they may touch
// only paths that are not in the workspace.
var pathCalls = map[string][]string{
	"os": {"Open", "OpenFile", "Create", "CreateTemp", "MkdirTemp", "ReadFile", "WriteFile", "ReadDir",
		"Mkdir", "MkdirAll", "Remove", "RemoveAll", "Rename", "Link", "Symlink", "Readlink", "Stat", "Lstat",
		"Chmod", "Chown", "Lchown", "Chtimes", "Truncate", "DirFS", "OpenRoot", "OpenInRoot", "CopyFS"},
	"filepath": {"EvalSymlinks", "Walk", "WalkDir", "Glob"},
	"ioutil":   {"ReadFile", "WriteFile", "ReadDir", "TempFile", "TempDir"},
}

// allowed are the places outside this package that call one of pathCalls, each with the
// reason its paths are not in the workspace (or, for the host sandbox, why nothing is
// confined there). A new call anywhere else fails TestNoStrayPathCalls: reach the workspace
// through a Dir, or add the place here with its reason, for a reviewer to judge.
var allowed = map[string]string{
	// Outside the workspace: the data directory itself, config.json, tokens, the lock.
	"internal/config/firstrun.go:EnsureDir":   "the data directory and its config.json",
	"internal/config/config.go:Load":          "config.json in the data directory",
	"internal/config/types.go:AdapterTypes":   "config.json in the data directory",
	"internal/config/limits.go:LimitsZone":    "config.json in the data directory",
	"cmd/mom/usage.go:cmdUsage":               "the data directory itself",
	"internal/adapter/web/token.go:loadToken": "web.token in the data directory",
	"internal/store/lock_unix.go:Lock":        "the lock file in the data directory",
	"internal/store/store.go:Open":            "creates the data directory itself",
	// A linked WhatsApp device's keys, in <data>/whatsapp/, beside the workspace.
	"internal/adapter/whatsapp/device.go:prepareDeviceFile": "<data>/whatsapp/<adapter>.db",
	"internal/adapter/whatsapp/device.go:SetAsideLoggedOut": "<data>/whatsapp/<adapter>.db",
	// Custom tools live in <data>/tools and ~/.config/mom/tools, outside the workspace.
	"internal/customtools/registry.go:Start":        "<data>/tools",
	"internal/customtools/scan.go:scanDirs":         "<data>/tools and ~/.config/mom/tools",
	"internal/customtools/scan.go:scanFolder":       "<data>/tools and ~/.config/mom/tools",
	"internal/customtools/watch.go:anchor":          "<data>/tools and ~/.config/mom/tools",
	"internal/customtools/manifest.go:readManifest": "<data>/tools and ~/.config/mom/tools",
	"internal/customtools/manifest.go:parseExec":    "<data>/tools and ~/.config/mom/tools",
	// mom import converts an old log to compare with a channel's in a directory of its own.
	"internal/pimport/channel.go:existingChannel": "a private temporary directory outside the workspace",
	// The system's own files.
	"internal/agent/prompt.go:zoneName":         "/etc/localtime",
	"cmd/mom/memory.go:memTotal":                "/proc/meminfo",
	"cmd/mom/memory.go:cgroupLimit":             "the cgroup's memory limit under /sys/fs/cgroup",
	"cmd/mom/memory.go:readLimit":               "the cgroup's memory limit under /sys/fs/cgroup",
	"cmd/mom/release.go:threads":                "/proc/self/status",
	"cmd/mom/pages_linux.go:releaseBinaryPages": "/proc/self/maps",
	// The sandboxes' file tools act for the agent: they follow links as a command inside the
	// sandbox would and check where each one leads (workspaceMap.confine, openedAt,
	// writeConfined through an os.Root); on the host sandbox there is no boundary to keep.
	"internal/sandbox/workspace.go:newWorkspaceMap":    "the workspace's own path",
	"internal/sandbox/workspace.go:follow":             "resolves links as the sandbox would, refusing those that lead out",
	"internal/sandbox/confined_files.go:openedAt":      "/proc/self/fd, to see where a descriptor really is",
	"internal/sandbox/host_files.go:checkMomOnly":      "the host sandbox only",
	"internal/sandbox/docker.go:sameDir":               "the workspace itself, as docker names its mount",
	"internal/sandbox/confined_write.go:writeConfined": "an os.Root of the workspace",
	"internal/sandbox/host_files.go:openHost":          "after confine (bwrap, docker) or on the host sandbox",
	"internal/sandbox/host_files.go:statHost":          "after confine (bwrap, docker) or on the host sandbox",
	"internal/sandbox/host_run.go:checkDir":            "the working directory, after confine",
	"internal/sandbox/atomic.go:writeFileAtomic":       "the host sandbox only",
	"internal/sandbox/atomic.go:resolveTarget":         "the host sandbox only",
	"internal/sandbox/atomic.go:syncDir":               "a directory the write just used",
	"internal/sandbox/bwrap_mounts.go:systemMounts":    "/usr, /etc and the other system directories",
}

// TestNoStrayPathCalls walks mom's source for calls that would open a workspace path while
// following links, outside this package and the places in allowed.
func TestNoStrayPathCalls(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var stray []string
	fset := token.NewFileSet()
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				// Test doubles of external services, test helpers (the packages named
				// *test, which internal/app's TestDependenciesPointDown keeps out of the
				// binary) and test programs touch only test files.
				if d.Name() == "testdata" || rel == "internal/fake" || strings.HasSuffix(d.Name(), "test") || rel == "internal/confined" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					pkg, ok := sel.X.(*ast.Ident)
					if !ok || !slices.Contains(pathCalls[pkg.Name], sel.Sel.Name) {
						return true
					}
					site := rel + ":" + fn.Name.Name
					seen[site] = true
					if _, ok := allowed[site]; !ok {
						stray = append(stray, fset.Position(call.Pos()).String()+": "+pkg.Name+"."+sel.Sel.Name+" in "+fn.Name.Name)
					}
					return true
				})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range stray {
		t.Errorf("%s: reach workspace files through confined.Dir (or, for a path outside the workspace, add the place to allowed with its reason)", s)
	}
	for site := range allowed {
		if !seen[site] {
			t.Errorf("allowed lists %s, which makes no such call any more: remove it", site)
		}
	}
}
