// Package dockertest gives tests a real Docker engine: the private one scripts/test starts
// (scripts/docker-engine.sh), which needs no registry, with a local busybox image. A test
// calls Require, which skips it with scripts/test's reason when there is no engine, then
// makes its containers with Container, which removes them when the test ends, and points
// the docker client at the engine with Use (its own process) or Environ (a mom process it
// starts).
//
// scripts/test tells the tests about the engine through the environment:
//
//	MOM_TEST_DOCKER=1             an engine is up
//	MOM_TEST_DOCKER_IMAGE         a local image with a POSIX shell (required)
//	MOM_TEST_DOCKER_HOST          the engine's socket, as DOCKER_HOST (default: the client's)
//	MOM_TEST_DOCKER_CLIENT        the client that matches the engine (default: docker on PATH)
//	MOM_TEST_DOCKER_SKIP          why there is no engine, when there is none
//
// To use an engine of your own, set MOM_TEST_DOCKER=1 and MOM_TEST_DOCKER_IMAGE to an image
// with busybox or coreutils (alpine, debian).
package dockertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// callTimeout bounds one docker command, so a hung engine fails the test instead of hanging it.
const callTimeout = 2 * time.Minute

// Engine is a running Docker engine the tests may use.
type Engine struct {
	client string // the docker client that matches the engine
	host   string // DOCKER_HOST for the client; empty: the client's default
	image  string
}

// Require returns the engine scripts/test started, or skips t with the reason scripts/test
// gave for having none.
func Require(t testing.TB) *Engine {
	t.Helper()
	if os.Getenv("MOM_TEST_DOCKER") != "1" {
		if why := os.Getenv("MOM_TEST_DOCKER_SKIP"); why != "" {
			t.Skip("no Docker engine for the tests: " + why)
		}
		t.Skip("no Docker engine for the tests: scripts/test starts one (or set MOM_TEST_DOCKER=1 and MOM_TEST_DOCKER_IMAGE to use your own)")
	}
	e := &Engine{client: os.Getenv("MOM_TEST_DOCKER_CLIENT"), host: os.Getenv("MOM_TEST_DOCKER_HOST"), image: os.Getenv("MOM_TEST_DOCKER_IMAGE")}
	if e.image == "" {
		t.Fatal("MOM_TEST_DOCKER=1 but MOM_TEST_DOCKER_IMAGE does not name the image to run")
	}
	if e.client == "" {
		p, err := exec.LookPath("docker")
		if err != nil {
			t.Fatal("MOM_TEST_DOCKER=1 but there is no docker client: set MOM_TEST_DOCKER_CLIENT or put docker on PATH")
		}
		e.client = p
	}
	return e
}

// Image is the image Container runs.
func (e *Engine) Image() string { return e.image }

// Docker runs the engine's client with args and returns its standard output, trimmed; an
// error fails the test with docker's own message.
func (e *Engine) Docker(t testing.TB, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.client, args...)
	cmd.Env = e.environ(os.Environ(), "")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// Container starts a container of the image that mounts workspace at /workspace (nothing,
// when workspace is empty), without network and with --init, and returns its name, unique
// to this run; it is removed when the test ends. runArgs go to `docker run` before the
// image (more -v mounts, say). Run as another user than root, the container runs as that
// user too, so the test can still remove the files its commands write.
func (e *Engine) Container(t testing.TB, workspace string, runArgs ...string) string {
	t.Helper()
	name := "mom-test-" + strings.ToLower(rand.Text()[:12])
	args := []string{"run", "-d", "--init", "--network", "none", "--name", name}
	if workspace != "" {
		args = append(args, "-v", workspace+":/workspace")
	}
	if uid := os.Getuid(); uid != 0 {
		args = append(args, "--user", fmt.Sprintf("%d:%d", uid, os.Getgid()))
	}
	args = append(append(args, runArgs...), e.image, "sleep", "infinity")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, e.client, "rm", "-f", name)
		cmd.Env = e.environ(os.Environ(), "")
		// A container that was never made (docker run failed) is no error of its own.
		if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(out), "No such container") {
			t.Errorf("removing container %s: %v\n%s", name, err, out)
		}
	})
	e.Docker(t, args...)
	return name
}

// Use points this test's process at the engine: its client first on PATH as `docker`, and
// DOCKER_HOST. Like t.Setenv, it cannot be used in parallel tests.
func (e *Engine) Use(t testing.TB) {
	t.Helper()
	for _, kv := range e.Environ(t, nil) {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	if _, ok := os.LookupEnv("DOCKER_CONTEXT"); ok {
		t.Setenv("DOCKER_CONTEXT", "") // restored when the test ends
		os.Unsetenv("DOCKER_CONTEXT")
	}
}

// Environ returns environ for a process the test starts (mom) that should use the engine:
// PATH with a directory holding only the engine's client as `docker` first, and DOCKER_HOST
// set. Other Docker settings that would pick another engine are dropped.
func (e *Engine) Environ(t testing.TB, environ []string) []string {
	t.Helper()
	bin := t.TempDir()
	if err := os.Symlink(e.client, filepath.Join(bin, "docker")); err != nil {
		t.Fatal(err)
	}
	return e.environ(environ, bin)
}

// environ sets DOCKER_HOST (and PATH, with bin first, when bin is not empty) in a copy of
// environ. DOCKER_CONTEXT goes, since docker refuses it beside DOCKER_HOST.
func (e *Engine) environ(environ []string, bin string) []string {
	path := os.Getenv("PATH")
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, value, _ := strings.Cut(kv, "=")
		if name == "PATH" {
			path = value
		}
		return name == "PATH" || name == "DOCKER_HOST" || name == "DOCKER_CONTEXT"
	})
	if bin != "" {
		path = bin + string(os.PathListSeparator) + path
	}
	out = append(out, "PATH="+path)
	if e.host != "" {
		out = append(out, "DOCKER_HOST="+e.host)
	}
	return out
}
