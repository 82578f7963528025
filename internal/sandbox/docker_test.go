package sandbox

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/dockertest"
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

// dockerBackend is what the docker executor's tests run against: the recording fake client
// everywhere, and the real engine that scripts/test starts (skipped without one).
type dockerBackend struct {
	name string
	// start readies a running container that mounts ws at /workspace and points the docker
	// client at it.
	start func(t *testing.T, ws string) dockerSetup
}

// dockerSetup is a backend readied for one test.
type dockerSetup struct {
	container string
	// inside is the workspace as commands see it: /workspace in a real container, the host
	// directory itself for the fake, which runs commands on the host.
	inside string
	fake   *fakedocker.Fake   // nil against the engine
	engine *dockertest.Engine // nil against the fake
}

func dockerBackends() []dockerBackend {
	return []dockerBackend{
		{"fake", func(t *testing.T, ws string) dockerSetup {
			return dockerSetup{container: "box", inside: ws, fake: withFakeDocker(t, ws, fakedocker.Options{})}
		}},
		{"engine", func(t *testing.T, ws string) dockerSetup {
			e := dockertest.Require(t)
			e.Use(t)
			return dockerSetup{container: e.Container(t, ws), inside: Inside, engine: e}
		}},
	}
}

// dockerCase is one docker test's world: a data directory made by newDataDir and a docker
// executor for its workspace.
type dockerCase struct {
	dockerSetup
	data, ws string
	d        *Docker
}

// eachDocker runs test against every backend, as subtests named after them, each with a
// fresh data directory and an executor made with opts (Container filled in).
func eachDocker(t *testing.T, opts DockerOptions, test func(t *testing.T, c dockerCase)) {
	for _, b := range dockerBackends() {
		t.Run(b.name, func(t *testing.T) {
			data, ws := newDataDir(t)
			s := b.start(t, ws)
			opts.Container = s.container
			d, err := NewDocker(context.Background(), ws, opts)
			if err != nil {
				t.Fatal(err)
			}
			test(t, dockerCase{dockerSetup: s, data: data, ws: ws, d: d})
		})
	}
}

func TestDockerStartupChecks(t *testing.T) {
	eachDocker(t, DockerOptions{}, func(t *testing.T, c dockerCase) {
		if c.d.Kind() != "docker" || c.d.Workspace() != "/workspace" || c.d.Container() != c.container {
			t.Errorf("kind %q, workspace %q, container %q", c.d.Kind(), c.d.Workspace(), c.d.Container())
		}
		if c.fake == nil {
			return
		}
		want := [][]string{
			{"version", "--format", "{{.Server.Version}}"},
			{"inspect", "--type", "container", "--format", "{{.State.Running}} {{json .Mounts}}", "box"},
		}
		if got := calls(t, c.fake); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("start-up calls\n got %q\nwant %q", got, want)
		}
	})

	// Each situation is made once with the fake's options and once on the real engine. In
	// want, {name} is the container asked for, {source} what it mounts at /workspace and
	// {create} the command that would create it right.
	for name, tc := range map[string]struct {
		fake   fakedocker.Options
		ask    string // the container asked of the fake; "box" when empty
		engine func(t *testing.T, e *dockertest.Engine, ws string) (container, source string)
		want   []string
	}{
		"engine down": {
			fake: fakedocker.Options{Down: true},
			engine: func(t *testing.T, e *dockertest.Engine, ws string) (string, string) {
				t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "docker.sock"))
				return "box", ""
			},
			want: []string{"docker does not answer", "Is the docker daemon running?"},
		},
		"no container": {
			ask: "other",
			engine: func(t *testing.T, e *dockertest.Engine, ws string) (string, string) {
				return "mom-test-missing", ""
			},
			want: []string{"container {name} cannot be inspected", "No such container: {name}", "{create}"},
		},
		"stopped": {
			fake: fakedocker.Options{Stopped: true},
			engine: func(t *testing.T, e *dockertest.Engine, ws string) (string, string) {
				c := e.Container(t, ws)
				e.Docker(t, "stop", "-t", "0", c)
				return c, ""
			},
			want: []string{"exists but is not running", "docker start {name}"},
		},
		"other workspace": {
			fake: fakedocker.Options{MountSource: "/srv/elsewhere"},
			engine: func(t *testing.T, e *dockertest.Engine, ws string) (string, string) {
				other := t.TempDir()
				return e.Container(t, other), other
			},
			want: []string{"mounts {source} at /workspace, not this workspace", "docker rm -f {name}", "{create}"},
		},
		"no workspace": {
			fake: fakedocker.Options{Unmounted: true},
			engine: func(t *testing.T, e *dockertest.Engine, ws string) (string, string) {
				return e.Container(t, ""), ""
			},
			want: []string{"does not mount the workspace at /workspace", "docker rm -f {name}", "{create}"},
		},
	} {
		for _, backend := range []string{"fake", "engine"} {
			t.Run(backend+"/"+name, func(t *testing.T) {
				_, ws := newDataDir(t)
				container, source := cmp.Or(tc.ask, "box"), tc.fake.MountSource
				if backend == "fake" {
					withFakeDocker(t, ws, tc.fake)
				} else {
					e := dockertest.Require(t)
					e.Use(t)
					container, source = tc.engine(t, e, ws)
				}
				_, err := NewDocker(context.Background(), ws, DockerOptions{Container: container})
				if err == nil {
					t.Fatal("no error")
				}
				create := "docker run -d --init --restart unless-stopped --name " + container + " -v " + ws + ":/workspace alpine:latest sleep infinity"
				for _, w := range tc.want {
					w = strings.NewReplacer("{name}", container, "{source}", source, "{create}", create).Replace(w)
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q\nlacks %q", err, w)
					}
				}
			})
		}
	}

	t.Run("no docker", func(t *testing.T) {
		_, ws := newDataDir(t)
		t.Setenv("PATH", t.TempDir())
		_, err := NewDocker(context.Background(), ws, DockerOptions{Container: "box"})
		create := "docker run -d --init --restart unless-stopped --name box -v " + ws + ":/workspace alpine:latest sleep infinity"
		if err == nil || !strings.Contains(err.Error(), "not on PATH") || !strings.Contains(err.Error(), create) {
			t.Errorf("error %v", err)
		}
	})
}

