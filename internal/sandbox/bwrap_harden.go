package sandbox

import (
	"fmt"
	"strconv"
)

// sandboxUID is the user and group a command runs as when mom runs as root: "nobody", which
// every passwd file names, so programs that look up the current user find one. bubblewrap
// maps it to mom's own uid, so on the host every file a command makes is still mom's, and
// mom and later commands can read and change it as before; inside, files of mom's show as
// nobody's. The mapping does not change whose files the kernel lets a command touch on the
// host (still root's), which is why the sandbox also keeps /proc read-only and covers the
// secrets in /etc: a command has no capability left, but root-owned files it can reach are
// still its own.
const sandboxUID = 65534

// hardening is how far bubblewrap locks a command down: with everything on where the kernel
// and bubblewrap allow it, with less where they do not. --cap-drop ALL, --new-session,
// --die-with-parent and a read-only /proc are always there.
type hardening struct {
	// userns: a user namespace of the command's own (--unshare-user), so whatever
	// capabilities it could gain apply only to its own namespaces; as root, the command also
	// runs as sandboxUID there. bubblewrap run by anyone but root always makes one.
	userns bool
	// noNested: the command cannot make another user namespace (--disable-userns), where it
	// would be root again and could mount over what it sees.
	noNested bool
}

// hardenings are the levels Check tries, strongest first: bubblewrap older than 0.8 knows no
// --disable-userns, and some kernels refuse user namespaces even to root.
var hardenings = [...]hardening{{userns: true, noNested: true}, {userns: true}, {}}

// args returns the options of level h for a bwrap started by a process of effective uid euid.
func (h hardening) args(euid int) []string {
	args := []string{"--cap-drop", "ALL"}
	if h.userns {
		args = append(args, "--unshare-user")
		if euid == 0 {
			id := strconv.Itoa(sandboxUID)
			args = append(args, "--uid", id, "--gid", id)
		}
	}
	if h.noNested {
		args = append(args, "--disable-userns")
	}
	return args
}

// env returns the variables that name the user a command runs as under h, so USER=root from
// mom's environment does not contradict id(1).
func (h hardening) env(euid int) []string {
	if !h.userns || euid != 0 {
		return nil
	}
	return []string{"USER=nobody", "LOGNAME=nobody"}
}

// describe says in words what h does for a bwrap started by euid, for mom check and the
// start-up log.
func (h hardening) describe(euid int) string {
	who := "as mom's user"
	if euid == 0 {
		who = "as root"
	}
	switch {
	case h.userns && euid == 0:
		who = fmt.Sprintf("as uid %d (nobody) in a user namespace of their own", sandboxUID)
	case h.userns:
		who += ", in a user namespace of their own"
	}
	if h.noNested {
		who += " that cannot make another"
	}
	return "commands run " + who + ", with every capability dropped and /proc read-only"
}

// weaker explains, for the log and mom check, what the host lacks when Check had to settle
// for h; why is bubblewrap's own complaint about the stronger levels.
func (h hardening) weaker(euid int, why string) string {
	switch {
	case h.noNested:
		return ""
	case h.userns:
		return fmt.Sprintf("bubblewrap cannot stop commands from making user namespaces of their own here (%s); bubblewrap 0.8 or newer can", why)
	case euid == 0:
		return fmt.Sprintf("bubblewrap cannot make a user namespace here (%s), so commands run as root, though without capabilities; allow user namespaces (sysctl user.max_user_namespaces) to have them run as uid %d", why, sandboxUID)
	}
	return fmt.Sprintf("bubblewrap works here only without a user namespace (%s)", why)
}
