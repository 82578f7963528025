package sandbox

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	fakedocker "github.com/mom-agent/mom/internal/fake/docker"
)

// withFakeDocker puts a fake docker client first on PATH, for one container "box" that mounts
// ws at /workspace unless opts say otherwise.
func withFakeDocker(t *testing.T, ws string, opts fakedocker.Options) *fakedocker.Fake {
	t.Helper()
	if opts.Container == "" {
		opts.Container = "box"
	}
	if opts.Workspace == "" {
		opts.Workspace = ws
	}
	bin := t.TempDir()
	f, err := fakedocker.Install(bin, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return f
}

func calls(t *testing.T, f *fakedocker.Fake) [][]string {
	t.Helper()
	c, err := f.Calls()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDockerStartupChecks(t *testing.T) {
	_, ws := newDataDir(t)
	f := withFakeDocker(t, ws, fakedocker.Options{})
	d, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"version", "--format", "{{.Server.Version}}"},
		{"inspect", "--type", "container", "--format", "{{.State.Running}} {{json .Mounts}}", "box"},
	}
	if got := calls(t, f); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("start-up calls\n got %q\nwant %q", got, want)
	}
	if d.Kind() != "docker" || d.Workspace() != "/workspace" {
		t.Errorf("kind %q, workspace %q", d.Kind(), d.Workspace())
	}

	create := "docker run -d --init --restart unless-stopped --name box -v " + ws + ":/workspace alpine:latest sleep infinity"
	for name, tc := range map[string]struct {
		opts fakedocker.Options
		ask  string
		want []string
	}{
		"engine down":     {fakedocker.Options{Down: true}, "box", []string{"docker does not answer", "Is the docker daemon running?"}},
		"no container":    {fakedocker.Options{}, "other", []string{"container other cannot be inspected", "No such container: other", strings.Replace(create, "box", "other", 1)}},
		"stopped":         {fakedocker.Options{Stopped: true}, "box", []string{"exists but is not running", "docker start box"}},
		"other workspace": {fakedocker.Options{MountSource: "/srv/elsewhere"}, "box", []string{"mounts /srv/elsewhere at /workspace, not this workspace", "docker rm -f box", create}},
	} {
		t.Run(name, func(t *testing.T) {
			withFakeDocker(t, ws, tc.opts)
			_, err := NewDocker(context.Background(), ws, DockerOptions{Container: tc.ask})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
		})
	}

	t.Run("no docker", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
		if err == nil || !strings.Contains(err.Error(), "not on PATH") || !strings.Contains(err.Error(), create) {
			t.Errorf("error %v", err)
		}
	})
}

func TestDockerRunArguments(t *testing.T) {
	_, ws := newDataDir(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-secret")
	t.Setenv("LD_PRELOAD", "libmom-test-nonexistent.so")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("MOM_PASS_ME", "passed")
	f := withFakeDocker(t, ws, fakedocker.Options{})
	d, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box", Env: []string{"MOM_PASS_ME"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code, err := d.Run(context.Background(), Command{
		Script: "pwd; env | sort; exit 3", Dir: "/workspace/channels/a/c1/scratch", Env: []string{"EXTRA=1"}, Output: &out,
	})
	if err != nil || code != 3 {
		t.Fatalf("code %d, err %v, output %q", code, err, out.String())
	}
	got := calls(t, f)
	last := got[len(got)-1]
	head := []string{"exec", "-w", "/workspace/channels/a/c1/scratch"}
	if !slices.Equal(last[:3], head) {
		t.Errorf("exec starts %q, want %q", last[:3], head)
	}
	var names []string
	rest := last[3:]
	for len(rest) >= 2 && rest[0] == "-e" {
		names = append(names, rest[1])
		rest = rest[2:]
	}
	tail := []string{"box", "sh", "-c", dockerShell, "mom", "pwd; env | sort; exit 3"}
	if !slices.Equal(rest, tail) {
		t.Errorf("exec ends %q, want %q", rest, tail)
	}
	for _, n := range names {
		if strings.Contains(n, "=") {
			t.Errorf("-e %s puts a value on the command line", n)
		}
	}
	for _, want := range []string{"PAGER", "LANG", "MOM_PASS_ME", "EXTRA", commandMarker} {
		if !slices.Contains(names, want) {
			t.Errorf("-e %s missing from %q", want, names)
		}
	}
	for _, banned := range []string{"ANTHROPIC_API_KEY", "LD_PRELOAD", "PATH", "HOME", "USER"} {
		if slices.Contains(names, banned) {
			t.Errorf("-e %s passed to the container", banned)
		}
	}
	o := out.String()
	if !strings.HasPrefix(o, filepath.Join(ws, "channels/a/c1/scratch")+"\n") {
		t.Errorf("the fake container ran in the wrong directory: %q", o)
	}
	for _, want := range []string{"MOM_PASS_ME=passed\n", "EXTRA=1\n", "LANG=C.UTF-8\n", "PAGER=cat\n"} {
		if !strings.Contains(o, want) {
			t.Errorf("container environment lacks %q:\n%s", want, o)
		}
	}
	if strings.Contains(o, "sk-ant-test-secret") {
		t.Errorf("the API key reached the container:\n%s", o)
	}
}

