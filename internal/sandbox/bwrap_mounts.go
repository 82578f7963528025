package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
)

// systemDirs are the host directories a shell and the usual tools need, shown read-only.
// Where one is a symbolic link (merged /usr: /bin -> usr/bin), the link is recreated instead.
// /home, /root, /var, /srv, /opt, /mnt and the rest stay out: they are where people keep
// their files and credentials.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// etcSecrets are files and directories under /etc that hold credentials rather than
// configuration; they are covered inside the sandbox (an empty file or directory in their
// place). A command runs as mom's user, which may be root.
var etcSecrets = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/security/opasswd", "/etc/sudoers", "/etc/sudoers.d",
	"/etc/ssh", "/etc/ssl/private", "/etc/wireguard", "/etc/letsencrypt",
	"/etc/NetworkManager/system-connections", "/etc/docker", "/etc/containers/auth.json",
	"/etc/mom",
}

// runDirs are the parts of /run that name resolution needs when /etc/resolv.conf points
// there (systemd-resolved, resolvconf).
var runDirs = []string{"/run/systemd/resolve", "/run/resolvconf"}

// systemMounts returns the bwrap arguments that show the host's system directories
// read-only, cover the secrets in /etc, and give the command its own /proc, /dev, /tmp and
// home directory. They are the same for every command, so they are worked out once.
func systemMounts() []string {
	var args []string
	for _, d := range systemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", target, d)
			}
		case fi.IsDir():
			args = append(args, "--ro-bind", d, d)
		}
	}
	for _, s := range etcSecrets {
		fi, err := os.Lstat(s)
		switch {
		case err != nil, fi.Mode()&fs.ModeSymlink != 0:
			// A link leads out of /etc or to something covered on its own.
		case fi.IsDir():
			args = append(args, "--tmpfs", s)
		default:
			args = append(args, "--ro-bind", os.DevNull, s)
		}
	}
	for _, d := range runDirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			args = append(args, "--ro-bind", d, d)
		}
	}
	// /proc is read-only as a whole: a command of root's keeps root's uid on the host even
	// without capabilities, and root owns the files under /proc/sys (core_pattern, modprobe:
	// programs the kernel runs as root on the host) and /proc/sysrq-trigger.
	return append(args,
		"--proc", "/proc", "--remount-ro", "/proc",
		"--dev", "/dev",
		"--tmpfs", "/tmp",
		"--tmpfs", sandboxHome,
	)
}

// sandboxHome is HOME inside bwrap: an empty directory of each command's own, so nothing of
// the real home (SSH keys, cloud credentials, shell history) is there, and nothing one command
// leaves there reaches the next. What must last goes in the workspace.
const sandboxHome = "/home/mom"

// mounts are bwrap options that name open files by descriptor, the files, and the problems
// met while opening them, for mom's log.
type mounts struct {
	args     []string
	files    []*os.File // files[i] is descriptor 3+i in bwrap (exec.Cmd.ExtraFiles)
	problems []string
}

// bind adds the option opt (--bind-fd, --ro-bind-fd) mounting f at dest.
func (m *mounts) bind(opt string, f *os.File, dest string) {
	m.files = append(m.files, f)
	m.args = append(m.args, opt, strconv.Itoa(2+len(m.files)), dest)
}

func (m *mounts) problem(format string, args ...any) {
	m.problems = append(m.problems, fmt.Sprintf(format, args...))
}

func sortedKeys(v visibility) []string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
