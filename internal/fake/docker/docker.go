// Package fakedocker is a stand-in for the docker command-line client, for tests on machines
// without a Docker engine. Install writes an executable `docker` script that answers
// `docker version`, `docker inspect` and `docker exec` the way the real client does for one
// container, and records every invocation's arguments. Its "container" is the host itself:
// exec runs the command here, with the container path /workspace mapped to a host directory
// and, as with the real `docker exec -e NAME`, only the named variables in its environment.
package fakedocker

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Options describe the fake engine and its one container.
type Options struct {
	// Container is the container's name.
	Container string
	// Workspace is the host directory the container shows at /workspace.
	Workspace string
	// MountSource is what `docker inspect` reports as the source of the /workspace mount;
	// empty means Workspace. Set it to test a container that mounts something else.
	MountSource string
	// Unmounted makes the container mount nothing at /workspace.
	Unmounted bool
	// Stopped makes the container exist but not run.
	Stopped bool
	// Down makes the engine not answer, as when the daemon is not running.
	Down bool
}

// Fake is an installed fake docker client.
type Fake struct {
	// Path is the script; put its directory first on PATH.
	Path string
	log  string
}

// Install writes the fake client into dir as `docker`.
func Install(dir string, opts Options) (*Fake, error) {
	f := &Fake{Path: filepath.Join(dir, "docker"), log: filepath.Join(dir, "docker-calls.log")}
	source := opts.MountSource
	if source == "" {
		source = opts.Workspace
	}
	mounts := fmt.Sprintf(`[{"Type":"bind","Source":%q,"Destination":"/workspace","Mode":"","RW":true,"Propagation":"rprivate"}]`, source)
	if opts.Unmounted {
		mounts = "[]"
	}
	vars := fmt.Sprintf("log=%s\ncontainer=%s\nworkspace=%s\nmounts=%s\nrunning=%t\ndown=%t\n",
		quote(f.log), quote(opts.Container), quote(opts.Workspace), quote(mounts), !opts.Stopped, opts.Down)
	if err := os.WriteFile(f.Path, []byte("#!/bin/sh\n"+vars+script), 0o755); err != nil {
		return nil, err
	}
	return f, nil
}

// Calls returns the arguments of every invocation so far, in order.
func (f *Fake) Calls() ([][]string, error) {
	b, err := os.ReadFile(f.log)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var calls [][]string
	for _, rec := range strings.Split(string(b), "\x1e") {
		if rec == "" {
			continue
		}
		args := strings.Split(strings.TrimSuffix(rec, "\x1f"), "\x1f")
		calls = append(calls, args)
	}
	return calls, nil
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// script is the client. Arguments are logged separated by \037, invocations by \036, so
// scripts with newlines survive.
const script = `
for a in "$@"; do printf '%s\037' "$a"; done >> "$log"
printf '\036' >> "$log"

if $down; then
	echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2
	exit 1
fi

case "$1" in
version)
	echo 27.3.1
	;;
inspect)
	name=$(eval echo "\${$#}")
	if [ "$name" != "$container" ]; then
		echo "Error: No such container: $name" >&2
		exit 1
	fi
	printf '%s %s\n' "$running" "$mounts"
	;;
exec)
	shift
	dir=/
	names=
	while :; do
		case "$1" in
		-w) dir=$2; shift 2 ;;
		-e) names="$names $2"; shift 2 ;;
		-*) shift ;;
		*) break ;;
		esac
	done
	name=$1
	shift
	if [ "$name" != "$container" ]; then
		echo "Error response from daemon: No such container: $name" >&2
		exit 1
	fi
	if ! $running; then
		echo "Error response from daemon: container $name is not running" >&2
		exit 1
	fi
	case "$dir" in
	/workspace) dir=$workspace ;;
	/workspace/*) dir=$workspace${dir#/workspace} ;;
	esac
	cd "$dir" || exit 126
	for v in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p'); do
		case " $names " in
		*" $v "*) ;;
		*) unset "$v" 2>/dev/null ;;
		esac
	done
	case " $names " in
	*" PATH "*) ;;
	*) export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin ;;
	esac
	case " $names " in
	*" HOME "*) ;;
	*) export HOME=/root ;;
	esac
	exec "$@"
	;;
*)
	echo "fake docker: unsupported command $1" >&2
	exit 1
	;;
esac
`
