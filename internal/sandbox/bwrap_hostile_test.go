package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostileMarker is a file the hostile commands try to create in the host's /etc.
const hostileMarker = "/etc/mom-hostile-test"

// hostSnapshot is what a command in the sandbox must not be able to change on the host.
type hostSnapshot struct {
	mounts   string // this process's /proc/self/mountinfo
	coreUses string // /proc/sys/kernel/core_uses_pid, a global sysctl only root may write
}

func snapshotHost(t *testing.T) hostSnapshot {
	t.Helper()
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Skipf("no /proc to compare mounts with: %v", err)
	}
	core, _ := os.ReadFile("/proc/sys/kernel/core_uses_pid")
	return hostSnapshot{mounts: string(mounts), coreUses: string(core)}
}

func (s hostSnapshot) assertUnchanged(t *testing.T) {
	t.Helper()
	if now := snapshotHost(t); now != s {
		t.Errorf("the host changed:\nmounts before:\n%s\nafter:\n%s\ncore_uses_pid %q, now %q", s.mounts, now.mounts, s.coreUses, now.coreUses)
	}
	if _, err := os.Lstat(hostileMarker); err == nil {
		os.Remove(hostileMarker)
		t.Errorf("a command created %s on the host", hostileMarker)
	}
}

// TestBwrapNoWayOut tries, from inside the sandbox, what a command with capabilities would
// use to see or write past its mounts: unmounting the covers, remounting /etc read-write,
// a user namespace of its own to do the same in, a sysctl, /etc itself. Each must fail, the
// command must hold no capability, and the host must be as it was. It runs at every level of
// hardening this host allows (the weaker ones through a bwrap that refuses the stronger
// options), and, through TestBwrapAsUnprivilegedUser, as an unprivileged user too.
func TestBwrapNoWayOut(t *testing.T) {
	for _, lv := range testLevels() {
		t.Run(lv.name, func(t *testing.T) {
			_, ws := newDataDir(t)
			b := newLevelBwrap(t, ws, BwrapOptions{}, lv)
			run := ForRun(b, scopeOf(ws, "c1"))
			before := snapshotHost(t)
			defer before.assertUnchanged(t)

			mustFail := []string{
				"umount -l /workspace/channels",
				// Should the remount work, the marker lands in the host's /etc.
				"mount -o remount,bind,rw /etc && touch " + hostileMarker,
				"mount -o remount,bind,rw /workspace/channels/a/c1/log.jsonl && echo forged >> /workspace/channels/a/c1/log.jsonl",
				"touch " + hostileMarker,
				// Written back unchanged: should it ever succeed, the host is no different.
				"v=$(cat /proc/sys/kernel/core_uses_pid) && echo $v > /proc/sys/kernel/core_uses_pid",
				"mount -t tmpfs none /tmp",
			}
			if _, err := os.Stat("/etc/shadow"); err == nil {
				mustFail = append(mustFail, "umount /etc/shadow", "umount -l /etc/shadow")
			}
			for _, script := range mustFail {
				if out, code := sh(t, run, script); code == 0 {
					t.Errorf("%q succeeded in the sandbox: %q", script, out)
				}
			}
			// Whatever the command tried, it still sees only its own channel, and the
			// covered /etc/shadow is still empty.
			out, _ := sh(t, run, "umount -l /workspace/channels 2>/dev/null; umount /etc/shadow 2>/dev/null; ls -A /workspace/channels/a; cat /etc/shadow 2>/dev/null")
			if out != "c1\n" {
				t.Errorf("after the unmounts the command sees %q, want only c1", out)
			}
			// A user namespace of its own, where it would be root again: refused outright
			// where bubblewrap can, and powerless over the mounts it inherits otherwise.
			nested := `unshare -U -r -m sh -c 'umount -l /workspace/channels; umount /etc/shadow; mount -o remount,bind,rw /etc; touch ` + hostileMarker + `; ls -A /workspace/channels/a; cat /etc/shadow'`
			out, code := sh(t, run, nested)
			if lv.want.noNested && (code == 0 || strings.Contains(out, "c2")) {
				t.Errorf("a user namespace was made in the sandbox: code %d, output %q", code, out)
			}
			if strings.Contains(out, "c2") || strings.Contains(out, "c3") || strings.Contains(out, "root:") {
				t.Errorf("a nested user namespace saw past the mounts: %q", out)
			}

			out, _ = sh(t, run, "grep ^Cap /proc/self/status")
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if _, v, _ := strings.Cut(line, ":"); strings.Trim(strings.TrimSpace(v), "0") != "" {
					t.Errorf("the command holds capabilities: %s", line)
				}
			}
			if !strings.Contains(out, "CapEff") {
				t.Errorf("no capability lines in /proc/self/status: %q", out)
			}
			if b, _ := os.ReadFile(filepath.Join(ws, "channels", "a", "c1", "log.jsonl")); string(b) != "log of c1\n" {
				t.Errorf("log.jsonl holds %q", b)
			}
			wantUID := os.Geteuid()
			if wantUID == 0 && lv.want.userns {
				wantUID = sandboxUID
			}
			if out, _ := sh(t, run, "id -u"); strings.TrimSpace(out) != strconv.Itoa(wantUID) {
				t.Errorf("the command runs as uid %s, want %d", strings.TrimSpace(out), wantUID)
			}
		})
	}
}

