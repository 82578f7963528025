# Sourced by scripts/test: starts a private Docker engine for the docker sandbox's tests and
# stops it again. Nothing comes from a registry: the engine is Debian's docker.io, and the
# one image is busybox-static's binary imported as a root file system. The engine keeps its
# state in a directory of its own under /tmp, on a tmpfs where one can be mounted (never in
# the checkout, never /var/lib/docker), listens on its own socket there, and leaves any other
# Docker on this machine alone, other runs of scripts/test included.
#
# docker_engine_start exports, for the tests (internal/dockertest reads them):
#   MOM_TEST_DOCKER=1, MOM_TEST_DOCKER_HOST (the socket), MOM_TEST_DOCKER_CLIENT (the client
#   that came with the engine) and MOM_TEST_DOCKER_IMAGE,
# or, when it cannot start one, MOM_TEST_DOCKER_SKIP with the reason, which it also prints.
# docker_engine_stop stops the engine and removes its state; scripts/test calls it on exit.

# How long dockerd may take to answer before the tests go on without it.
docker_engine_wait=30
docker_engine_image=mom-test-busybox
docker_engine_state=""
docker_engine_sudo=""
docker_engine_pid="" # what was started: dockerd, or sudo running it

# docker_engine_skip records why the docker rows are skipped and says so in one line.
docker_engine_skip() {
	export MOM_TEST_DOCKER_SKIP="$1"
	echo "docker: tests skipped: $1"
}

docker_engine_install() {
	$docker_engine_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io
}

docker_engine_start() {
	local started=$SECONDS
	if [ "$(id -u)" -ne 0 ]; then
		if ! sudo -n true 2>/dev/null; then
			docker_engine_skip "starting a Docker engine needs root or passwordless sudo"
			return 0
		fi
		docker_engine_sudo="sudo -n"
	fi
	local sudo=$docker_engine_sudo

	local dockerd
	dockerd=$(PATH=$PATH:/usr/sbin:/sbin command -v dockerd || true)
	if [ -z "$dockerd" ] || [ ! -x /usr/bin/docker ]; then
		echo "installing: docker.io"
		# apt-get update only when the package lists do not have it yet (scripts/test's need
		# has usually just updated them).
		local log
		if ! log=$( { docker_engine_install || { $sudo apt-get update -qq && docker_engine_install; }; } </dev/null 2>&1); then
			docker_engine_skip "apt-get install docker.io failed: $(printf '%s\n' "$log" | grep . | tail -n 1)"
			return 0
		fi
		dockerd=$(PATH=$PATH:/usr/sbin:/sbin command -v dockerd || true)
	fi
	if [ -z "$dockerd" ]; then
		docker_engine_skip "docker.io is installed but dockerd is not on PATH or in /usr/sbin"
		return 0
	fi
	# The client that came with the engine, not whichever docker is first on PATH (this
	# machine's /usr/local/bin/docker is a newer client without an engine).
	local client=/usr/bin/docker

	docker_engine_state=$(mktemp -d /tmp/mom-test-docker.XXXXXX)
	chmod 755 "$docker_engine_state"
	local state=$docker_engine_state
	# On a tmpfs of its own when it can be mounted: vfs copies the image for every container,
	# and on a large, busy ext4 the inode allocation alone made that 2 s a container.
	$sudo mount -t tmpfs -o "size=1g,mode=755,uid=$(id -u),gid=$(id -g)" mom-test-docker "$state" 2>/dev/null || true
	local host=unix://$state/docker.sock
	# vfs needs no kernel overlay support; no iptables and no bridge leave the host's network
	# as it is (the tests' containers have --network none). --group lets a sudo-started engine
	# be used by this user.
	$sudo "$dockerd" --storage-driver=vfs --iptables=false --ip6tables=false --bridge=none \
		--data-root "$state/data" --exec-root "$state/run" --pidfile "$state/dockerd.pid" \
		--host "$host" --group "$(id -g)" --shutdown-timeout 2 \
		</dev/null >"$state/dockerd.log" 2>&1 &
	docker_engine_pid=$!
	local version="" waited="did not answer within ${docker_engine_wait}s" launched=$SECONDS
	while [ $((SECONDS - launched)) -lt $docker_engine_wait ]; do
		version=$("$client" -H "$host" version --format '{{.Server.Version}}' 2>/dev/null) && break
		version=""
		if ! docker_engine_ours "$state" "$docker_engine_pid"; then
			waited="exited"
			break
		fi
		sleep 0.2
	done
	if [ -z "$version" ]; then
		local last
		last=$(tail -n 1 "$state/dockerd.log" 2>/dev/null || true)
		docker_engine_skip "dockerd $waited${last:+: $last}"
		docker_engine_stop
		return 0
	fi

	local err
	if ! err=$(docker_engine_image_build "$client" "$host" 2>&1); then
		docker_engine_skip "the test image could not be built: $(printf '%s\n' "$err" | grep . | tail -n 1)"
		docker_engine_stop
		return 0
	fi
	export MOM_TEST_DOCKER=1 MOM_TEST_DOCKER_HOST="$host" MOM_TEST_DOCKER_CLIENT="$client" MOM_TEST_DOCKER_IMAGE="$docker_engine_image"
	echo "docker: engine $version with image $docker_engine_image ready in $((SECONDS - started))s (state in $state)"
}

