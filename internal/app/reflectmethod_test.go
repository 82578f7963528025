package app

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNoReflectMethod builds mom's binary and reads the linker's account of what it kept and
// why (-dumpdep). A reachable function that can call a method by a name known only at run time
// (reflect.Value.MethodByName; text/template's field lookup reaches it) makes the linker keep
// every exported method of every type in the program, which made mom's binary half again as
// large (issue 18). The failure names the chain of symbols from the program's entry to it.
//
// It checks the default build, WhatsApp included. With Go 1.26, google.golang.org/protobuf
// before v1.36.12 kept every method this way: its descriptor formatter (internal/descfmt) looked
// up a method named "Methods" by constant name, and the linker keeps every method of that name,
// among them reflect.Type's and reflect.Value's new iterators, which call Method(i). That cost
// the WhatsApp build 22 MB (74 MB stripped against 52 MB); a dependency that brings such a call
// back fails here.
func TestNoReflectMethod(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and links mom's binary, which takes 30-60 s; run without -short")
	}
	bin := filepath.Join(t.TempDir(), "mom")
	out, err := exec.Command("go", "build", "-ldflags=-dumpdep", "-o", bin, "../../cmd/mom").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -ldflags=-dumpdep ../../cmd/mom: %v\n%s", err, out[max(0, len(out)-2000):])
	}
	dump := string(out)
	if !strings.Contains(dump, " -> main.main\n") {
		t.Fatalf("the linker's dependency dump does not reach main.main; has -dumpdep's format changed?\n%.2000s", dump)
	}
	if chains := reflectMethodChains(dump); len(chains) > 0 {
		// The first is the cause; once the linker has seen it, it keeps the reflect package's
		// own by-name methods too, and those follow.
		t.Errorf("mom's binary keeps every exported method of every type, because it reaches a call of a method by name:\n%s\n"+
			"%d more chains follow from it; see them with: go build -ldflags=-dumpdep ./cmd/mom 2>&1 | grep ReflectMethod\n"+
			"If a type leads straight to one of its methods in the chain (type:*reflect.rtype -> reflect.(*rtype).Methods), some code asks for a method of that name "+
			"by a constant name (MethodByName(\"Methods\")), which keeps every method so named; find which names with: "+
			"go build -ldflags=-v=2 ./cmd/mom 2>&1 | grep 'generic iface method'",
			chains[0], len(chains)-1)
	}
}

// reflectMethodChains reads the output of the linker's -dumpdep, one "from -> to" line for each
// symbol it keeps, where to was kept because from was. For each symbol marked <ReflectMethod>
// it returns the chain of symbols that kept it, from the program's entry down, one a line,
// in the order the linker marked them.
func reflectMethodChains(dump string) []string {
	const flag = "<ReflectMethod>"
	parent := map[string]string{}
	var found []string
	for _, line := range strings.Split(dump, "\n") {
		from, to, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		name := symbolName(to)
		if _, seen := parent[name]; !seen {
			parent[name] = symbolName(from)
		}
		for _, s := range []string{to, from} {
			if strings.HasSuffix(s, flag) && !slices.Contains(found, symbolName(s)) {
				found = append(found, symbolName(s))
			}
		}
	}
	var chains []string
	for _, sym := range found {
		chain := []string{sym}
		for p, ok := parent[sym]; ok && p != "_" && len(chain) < 100; p, ok = parent[p] {
			chain = append(chain, p)
		}
		slices.Reverse(chain)
		chains = append(chains, strings.Join(chain, "\n  -> "))
	}
	return chains
}

// symbolName strips the flags -dumpdep writes after a symbol's name ("<UsedInIface>",
// "<ReflectMethod>"); a name itself may hold spaces.
func symbolName(s string) string {
	s = strings.TrimSuffix(s, "<ReflectMethod>")
	s = strings.TrimSuffix(s, "<UsedInIface>")
	return strings.TrimSuffix(s, " ")
}

func TestReflectMethodChains(t *testing.T) {
	t.Parallel()
	dump := "# github.com/mom-agent/mom/cmd/mom\n" +
		"_ -> runtime.main\n" +
		"runtime.main -> main.main\n" +
		"main.main -> prompt.Build\n" +
		"main.main -> fmt.Println\n" +
		"prompt.Build -> text/template.(*Template).Execute <UsedInIface>\n" +
		"text/template.(*Template).Execute <UsedInIface> -> text/template.(*state).evalField <ReflectMethod>\n" +
		"text/template.(*state).evalField <ReflectMethod> -> go:string.\"nil pointer evaluating %s.%s\"\n" +
		"fmt.Println -> text/template.(*state).evalField <ReflectMethod>\n" // Already kept: not its parent.
	want := "runtime.main\n" +
		"  -> main.main\n" +
		"  -> prompt.Build\n" +
		"  -> text/template.(*Template).Execute\n" +
		"  -> text/template.(*state).evalField"
	got := reflectMethodChains(dump)
	if len(got) != 1 || got[0] != want {
		t.Errorf("chains = %q\nwant [%q]", got, want)
	}
	if got := reflectMethodChains(strings.ReplaceAll(dump, " <ReflectMethod>", "")); len(got) != 0 {
		t.Errorf("chains without a ReflectMethod symbol = %q", got)
	}
}
