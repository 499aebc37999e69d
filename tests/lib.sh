# SPDX-License-Identifier: MIT
# lib.sh - helpers for the command-line tests: a scratch directory, checks
# that count failures, loop devices that are removed on exit.
BB=${BB:-$PWD/out/bootbench}
T=$(mktemp -d /tmp/bbtest.XXXXXX)
LOOPS=""
failures=0
cleanup() {
	# loopdev runs in $(...), a subshell: the devices it made are listed in a file
	for l in $LOOPS $(cat "$T/.loops" 2>/dev/null); do losetup -d "$l" 2>/dev/null; done
	umount "$T/mnt" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ok() { echo "ok: $*"; }
bad() { echo "FAILED: $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}
finish() { [ $failures = 0 ] && exit 0; echo "$failures checks failed"; exit 1; }
skip() { echo "$*"; exit 77; }
# need_commands NAME...: each is on PATH, or the test stops saying how to get it
need_commands() {
	for c in "$@"; do
		command -v "$c" >/dev/null || { echo "$c is missing: run 'make deps'"; exit 1; }
	done
}

# json FILE PYTHON-EXPRESSION: evaluates with d = the parsed file; true if truthy
json() {
	python3 -c "import json,re,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

# loopdev FILE SIZE: a loop device with direct I/O over a file in $T
loopdev() {
	[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
	truncate -s "$2" "$1"
	l=$(losetup -f --show --direct-io=on "$1" 2>/dev/null) || skip "loop devices unavailable"
	echo "$l" >> "$T/.loops"
	echo "$l"
}