// TestDockerWorkspaceThroughLink: a container made with the workspace's path through a
// symbolic link (docker reports the path as it was given) mounts this workspace all the same.
func TestDockerWorkspaceThroughLink(t *testing.T) {
	for _, backend := range []string{"fake", "engine"} {
		t.Run(backend, func(t *testing.T) {
			data, ws := newDataDir(t)
			link := filepath.Join(t.TempDir(), "data")
			if err := os.Symlink(data, link); err != nil {
				t.Fatal(err)
			}
			source, container := filepath.Join(link, "workspace"), "box"
			if backend == "fake" {
				withFakeDocker(t, ws, fakedocker.Options{MountSource: source})
			} else {
				e := dockertest.Require(t)
				e.Use(t)
				container = e.Container(t, source)
			}
			if _, err := NewDocker(context.Background(), ws, DockerOptions{Container: container}); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestDockerRunEnvironment: a command gets the allowlisted variables, the ones config names
// and the run's own, never mom's secrets or loader variables, and the container's PATH and
// HOME rather than the host's; values travel in the client's environment, never on its
// command line.
func TestDockerRunEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-secret")
	t.Setenv("LD_PRELOAD", "libmom-test-nonexistent.so")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("HOME", "/home/mom-test")
	t.Setenv("MOM_PASS_ME", "passed")
	eachDocker(t, DockerOptions{Env: []string{"MOM_PASS_ME"}}, func(t *testing.T, c dockerCase) {
		const script = "pwd; env | sort; exit 3"
		var out bytes.Buffer
		code, err := c.d.Run(context.Background(), Command{
			Script: script, Dir: "/workspace/channels/a/c1/scratch", Env: []string{"EXTRA=1"}, Output: &out,
		})
		if err != nil || code != 3 {
			t.Fatalf("code %d, err %v, output %q", code, err, out.String())
		}
		o := out.String()
		if !strings.HasPrefix(o, c.inside+"/channels/a/c1/scratch\n") {
			t.Errorf("the command ran in the wrong directory: %q", o)
		}
		for _, want := range []string{"MOM_PASS_ME=passed\n", "EXTRA=1\n", "LANG=C.UTF-8\n", "PAGER=cat\n"} {
			if !strings.Contains(o, want) {
				t.Errorf("container environment lacks %q:\n%s", want, o)
			}
		}
		for _, banned := range []string{"sk-ant-test-secret", "LD_PRELOAD", "PATH=" + os.Getenv("PATH") + "\n", "HOME=/home/mom-test"} {
			if strings.Contains(o, banned) {
				t.Errorf("%s reached the container:\n%s", banned, o)
			}
		}
		if c.fake != nil {
			checkExecArguments(t, calls(t, c.fake), script)
		}
	})
}

// checkExecArguments checks the last docker call of the fake: the exec of script, naming
// the variables to pass (-e NAME) but never their values.
func checkExecArguments(t *testing.T, got [][]string, script string) {
	t.Helper()
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
	tail := []string{"box", "sh", "-c", dockerShell, "mom", script}
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
}

// TestDockerTimeoutKillsInside checks that a command that times out is killed inside the
// container, grandchildren and escaped sessions included, and not only the client.
func TestDockerTimeoutKillsInside(t *testing.T) {
	eachDocker(t, DockerOptions{}, func(t *testing.T, c dockerCase) {
		c.d.grace = 100 * time.Millisecond // the fake's escaped grandchild holds the pipe; real docker's do not
		n := uniqueSleep()
		out := &syncBuffer{}
		_, err := runOn(t, context.Background(), c.d, Command{Script: treeScript(n), Timeout: 2 * time.Second, Output: out})
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("error %v, want ErrTimeout (output %q)", err, out.String())
		}
		if !strings.Contains(out.String(), "started") {
			t.Fatalf("the script did not get to start its children: %q", out.String())
		}
		assertSleepsGone(t, n)
		if c.fake == nil {
			return
		}
		got := calls(t, c.fake)
		if exec := got[len(got)-2]; !slices.Contains(exec, commandMarker) {
			t.Fatalf("the command was not marked: %q", exec)
		}
		kill := got[len(got)-1]
		if len(kill) != 7 || !slices.Equal(kill[:6], []string{"exec", "box", "sh", "-c", dockerKill, "mom"}) || len(kill[6]) < 16 {
			t.Errorf("kill call %q", kill)
		}
	})
}

func TestDockerCancelKillsInside(t *testing.T) {
	eachDocker(t, DockerOptions{}, func(t *testing.T, c dockerCase) {
		c.d.grace = 100 * time.Millisecond
		n := uniqueSleep()
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for deadline := time.Now().Add(hangGuard); len(findSleep(t, n)) < 3 && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
		}()
		if _, err := runOn(t, ctx, c.d, Command{Script: treeScript(n)}); !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		assertSleepsGone(t, n)
	})
}

// TestDockerPaths: paths translate both ways, what the file tools write commands read and
// the reverse, and the file tools reach nothing outside the workspace, whatever links the
// commands make.
func TestDockerPaths(t *testing.T) {
	eachDocker(t, DockerOptions{}, func(t *testing.T, c dockerCase) {
		d, ws, ctx := c.d, c.ws, context.Background()
		if got := d.SandboxPath(filepath.Join(ws, "skills", "pdf", "SKILL.md")); got != "/workspace/skills/pdf/SKILL.md" {
			t.Errorf("SandboxPath = %q", got)
		}
		if got, err := d.HostPath("/workspace/channels/a/c1/attachments/a.png"); err != nil || got != filepath.Join(ws, "channels/a/c1/attachments/a.png") {
			t.Errorf("HostPath = %q, %v", got, err)
		}
		if _, err := d.HostPath("/etc/os-release"); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
			t.Errorf("HostPath of a container-only path: %v", err)
		}

		// The file tools write, a command reads it and writes another that the tools read.
		if err := d.WriteFile(ctx, "/workspace/channels/a/c1/scratch/r.txt", strings.NewReader("report")); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		code, err := runOn(t, ctx, d, Command{
			Script: "cat " + c.inside + "/channels/a/c1/scratch/r.txt && echo made inside > made.txt",
			Dir:    "/workspace/channels/a/c1/scratch", Output: &out,
		})
		if err != nil || code != 0 || out.String() != "report" {
			t.Errorf("the command read %q (code %d, %v), want the file the tools wrote", out.String(), code, err)
		}
		if b, err := os.ReadFile(filepath.Join(ws, "channels/a/c1/scratch/made.txt")); err != nil || string(b) != "made inside\n" {
			t.Errorf("on the host, the command's file holds %q (%v)", b, err)
		}
		if got := readAll(t, d, "/workspace/channels/a/c1/scratch/made.txt"); got != "made inside\n" {
			t.Errorf("the file tools read %q from the command's file", got)
		}

		// Links a command makes: to config.json beside the workspace, to a file that only
		// exists outside it, and to a workspace file by its container path.
		if o, code := sh(t, d, "cd "+c.inside+" && ln -s ../config.json leak && ln -s /etc/passwd passwd && ln -s /workspace/MEMORY.md mem"); code != 0 {
			t.Fatalf("making links: %q", o)
		}
		for _, p := range []string{"/workspace/leak", "/workspace/passwd", "/workspace/../config.json"} {
			if f, err := d.Open(ctx, p); err == nil {
				f.Close()
				t.Errorf("opened %s", p)
			}
			if _, err := d.HostPath(p); err == nil {
				t.Errorf("HostPath gave out %s", p)
			}
			if err := d.WriteFile(ctx, p, strings.NewReader("{}")); err == nil {
				t.Errorf("wrote %s", p)
			}
		}
		if got := readAll(t, d, "/workspace/mem"); got != "shared memory\n" {
			t.Errorf("through a link by container path the tools read %q, want MEMORY.md", got)
		}
		if b, _ := os.ReadFile(filepath.Join(c.data, "config.json")); !strings.Contains(string(b), "xoxb-config-secret") {
			t.Errorf("config.json was changed: %q", b)
		}
	})
}

// readAll reads a file through e's file operations.
func readAll(t *testing.T, e Executor, path string) string {
	t.Helper()
	rc, err := e.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
