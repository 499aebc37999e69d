# SPDX-License-Identifier: MIT
# lib.sh - helpers for the command-line tests: a scratch directory, checks
# that count failures, loop devices that are removed on exit.
BB=${BB:-$PWD/out/bootbench}
T=$(mktemp -d /tmp/bbtest.XXXXXX)
LOOPS=""
SERVER_PIDS=""
PORTS_PY=$PWD/tests/ports.py	# absolute: cleanup may run after a cd
failures=0
cleanup() {
	# a second signal must not cut the cleanup short: the runner's timeout
	# sends its TERM twice (to the test, then to its process group)
	trap '' TERM INT HUP
	# only those still this shell's children: a server stopped during the test
	# keeps its pid in SERVER_PIDS, and another program may have that pid now
	_ours=""
	for p in $SERVER_PIDS; do
		[ "$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null)" = $$ ] && _ours="$_ours $p"
	done
	for p in $_ours; do kill "$p" 2>/dev/null; done
	# gone before the next test starts its own on the same port
	for p in $_ours; do
		i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		# one still there after 5 s let TERM pass (dropbear reads its TERM flag only after
		# select() returns): nothing is left behind
		[ $i -lt 50 ] || kill -KILL "$p" 2>/dev/null
	done
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	for m in $(awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m"; done
	umount "$T/mnt" 2>/dev/null
	rm -rf "$T"
	python3 "$PORTS_PY" release $$
}
trap cleanup EXIT
# killed by the runner's timeout, a Ctrl-C or a hangup: still stop the
# servers (smbd runs in a session of its own, out of reach of the group's
# signal) and the mounts
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# free_port VAR...: a port no server on this machine holds and no other
# test has taken, for each VAR (tests/ports.py says how it cannot race);
# it is this test's until it ends. Every server a test starts on the
# host's loopback takes its port from here: a fixed one is held by any
# server a killed run left (or a test running beside), and the test fails.
free_port() {
	for _v in "$@"; do
		_p=$(python3 "$PORTS_PY" take $$) || { echo "free_port: no free port for $_v"; return 1; }
		eval "$_v=\$_p"
	done
}
# $GUARD COMMAND...: a server started in the background (COMMAND &) gets
# SIGTERM when this test's shell dies, however it died: even a SIGKILL,
# which runs no trap, leaves no server holding a port (the runner's timeout
# signals the test's process group, which smbd's session is not in).
GUARD="setpriv --pdeathsig TERM"

checks=0
ok() { echo "ok: $*"; checks=$((checks + 1)); }
bad() { echo "FAILED: $*"; failures=$((failures + 1)); checks=$((checks + 1)); }
check() { # check DESCRIPTION COMMAND...: 0 when it held, 1 when not, so
	# `check ... || { what to print }` prints only on a failure
	d=$1; shift
	if "$@"; then ok "$d"; else bad "$d"; return 1; fi
}
finish() { [ $failures = 0 ] && exit 0; echo "$failures checks failed"; exit 1; }
# A skip is for a test that could not start; one after checks ran would hide
# them (and their failures), so it fails instead.
skip() {
	if [ "$checks" -gt 0 ]; then
		echo "FAILED: skipped after $checks checks ($failures failed): $*"
		exit 1
	fi
	echo "$*"
	exit 77
}
# refuses DESCRIPTION WANT COMMAND...: bad input as every command must take
# it: exit 2, one line on stderr that holds WANT, nothing on stdout
refuses() {
	_d=$1 _want=$2; shift 2
	"$@" > "$T/.out" 2> "$T/.err" < /dev/null
	_rc=$?
	_lines=$(wc -l < "$T/.err")
	if [ $_rc = 2 ] && [ "$_lines" = 1 ] && [ ! -s "$T/.out" ] && grep -qF -- "$_want" "$T/.err"; then
		ok "$_d"
	else
		bad "$_d: exit $_rc, $_lines stderr lines, stdout $(wc -c < "$T/.out") bytes: $(head -c 300 "$T/.err")"
	fi
	rm -f "$T/.out" "$T/.err"
}
# need_commands NAME...: each is on PATH, or the test stops saying how to get it
need_commands() {
	for c in "$@"; do
		command -v "$c" >/dev/null || { echo "$c is missing: run 'make $([ "${TIER:-}" = arm64 ] && echo 'ARCH=arm64 ')deps'"; exit 1; }
	done
}

# json FILE PYTHON-EXPRESSION: evaluates with d = the parsed file; true if truthy
json() {
	python3 -c "import json,re,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

# pin_stress_ng: $T/pin/stress-ng, the real one held to CPU 0 (taskset), for
# a burn-in run with PATH=$PINNED_PATH: its verdicts are read from a recorded
# machine's sensors and counters, not from how hard the host's cores are
# loaded, and a stressor on every core costs every core for its time
pin_stress_ng() {
	need_commands stress-ng taskset
	mkdir -p "$T/pin"
	printf '#!/bin/sh\nexec taskset -c 0 %s "$@"\n' "$(command -v stress-ng)" > "$T/pin/stress-ng"
	chmod +x "$T/pin/stress-ng"
	PINNED_PATH=$T/pin:$PATH
}
# loopdev VAR FILE SIZE: a loop device with direct I/O over a file in $T, its
# name in VAR. It runs in the test's own shell (not in $(...), where a skip
# would end only the subshell and leave an error message as the device name).
loopdev() {
	[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
	truncate -s "$3" "$2"
	_l=$(losetup -f --show --direct-io=on "$2" 2>/dev/null) || skip "loop devices unavailable"
	[ -b "$_l" ] || skip "losetup gave no device"
	LOOPS="$LOOPS $_l"
	eval "$1=\$_l"
}
# ramdir SIZE: a tmpfs of the test's own at $T/ram (cleanup unmounts it), for loop
# devices that must go at memory's rate: a disk-backed file goes at the host disk's,
# and a CI run's loaded disk wrote and read back at 12.8 MiB/s
ramdir() {
	[ "$(id -u)" = 0 ] || skip "needs root for a tmpfs"
	mkdir -p "$T/ram" && mount -t tmpfs -o size="$1" bbtest "$T/ram" || skip "cannot mount a tmpfs"
}
# unattended_root: a root for rootfs/etc/rc.d/50-unattended.sh in $T/uroot
# (its runs in $T/urun, stand-in programs in $T/ubin): the boot parameters'
# table, and a results library that saves nothing; $SH: the shell it runs
# under (the image's busybox when built)
unattended_root() {
	SH=sh
	[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"
	mkdir -p "$T/uroot/etc/bootbench" "$T/uroot/lib/bootbench" "$T/uroot/proc" "$T/urun" "$T/ubin"
	cp rootfs/etc/bootbench/params "$T/uroot/etc/bootbench/params"
	cat > "$T/uroot/lib/bootbench/results.sh" <<'EOF'
run_folder_name() { echo run; }
describe_system() { :; }
write_status() { echo "$2" > "$1/status"; }
copy_log() { :; }
save_results() { SAVED_TO=""; }
EOF
}