// TestBwrapHistoryReadOnly checks that a command can read its channel's log.jsonl and
// context.jsonl but not write, truncate, delete, replace or link them, nor move the channel
// directory away to make a new one, and that it can still write the rest of its channel.
// A missing context.jsonl is created empty first, so the command cannot plant one.
func TestBwrapHistoryReadOnly(t *testing.T) {
	for _, iso := range []Isolation{IsolationChannel, IsolationUser, IsolationNone} {
		t.Run(string(iso), func(t *testing.T) {
			_, ws := newDataDir(t)
			b := newTestBwrap(t, ws, BwrapOptions{Isolation: iso})
			s := scopeOf(ws, "c1")
			s.Shared = func(ctx context.Context) ([]string, error) {
				return []string{filepath.Join(ws, "channels", "a", "c2")}, nil
			}
			run := ForRun(b, s)
			c1 := filepath.Join(ws, "channels", "a", "c1")

			const c = "/workspace/channels/a/c1"
			if out, code := sh(t, run, "cat "+c+"/log.jsonl && wc -c < "+c+"/context.jsonl"); code != 0 || out != "log of c1\n0\n" {
				t.Errorf("reading the history: code %d, output %q", code, out)
			}
			fi, err := os.Stat(filepath.Join(c1, "context.jsonl"))
			if err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 || fi.Mode().Perm() != 0o644&^umask(t) {
				t.Errorf("context.jsonl was not created empty before the command: %v, %v", fi, err)
			}
			for _, script := range []string{
				"echo forged >> " + c + "/log.jsonl",
				": > " + c + "/log.jsonl",
				"truncate -s 0 " + c + "/log.jsonl",
				"rm -f " + c + "/log.jsonl",
				"mv " + c + "/log.jsonl " + c + "/old.jsonl",
				"echo forged > " + c + "/new.jsonl && mv -f " + c + "/new.jsonl " + c + "/log.jsonl",
				"ln " + c + "/log.jsonl " + c + "/hard.jsonl",
				"chmod 666 " + c + "/log.jsonl",
				"echo '{}' >> " + c + "/context.jsonl",
				"rm -f " + c + "/context.jsonl",
				"echo forged > " + c + "/new.jsonl && mv -f " + c + "/new.jsonl " + c + "/context.jsonl",
				"mv " + c + " /workspace/channels/a/c1-old",
				"rm -rf " + c,
			} {
				if out, code := sh(t, run, script); code == 0 {
					t.Errorf("%q succeeded: %q", script, out)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(c1, "log.jsonl")); string(b) != "log of c1\n" {
				t.Errorf("log.jsonl holds %q", b)
			}
			if b, err := os.ReadFile(filepath.Join(c1, "context.jsonl")); err != nil || len(b) != 0 {
				t.Errorf("context.jsonl holds %q (%v)", b, err)
			}
			if out, code := sh(t, run, "echo kept > "+c+"/MEMORY.md && mkdir -p "+c+"/skills/s && cat "+c+"/MEMORY.md"); code != 0 || out != "kept\n" {
				t.Errorf("writing the rest of the channel: code %d, output %q", code, out)
			}

			// Other channels the command sees are read-only as a whole.
			if iso == IsolationChannel {
				return
			}
			if out, code := sh(t, run, "cat /workspace/channels/a/c2/log.jsonl"); code != 0 || out != "log of c2\n" {
				t.Errorf("reading another channel: code %d, output %q", code, out)
			}
			for _, script := range []string{
				"echo forged >> /workspace/channels/a/c2/log.jsonl",
				"echo '{}' > /workspace/channels/a/c2/context.jsonl",
				"mkdir -p /workspace/channels/a/c2/skills/evil",
				"echo x > /workspace/channels/a/c2/MEMORY.md",
				"mv /workspace/channels/a/c2 /workspace/channels/a/c9",
			} {
				if out, code := sh(t, run, script); code == 0 {
					t.Errorf("%q succeeded: %q", script, out)
				}
			}
			// Under user isolation channels/ is the command's own empty directory, so this
			// may succeed there, but nothing of it reaches the host.
			sh(t, run, "mkdir -p /workspace/channels/a/future && echo forged > /workspace/channels/a/future/log.jsonl")
			for _, p := range []string{"c2/context.jsonl", "c2/MEMORY.md", "c2/skills", "future", "c9"} {
				if _, err := os.Lstat(filepath.Join(ws, "channels", "a", p)); err == nil {
					t.Errorf("channels/a/%s was made on the host", p)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(ws, "channels", "a", "c2", "log.jsonl")); string(b) != "log of c2\n" {
				t.Errorf("c2's log.jsonl holds %q", b)
			}
		})
	}
}

// testLevel is a level of hardening the tests force bubblewrap to: the strongest with the
// real bwrap, the weaker ones with a bwrap that refuses an option, as an older bubblewrap or
// a stricter kernel would.
type testLevel struct {
	name   string
	reject string // the option the bwrap in front refuses; "" for the real bwrap alone
	want   hardening
}

func testLevels() []testLevel {
	return []testLevel{
		{name: "strongest", want: hardenings[0]},
		{name: "without --disable-userns", reject: "--disable-userns", want: hardenings[1]},
		{name: "without a user namespace", reject: "--unshare-user", want: hardenings[2]},
	}
}

// newLevelBwrap returns a bwrap executor for ws whose Check has settled for lv.
func newLevelBwrap(t *testing.T, ws string, opts BwrapOptions, lv testLevel) *Bwrap {
	t.Helper()
	real, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bubblewrap is not installed (scripts/test installs it)")
	}
	if lv.reject != "" {
		bin := t.TempDir()
		shim := "#!/bin/sh\nfor a in \"$@\"; do\n\tif [ \"$a\" = " + lv.reject + " ]; then echo 'bwrap: Unknown option " + lv.reject + "' >&2; exit 1; fi\ndone\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(bin, "bwrap"), []byte(shim), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	b := newTestBwrap(t, ws, opts)
	st := b.cfg.state.Load()
	if st.hardening != lv.want {
		if lv.reject == "" {
			t.Skipf("this host allows only %+v: %s", st.hardening, st.weakened)
		}
		t.Fatalf("Check settled for %+v, want %+v", st.hardening, lv.want)
	}
	if lv.reject != "" && !strings.Contains(st.weakened, "Unknown option "+lv.reject) {
		t.Errorf("Boundary does not say why it is weaker here: %q", st.weakened)
	}
	return b
}
