package adapter

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/web"
	"github.com/mom-agent/mom/internal/config"
)

// The first-run template is config's, with a part from each platform; these tests check that
// it loads with the platforms built into mom, as mom loads it.

// update rewrites the golden files from what the code makes.
var update = flag.Bool("update", false, "rewrite the first-run golden file of this build (firstRunGolden)")

// builtinTemplate is the config.json mom writes on first run.
func builtinTemplate() string { return config.Template(Builtin().Template()...) }

// TestTemplateGolden: the file mom writes on first run is assembled from the platforms'
// parts, and stays what it was when config held it whole. Run with -update after changing
// it on purpose, and read the diff.
func TestTemplateGolden(t *testing.T) {
	t.Parallel()
	golden := firstRunGolden
	got := builtinTemplate()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the first-run config.json differs from %s:\n%s", golden, got)
	}
}

// TestTemplateHasEveryPart: each platform's part is in the file whole, indented into
// "adapters", in the registry's order.
func TestTemplateHasEveryPart(t *testing.T) {
	t.Parallel()
	tmpl := builtinTemplate()
	at := 0
	for _, s := range Builtin().Specs() {
		if s.Template.Text == "" {
			continue
		}
		part := "    " + strings.ReplaceAll(strings.TrimRight(s.Template.Text, "\n"), "\n", "\n    ") + "\n"
		i := strings.Index(tmpl[at:], part)
		if i < 0 {
			t.Errorf("the template lacks %s's part, or has it out of the registry's order:\n%s", s.Kind(), part)
			continue
		}
		at += i + len(part)
	}
}

// TestTemplateWritten: what mom says after writing the file names the platforms it starts and
// those it shows how to add, in the registry's order.
func TestTemplateWritten(t *testing.T) {
	t.Parallel()
	got := config.TemplateWritten("data/config.json", Builtin().Template()...)
	want := "Created data/config.json with the terminal and the web chat enabled. Edit it to add " + firstRunAdd + "."
	if got != want {
		t.Errorf("TemplateWritten =\n%s\nwant\n%s", got, want)
	}
}

func TestTemplateLoads(t *testing.T) {
	c, err := parse([]byte(builtinTemplate()), "config.json", noEnv)
	if err != nil {
		t.Fatalf("the first-run template does not load:\n%v", err)
	}
	if len(c.Adapters) != 2 || c.Adapters[0].Name != "terminal" || c.Adapters[0].Type != "cli" ||
		c.Adapters[1].Name != "web" || c.Adapters[1].Type != "web" {
		t.Fatalf("adapters = %+v, want the terminal and the web chat", c.Adapters)
	}
	if w := c.Adapters[1].Options.(*web.Config); w.Listen != web.DefaultListen || w.Token != "" {
		t.Errorf("web chat = %+v; want loopback and a generated token when nothing is set", w)
	}
	if err := c.Resolve(noEnv); err != nil {
		t.Fatal(err)
	}
	if c.Model.Provider != config.ProviderAnthropic || c.Sandbox.Type != "" {
		t.Errorf("defaults = %+v, %+v", c.Model, c.Sandbox)
	}
	for _, want := range []string{`"provider"`, `"id"`, `"apiKey"`, `"baseUrl"`, `"thinking"`, "Ollama", "vLLM", "llama.cpp", "OpenRouter",
		`"sandbox"`, `"type": "slack"`, `"type": "discord"`, `"type": "telegram"`, `"type": "web"`} {
		if !strings.Contains(builtinTemplate(), want) {
			t.Errorf("template does not mention %s", want)
		}
	}
}

// TestTemplateWebSettings: the environment moves the web chat and sets its token, so tests and
// containers need not edit the file.
func TestTemplateWebSettings(t *testing.T) {
	c, err := parse([]byte(builtinTemplate()), "config.json", env(map[string]string{
		"MOM_WEB_LISTEN": "127.0.0.1:0", "MOM_WEB_TOKEN": "a-token-of-twenty-chars"}))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Adapters[1].Options.(*web.Config); w.Listen != "127.0.0.1:0" || w.Token != "a-token-of-twenty-chars" {
		t.Errorf("web chat = %+v", w)
	}
	_, err = parse([]byte(builtinTemplate()), "config.json", env(map[string]string{"MOM_WEB_LISTEN": "0.0.0.0:8787"}))
	if err == nil || !strings.Contains(err.Error(), `adapters.web.listen: "0.0.0.0:8787" can be reached from other machines; set "token"`) {
		t.Errorf("listening on every interface without a token: %v", err)
	}
}

func TestEnsureDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	created, err := config.EnsureDir(dir, Builtin().Template()...)
	if err != nil || !created {
		t.Fatalf("EnsureDir = %v, %v; want created", created, err)
	}
	path := filepath.Join(dir, config.FileName)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("config.json mode = %v, want 0600", perm)
	}
	c, err := config.Load(path, Builtin().Config()...)
	if err != nil {
		t.Fatalf("the written config does not load: %v", err)
	}
	if c.Path != path {
		t.Errorf("Path = %q, want %q", c.Path, path)
	}

	// An existing file is never overwritten.
	if err := os.WriteFile(path, []byte(`{"adapters": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	created, err = config.EnsureDir(dir, Builtin().Template()...)
	if err != nil || created {
		t.Fatalf("second EnsureDir = %v, %v; want not created", created, err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"adapters": {}}` {
		t.Errorf("config.json was overwritten: %s", b)
	}
}

// FuzzParse checks that no input makes Parse panic and that a parsed config resolves.
func FuzzParse(f *testing.F) {
	f.Add(builtinTemplate())
	f.Add(`{"model": {"apiKey": "${K:-x}"}, "adapters": {"t": {"type": "cli", "dm": ["a"]}}}`)
	f.Add(`{"adapters": {"t": {"type": "cli", "dm": 1, "busy": "x", "y": 2}}, "z": null}`)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := parse([]byte(in), "config.json", env(map[string]string{"K": "v"}))
		if err != nil {
			return
		}
		_ = c.Resolve(noEnv)
		_ = c.Summary()
	})
}