// TestDockerTimeoutKillsInside checks that a command that times out is killed inside the
// container, grandchildren and escaped sessions included, and not only the client.
func TestDockerTimeoutKillsInside(t *testing.T) {
	_, ws := newDataDir(t)
	f := withFakeDocker(t, ws, fakedocker.Options{})
	d, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
	if err != nil {
		t.Fatal(err)
	}
	d.grace = 100 * time.Millisecond // the fake's escaped grandchild holds the pipe; real docker's do not
	n := uniqueSleep()
	out := &syncBuffer{}
	_, err = runOn(t, context.Background(), d, Command{Script: treeScript(n), Timeout: 500 * time.Millisecond, Output: out})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error %v, want ErrTimeout (output %q)", err, out.String())
	}
	assertSleepsGone(t, n)

	got := calls(t, f)
	exec := got[len(got)-2]
	var id string
	for i := range exec {
		if exec[i] == "-e" && exec[i+1] == commandMarker {
			id = "set"
		}
	}
	if id == "" {
		t.Fatalf("the command was not marked: %q", exec)
	}
	kill := got[len(got)-1]
	if len(kill) != 7 || !slices.Equal(kill[:6], []string{"exec", "box", "sh", "-c", dockerKill, "mom"}) || len(kill[6]) < 16 {
		t.Errorf("kill call %q", kill)
	}
}

func TestDockerCancelKillsInside(t *testing.T) {
	_, ws := newDataDir(t)
	withFakeDocker(t, ws, fakedocker.Options{})
	d, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
	if err != nil {
		t.Fatal(err)
	}
	d.grace = 100 * time.Millisecond
	n := uniqueSleep()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for deadline := time.Now().Add(hangGuard); len(findSleep(t, n)) < 3 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	if _, err := runOn(t, ctx, d, Command{Script: treeScript(n)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	assertSleepsGone(t, n)
}

func TestDockerPaths(t *testing.T) {
	data, ws := newDataDir(t)
	withFakeDocker(t, ws, fakedocker.Options{})
	d, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if got := d.SandboxPath(filepath.Join(ws, "skills", "pdf", "SKILL.md")); got != "/workspace/skills/pdf/SKILL.md" {
		t.Errorf("SandboxPath = %q", got)
	}
	if got, err := d.HostPath("/workspace/channels/a/c1/attachments/a.png"); err != nil || got != filepath.Join(ws, "channels/a/c1/attachments/a.png") {
		t.Errorf("HostPath = %q, %v", got, err)
	}
	if _, err := d.HostPath("/etc/os-release"); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("HostPath of a container-only path: %v", err)
	}
	if err := d.WriteFile(ctx, "/workspace/channels/a/c1/scratch/r.txt", strings.NewReader("report")); err != nil {
		t.Fatal(err)
	}
	rc, err := d.Open(ctx, "/workspace/channels/a/c1/scratch/r.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "report" {
		t.Errorf("read back %q", b)
	}
	// A link made in the container that would lead to config.json on the host.
	os.Symlink("../config.json", filepath.Join(ws, "leak"))
	if _, err := d.Open(ctx, "/workspace/leak"); err == nil {
		t.Error("opened config.json through a link")
	}
	if _, err := d.HostPath("/workspace/leak"); err == nil {
		t.Error("HostPath followed a link to config.json")
	}
	if _, err := os.Stat(filepath.Join(data, "config.json")); err != nil {
		t.Fatal(err)
	}
}
