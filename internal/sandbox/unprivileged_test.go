package sandbox

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// unprivilegedPass is set in the environment of the test binary when
// TestBwrapAsUnprivilegedUser runs it again as another user.
const unprivilegedPass = "MOM_SANDBOX_TEST_UNPRIVILEGED"

// unprivilegedTests are the tests run again as an unprivileged user: everything about the
// bwrap sandbox and the file tools, whose boundary differs between root and others.
const unprivilegedTests = "^(TestBwrap|TestFileTools)"

// TestBwrapAsUnprivilegedUser runs the bwrap tests a second time as uid 65534 when the suite
// runs as root (as it does in CI), by starting this test binary again as that user: bwrap
// then makes its user namespace as an unprivileged user would, and every hostile command must
// fail the same way. A suite run by an ordinary user is that pass already, and has no root
// to run the other one with.
func TestBwrapAsUnprivilegedUser(t *testing.T) {
	if os.Getenv(unprivilegedPass) != "" {
		t.Skip("this is the unprivileged pass")
	}
	if os.Geteuid() != 0 {
		t.Skip("the suite runs unprivileged already; only root can run both passes")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap is not installed (scripts/test installs it)")
	}
	// A copy of the test binary, and a temporary directory, that the user can reach: the
	// build directory and t.TempDir's parent are root's alone.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "sandbox.test")
	copyFile(t, os.Args[0], bin, 0o755)
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	args := []string{"-test.run", unprivilegedTests, "-test.v"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout", time.Until(d).Round(time.Second).String())
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = tmp
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "TMPDIR=" + tmp, unprivilegedPass + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: sandboxUID, Gid: sandboxUID, Groups: []uint32{}}}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		t.Fatalf("the bwrap tests as uid %d failed (%v):\n%s", sandboxUID, err, out.String())
	}
	if !strings.Contains(out.String(), "--- PASS: TestBwrapNoWayOut/strongest") {
		why := regexp.MustCompile(`(?m)^\s+--- SKIP: TestBwrapNoWayOut.*\n\s+.*$`).FindString(out.String())
		t.Skipf("the bwrap tests did not run as uid %d: %s", sandboxUID, strings.TrimSpace(why))
	}
	t.Logf("as uid %d:\n%s", sandboxUID, passLines(out.String()))
}

// passLines keeps the result lines of a verbose test run.
func passLines(out string) string {
	var b strings.Builder
	for line := range strings.Lines(out) {
		if strings.Contains(line, "--- ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