# docker_engine_image_build imports busybox-static's binary, with a link for each of its
# commands, as the image the tests' containers run. The installed busybox-static is used
# when there is one; otherwise its Debian package is downloaded and unpacked, not installed.
docker_engine_image_build() {
	local client=$1 host=$2
	local root=$docker_engine_state/rootfs
	mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/etc" "$root/root" "$root/tmp" "$root/workspace"
	chmod 1777 "$root/tmp"
	if dpkg -s busybox-static >/dev/null 2>&1; then
		cp /bin/busybox "$root/bin/busybox"
	else
		(cd "$docker_engine_state" && apt-get download -qq busybox-static </dev/null) || return 1
		dpkg-deb -x "$docker_engine_state"/busybox-static_*.deb "$docker_engine_state/deb" || return 1
		cp "$docker_engine_state/deb/bin/busybox" "$root/bin/busybox"
	fi
	local applet
	for applet in $("$root/bin/busybox" --list-full); do
		[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
	done
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
	tar --numeric-owner --owner=0 --group=0 -C "$root" -c . |
		"$client" -H "$host" import -c 'CMD ["sleep", "infinity"]' - "$docker_engine_image" >/dev/null
}

# docker_engine_ours reports whether process $2 is alive and ours: started for state $1 (its
# command line names the state directory) or a child of this shell (the engine just launched,
# before it has exec'd). A pid read from a stale file is never killed.
docker_engine_ours() {
	local stat
	stat=$(sed 's/.*) //' "/proc/${2:-none}/stat" 2>/dev/null) || return 1
	case $stat in Z* | X*) return 1 ;; esac # dead, not yet reaped
	[ "$(echo "$stat" | cut -d' ' -f2)" = "$$" ] && return 0
	tr '\0' ' ' <"/proc/$2/cmdline" | grep -qF "$1/"
}

docker_engine_stop() {
	local state=$docker_engine_state sudo=$docker_engine_sudo
	[ -n "$state" ] || return 0
	docker_engine_state=""
	# dockerd's own pid, and what was started (the same, or sudo, which passes the signal on):
	# the pid file may not be written yet when the engine is stopped right after its start.
	local pids pid i=0
	pids="$(cat "$state/dockerd.pid" 2>/dev/null || true) $docker_engine_pid"
	for pid in $pids; do
		docker_engine_ours "$state" "$pid" && { $sudo kill "$pid" 2>/dev/null || true; }
	done
	while [ $i -lt 100 ]; do
		local alive=""
		for pid in $pids; do
			docker_engine_ours "$state" "$pid" && alive=1
		done
		[ -n "$alive" ] || break
		sleep 0.1
		i=$((i + 1))
	done
	# A daemon that does not stop in 10 s is killed, with the containerd it started.
	pids="$pids $($sudo cat "$state/run/containerd/containerd.pid" 2>/dev/null || true)"
	for pid in $pids; do
		docker_engine_ours "$state" "$pid" && { $sudo kill -9 "$pid" 2>/dev/null || true; }
	done
	# The tmpfs goes, and the bind mounts a killed daemon leaves of its own directories.
	local m
	for m in $(awk -v s="$state" '$2 == s || index($2, s "/") == 1 { print $2 }' /proc/mounts | sort -r); do
		$sudo umount -l "$m" 2>/dev/null || true
	done
	$sudo rm -rf --one-file-system "$state" || echo "docker: could not remove all of $state"
}
