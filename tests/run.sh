#!/bin/sh
# SPDX-License-Identifier: MIT
# The one test runner: every unit test binary (out/tests/*), every script in
# tests/cli/ and every QEMU boot test in tests/boot/, each under a timeout;
# then the sanitizer builds (make sanitize): the unit tests again under ASan
# and UBSan (asan-test_*), the fuzz corpus replayed through each harness
# (replay-fuzz_*), and the CLI tests of tests/asan.list again with the ASan
# bootbench (asan-NAME.sh). A sanitizer's report is written to a file of its
# own (log_path), and any such file fails its test, whatever the test
# itself concluded. Exit 77 means skipped. Prints the failed and skipped
# lists and ends with "N passed, N failed, N skipped"; a skip fails the run
# unless ALLOW_SKIP=1 (never with CI=true).
#
# TIER=check (make check) is the fast loop: the unit tests, the CLI tests
# and the sanitizer runs, without the CLI tests marked "# tier: image" (they
# read the built image), those marked "# tier: long" unless TESTS names
# them (the burn-in's, whose loads run for their time: 206 of make check's
# 588 CPU-s, make test runs them) and without the QEMU boot tests. The tests marked
# "# tier: arm64" (the arm64 image's, issue 47) run in TIER=arm64 alone
# (make test-arm64), nowhere else.
#
# Unit and CLI tests run in two serial lanes: those that share the host
# (loop devices, mounts, servers, /run/bootbench: shares_host) one after
# another, and beside them the others, which touch nothing but their own
# $T. With boot tests the two lanes take one of their slots; a boot test
# that shares the host waits for the host lane's end, a quiet one for both
# lanes'. The run's last lines say when each lane and the boot tests
# ended. Boot tests run BOOT_JOBS at a time
# (default 3, on 2 cores): a boot test spends much of its time waiting (on
# its guest's serial console, on a step's pattern, a hold), so three keep
# two cores busier than two do: six boot tests took 143 s two at a time,
# 112 s three at a time and 120 s four at a time (docs/figures.md). Boot
# tests that start the real servers (tests/servers.sh) run two at a time
# at most, beside the lanes: each takes free ports, chosen at start (one at
# a time after the host lane, they were the suite's last 490 s in a fresh
# root); a test marked "# alone" runs with none beside it. Stopped (a signal), the run stops its tests (stop_tests).
#
# Shared guests (issue 49: boot once, check many): a boot test with a
# "# checks:" line (tests/boot/shared_guest_*.sh) boots one guest and runs
# the checks it names (tests/guest/NAME.sh) against it in turn: in the boot
# lane it is one boot test (its checks one after another inside it, so
# its time is their sum: a guest's checks are kept to about 250 s). Each check
# is a test of its own: selected by its name (TESTS='^menu_serial\.sh$'
# boots its guest for it alone), reported on its own line with its own log
# and CPU-seconds (the guest's while it ran), counted in the totals. The
# guest's own line is its boot and power-off (the checks' CPU-seconds taken
# out); a check it could not run or finish (the guest did not boot, was
# wedged, or ran out of time) is reported failed. A guest per test remains
# where the boot itself is tested (firmware, Secure Boot, PXE, power cuts,
# faults, the kernel command line).
cd "$(dirname "$0")/.." || exit 1
# Debian's tools first, as scripts/deps.sh installs them and a fresh root
# has them: a PATH that puts another python3 first (pyenv's shims: a bash
# script and a fork before each call, 0.1 CPU-s where Debian's takes 0.02,
# and the suite calls it hundreds of times) tests what a fresh root lacks.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
TIMEOUT=${TEST_TIMEOUT:-300}
JOBS=${BOOT_JOBS:-3}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
log=$PWD/out/test-logs	# absolute: the sanitizers write their reports there from any working folder
# a test's log and result are named by its file name: two tests of one name
# would write each other's
dups=$(for t in tests/cli/*.sh tests/boot/*.sh tests/guest/*.sh; do basename "$t"; done | sort | uniq -d)
[ -z "$dups" ] || { echo "run.sh: tests share a name (cli, boot and guest): $dups" >&2; exit 2; }
# a lane keeps its tests as PID:NAME:KIND words
odd=$(for t in tests/cli/*.sh tests/boot/*.sh tests/guest/*.sh; do basename "$t"; done | grep '[^A-Za-z0-9_.-]')
[ -z "$odd" ] || { echo "run.sh: a test's name has more than letters, digits, '_', '.' and '-': $odd" >&2; exit 2; }
for _v in HOST_JOBS OWN_JOBS; do
	eval "_n=\${$_v:-1}"
	[ "$_n" -ge 1 ] 2>/dev/null || { echo "run.sh: $_v=$_n: expected a number from 1" >&2; exit 2; }
done
mkdir -p "$log"
# what a build just wrote flushed first: its writeback beside the first
# tests slowed their loop devices (burnin_disks and burnin_together, whose
# burn-ins measure a disk's rate to size their passes, refused their time
# when the suite followed make image at once: 61 MiB/s)
sync
# this run's own marks (its tally, its serial lanes' ends), named by its
# pid: a run beside it (TESTS=...) shares out/test-logs and must not touch them
suite_begin=$(date +%s)
# the tests running now, a file each holding its timeout's pid (this run's
# own folder: other runs may share out/test-logs)
running_dir=$log/.running.$$
mkdir -p "$running_dir"
lanes=""
# A run stopped (Ctrl-C, a hangup, a kill) stops what it started and waits
# for the tests to clean up, so that it leaves no server holding a port and
# no test running on: the lanes first (they would start the next test),
# then each running test's timeout, which passes the signal on to the test
# and its process group; timeout's -k ends one that does not stop in 10 s.
stop_tests() {
	trap '' INT TERM HUP
	[ -z "$lanes" ] || kill $lanes 2>/dev/null
	echo "run.sh: stopped, and so are the tests running: $(ls "$running_dir" | tr '\n' ' ')" >&2
	_pids=$(cat "$running_dir"/* 2>/dev/null)
	[ -z "$_pids" ] || kill -TERM $_pids 2>/dev/null
	_i=0
	# until every one of them has ended (kill -0 of a list fails when any one is gone)
	while [ $_i -lt 150 ]; do
		_alive=""
		for _p in $_pids; do kill -0 "$_p" 2>/dev/null && _alive=1; done
		[ -n "$_alive" ] || break
		sleep 0.1
		_i=$((_i + 1))
	done
	rm -rf "$running_dir"
	rm -f "$log/.tally.$$" "$log/.host-done.$$" "$log/.own-done.$$" "$log/.lane-host.$$" "$log/.lane-own.$$" "$log/.lane-all.$$"
}
trap 'stop_tests; exit 130' INT
trap 'stop_tests; exit 143' TERM
trap 'stop_tests; exit 129' HUP
: > "$log/.tally.$$"

# the limit of one test: TIMEOUT, or its own "# timeout: N" when longer; a
# boot test's times JOBS, as it may share the cores with JOBS-1 others
limit_of() { # test
	limit=$TIMEOUT
	case "$1" in *.sh)
		own=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$1" | head -n 1)
		[ -n "$own" ] && [ "$own" -gt "$limit" ] && limit=$own ;;
	esac
	case "$1" in tests/boot/*) limit=$((limit * JOBS)) ;; esac
	echo "$limit"
}
# Each test's CPU-seconds from a cgroup of its own (cpuacct, or cgroup v2's
# cpu.stat): it counts every process the test starts, its guests and the
# servers it leaves running included, where the shell's times counts only
# those waited for (a guest killed at its power-off is not). Without a
# writable cgroup hierarchy (a container), the shell's times.
cg_root= cg_kind=
if [ -w /sys/fs/cgroup/cpuacct/cgroup.procs ]; then
	cg_root=/sys/fs/cgroup/cpuacct cg_kind=v1
elif [ -e /sys/fs/cgroup/cgroup.controllers ] && [ -w /sys/fs/cgroup/cgroup.procs ]; then
	cg_root=/sys/fs/cgroup cg_kind=v2
fi
# groups an earlier run left (stopped by a signal, or a child still exiting
# at its rmdir): the empty ones go (the kernel refuses to remove one that
# still holds a process), so the count of such names stays small
if [ -n "$cg_root" ]; then
	for g in "$cg_root"/bbtest.*; do [ -d "$g" ] && rmdir "$g" 2>/dev/null; done
fi
# Each test mounts in a mount namespace of its own (own_mounts,
# tests/own-mounts.sh): a namespace made beside it (a sandbox's, a
# neighbour test's) copies the mounts there are when it is made, and its
# copy kept a test's filesystem, and so its device, claimed after the
# test's umount (disks.sh and chroot.sh then found the device in use,
# beside other host tests). Where that is refused (not root; a chroot whose
# / is not a mount point) the tests run as they are, and so the host lane
# one at a time: said.
own_mounts=""
if unshare -m --propagation private sh tests/own-mounts.sh true 2>/dev/null; then
	own_mounts="unshare -m --propagation private sh tests/own-mounts.sh"
elif [ -z "${HOST_JOBS:-}" ]; then
	HOST_JOBS=1
	echo "tests/run.sh: no mount namespace of their own for the tests here (not root, or a chroot whose / is not a mount point): the tests that share the host run one at a time"
fi
# A shared guest's checks: those its "# checks:" line names (none: not a
# shared guest), and of those the ones this run runs (all when TESTS names
# the guest itself)
guest_checks_of() { sed -n 's/^# checks: //p' "$1" 2>/dev/null | head -n 1; }
checks_selected() {
	if [ -z "$TESTS" ] || basename "$1" | grep -qE "$TESTS"; then guest_checks_of "$1"; return; fi
	for _c in $(guest_checks_of "$1"); do echo "$_c.sh" | grep -qE "$TESTS" && printf '%s ' "$_c"; done
}
boot_selected() { [ -n "$(checks_selected "$1")" ] || selected "$(basename "$1")"; }
# a test's files: itself, and a shared guest's checks
files_of() { echo "$1"; for _c in $(guest_checks_of "$1"); do echo "tests/guest/$_c.sh"; done; }
# start TEST [NAME [SAN]]: runs it in the background; $log/NAME.result gets
# "rc seconds limit". SAN: under the sanitizer builds, whose reports go to
# $log/NAME.san/ and fail the test (LeakSanitizer's excuses: tests/lsan.supp)
start() { # test [name [san]]
	name=${2:-$(basename "$1")}
	case "$1" in *.sh) cmd="sh $1" ;; *) cmd="$1" ;; esac
	limit=$(limit_of "$1")
	rm -rf "$log/$name.result" "$log/$name.san"
	(
		begin=$(date +%s)
		read -r self _ < /proc/self/stat	# this subshell's pid ($$ is the runner's)
		rm -f "$log/$name.nocg"
		# a shared guest: the checks it is to run, their results where ours are
		checks=""
		case "$1" in tests/boot/*) checks=$(checks_selected "$1") ;; esac
		if [ -n "$checks" ]; then
			for c in $checks; do rm -f "$log/$c.sh.result"; done
			export GUEST_CHECKS="$checks" GUEST_LOGS="$log"
		fi
		# named by pid and start time: a group an earlier run left under a pid
		# used again (pids wrap every few minutes here) is not this one's, and
		# a test that could not have one would miss its tmux guests' CPU
		cg=
		if [ -n "$cg_root" ] && mkdir "$cg_root/bbtest.$self.$begin" 2>/dev/null; then
			if echo "$self" > "$cg_root/bbtest.$self.$begin/cgroup.procs" 2>/dev/null; then
				cg=$cg_root/bbtest.$self.$begin
			else
				rmdir "$cg_root/bbtest.$self.$begin"
			fi
		fi
		if [ -n "${3:-}" ]; then
			mkdir -p "$log/$name.san"
			export BB="$PWD/out/asan/bootbench" \
				ASAN_OPTIONS="log_path=$log/$name.san/asan:detect_leaks=1" \
				LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
				UBSAN_OPTIONS="log_path=$log/$name.san/ubsan:print_stacktrace=1:halt_on_error=1"
		fi
		# in the background, its pid where stop_tests finds it: a run that is
		# stopped stops its tests (each in timeout's process group of its own,
		# out of reach of a Ctrl-C), and their traps stop their servers
		BOOT_LIMIT=$limit timeout -k 10 "$limit" $own_mounts $cmd ${4:-} >"$log/$name.log" 2>&1 &
		echo $! > "$running_dir/$name"
		wait $!
		rc=$?
		rm -f "$running_dir/$name"
		if [ -n "${3:-}" ] && [ -n "$(ls -A "$log/$name.san")" ]; then
			echo "sanitizer reports:" >> "$log/$name.log"
			cat "$log/$name.san"/* >> "$log/$name.log"
			rc=1
		fi
		# the CPU-seconds of everything the test ran and waited for (its guests
		# too): the subshell's children's user + system, from the shell's times
		# (times itself in this shell, not in a command substitution's fork, which has no children)
		if [ -n "$cg" ]; then
			if [ $cg_kind = v1 ]; then
				cpu=$(awk '{ printf "%.1f", $1 / 1e9 }' "$cg/cpuacct.usage")
			else
				cpu=$(awk '$1 == "usage_usec" { printf "%.1f", $2 / 1e6 }' "$cg/cpu.stat")
			fi
			echo "$self" > "$cg_root/cgroup.procs"
			# a child still exiting holds it a moment; a process the test left behind keeps it
			i=0; until rmdir "$cg" 2>/dev/null || [ $i -ge 20 ]; do sleep 0.1; i=$((i + 1)); done
		else
			# counted without a cgroup: what tmux's guests ran is missed (said in the report)
			[ -z "$cg_root" ] || echo "note: no cgroup of its own ($cg_root/bbtest.$self.$begin): CPU-seconds from the shell's times, its tmux guests not counted" >> "$log/$name.log"
			touch "$log/$name.nocg"
			times > "$log/$name.times"
			cpu=$(sed -n 2p "$log/$name.times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.1f", t }')
			rm -f "$log/$name.times"
		fi
		# a shared guest's checks without a result (it did not boot, was
		# wedged, or its time ran out) failed; its own CPU-seconds are the
		# boot's and the power-off's, each check's taken out (in its line)
		if [ -n "$checks" ]; then
			for c in $checks; do
				[ -f "$log/$c.sh.result" ] && continue
				echo "FAILED: no result: its shared guest ($name) ended (exit $rc) before this check had one" >> "$log/$c.sh.log"
				echo "1 0 0 0" > "$log/$c.sh.result"
			done
			cpu=$(for c in $checks; do cat "$log/$c.sh.result"; done |
				awk -v t="${cpu:-0}" '{ t -= $4 } END { printf "%.1f", t < 0 ? 0 : t }')
		fi
		echo "$rc $(( $(date +%s) - begin )) $limit ${cpu:-0}" > "$log/$name.result.tmp"
		mv "$log/$name.result.tmp" "$log/$name.result"
	) &
}
# report NAME: the line for a finished test, and its tally line ("RC NAME",
# $log/.tally.PID: the serial lane reports from a subshell of its own)
report() { # name
	read -r rc secs limit cpu < "$log/$1.result"
	echo "$rc $1" >> "$log/.tally.$$"
	case $rc in
	0) echo "PASS $1 (${secs}s, ${cpu:-?} CPU-s)" ;;
	77) echo "SKIP $1: $(tail -n 1 "$log/$1.log")" ;;
	*) [ "$rc" = 124 ] && echo "FAIL $1: timed out after ${limit}s" || echo "FAIL $1 (exit $rc)"
	   # the failed checks first: the tail below may be cut where it is shown
	   grep '^FAILED: ' "$log/$1.log" | head -n 20 | sed 's/^/    /'
	   sed 's/^/    /' "$log/$1.log" | tail -n 30 ;;
	esac
}
selected() { # name
	[ -z "$TESTS" ] || echo "$1" | grep -qE "$TESTS"
}
# in_tier TEST: whether TIER (check, or all) runs it
in_tier() {
	# the arm64 image's tests run in TIER=arm64 alone (make test-arm64 builds that image)
	if grep -q '^# tier: arm64' "$1" 2>/dev/null; then
		[ "${TIER:-all}" = arm64 ]
		return
	fi
	case "${TIER:-all}" in arm64) return 1 ;; check) ;; *) return 0 ;; esac
	case "$1" in tests/boot/*) return 1 ;; esac
	! grep -q '^# tier: image' "$1" 2>/dev/null || return 1
	# a long one (real loads for their time: the burn-in's) when TESTS names it
	! grep -q '^# tier: long' "$1" 2>/dev/null || [ -n "$TESTS" ]
}
uses_servers() { grep -q 'tests/servers.sh' $(files_of "$1"); }
# nfs-ganesha keeps its clients' records in one place for all its instances
# (/var/lib/nfs/ganesha): one test that starts it at a time
uses_nfs() { grep -q 'start_ganesha' $(files_of "$1"); }
# "# alone": a test that a neighbour's load can upset runs with none beside it
alone() { grep -q '^# alone$' $(files_of "$1"); }

# A CLI test that shares the host: loop devices, mounts, servers or ports,
# network namespaces, /run/bootbench, or marked alone or quiet. The others
# (and the unit tests and fuzz replays) touch nothing but their own $T.
shares_host() {
	case "$1" in tests/cli/*) ;; *) return 1 ;; esac
	uses_servers "$1" || alone "$1" || grep -qE 'losetup|loopdev|mount|unshare|nsenter|/run/bootbench|127\.0\.0\.1|localhost|^# quiet$' "$1"
}
# in_lane WHICH TEST: all, or the tests that share the host, or the others
in_lane() {
	case "$1" in
	all) return 0 ;;
	host) shares_host "$2" ;;
	own) ! shares_host "$2" ;;
	esac
}
# A lane runs lane_slots of its tests at once: one (HOST_JOBS, OWN_JOBS)
# beside the boot tests; in make check, which has none, the host lane 3
# and the other 2 (its tests in 252 s, against 292 s with the host lane 2).
# Three at a time once failed five host tests beside two others
# (burnin_net, erase_verdicts and burnin_disks, now quiet and long; disks,
# chroot and fio_server, fixed at their cause: own_mounts, pgrep -o),
# and two at a time beside the boot tests ended the host lane at 514 s,
# not 904 s (a fresh root, 86ca316), with the shared guests' NVMe burn-in
# 30 s past its time. Each has its own loop devices, free
# ports, private namespaces and $T; a test marked alone or quiet runs with
# none beside it in the lane, and one that starts nfs-ganesha with no other
# that does.
lane_slots=1 lane_running="" lane_reported=0	# lane_running: PID:NAME:KIND of those started, not reported
lane_run() { # test name [san [arg]]
	if [ "$lane_slots" -le 1 ]; then
		start "$@"
		wait
		lane_report "$2"
		return
	fi
	_kind=$(lane_kind "$1")	# once: lane_fits asks five times a second
	until lane_fits "$_kind"; do sleep 0.2; done
	start "$@"
	lane_running="$lane_running $!:$2:$_kind"
}
# lane_kind TEST: x (alone or quiet: none of its lane beside it), n (starts
# nfs-ganesha: no other that does beside it), or -
lane_kind() {
	if alone "$1" || quiet "$1"; then echo x; elif uses_nfs "$1"; then echo n; else echo -; fi
}
# lane_report NAME: its line; a test whose runner ended without a result
# (killed, or its result not written) FAILED, never left out of the count
lane_report() {
	if [ ! -f "$log/$1.result" ]; then
		echo "FAILED: no result: the shell that ran this test ended without writing one" >> "$log/$1.log"
		echo "1 0 0 0" > "$log/$1.result"
	fi
	report "$1"
	lane_reported=$((lane_reported + 1))
}
# a test is reported when the shell start ran it in has ended (its result
# is written just before), not when a result appears: a run beside this one
# (TESTS=...) may write the same test's
lane_reap() {
	_still=""
	for _e in $lane_running; do
		_pid=${_e%%:*} _rest=${_e#*:}
		case $(cut -d' ' -f3 "/proc/$_pid/stat" 2>/dev/null) in
		''|Z) wait "$_pid" 2>/dev/null; lane_report "${_rest%%:*}" ;;
		*) _still="$_still $_e" ;;
		esac
	done
	lane_running=$_still
}
lane_fits() { # kind (lane_kind's)
	lane_reap
	_n=0
	for _e in $lane_running; do
		_n=$((_n + 1))
		case ${_e##*:} in x) return 1 ;; n) [ "$1" = n ] && return 1 ;; esac
	done
	[ $_n -lt "$lane_slots" ] && ! { [ "$1" = x ] && [ $_n -gt 0 ]; }
}
lane_drain() {
	while [ -n "$lane_running" ]; do
		lane_reap
		[ -z "$lane_running" ] || sleep 0.2
	done
}
# A lane's tests, a line each: TEST NAME SAN ARG (- for none): the unit and
# CLI tests, then the sanitizer runs; WHICH (in_lane) picks a part of them.
lane_tests() { # which
	for t in out/tests/* tests/cli/*.sh; do
		[ -x "$t" ] || [ "${t%.sh}" != "$t" ] || continue
		selected "$(basename "$t")" && in_tier "$t" && in_lane "$1" "$t" || continue
		echo "$t $(basename "$t") - -"
	done
	[ "${TIER:-all}" != arm64 ] || return 0	# the sanitizer builds are x86_64's

	# the sanitizer builds (make sanitize): the unit tests, the fuzz corpus, and
	# the CLI tests that drive the parsers and the engine hardest (tests/asan.list:
	# not all of them, to keep make test under 30 minutes)
	for t in out/asan/tests/*; do
		[ -x "$t" ] || continue
		n=asan-$(basename "$t")
		selected "$n" && in_lane "$1" "$t" && echo "$t $n san -"
	done
	for h in out/asan/fuzz/fuzz_*; do
		[ -x "$h" ] || continue
		n=replay-$(basename "$h")
		selected "$n" && in_lane "$1" "$h" && echo "$h $n san tests/fuzz/corpus/$(basename "$h")"
	done
	for t in $(grep -v '^#' tests/asan.list); do
		n=asan-$t
		selected "$n" && in_tier "tests/cli/$t" && in_lane "$1" "tests/cli/$t" && echo "tests/cli/$t $n san -"
	done
}
# The serial lane: its tests lane_slots at a time, the longest first (by
# their last run's time, where there was one), so that none of them starts
# last and runs on alone.
serial_lane() { # which
	lane_tests "$1" | while read -r t n san arg; do
		secs=0
		[ -f "$log/$n.result" ] && read -r _ secs _ < "$log/$n.result"
		case $secs in ''|*[!0-9]*) secs=0 ;; esac
		echo "$secs $t $n $san $arg"
	done | sort -s -k1,1nr > "$log/.lane-$1.$$"
	while read -r _ t n san arg; do
		[ "$san" = - ] && san=""
		[ "$arg" = - ] && arg=""
		lane_run "$t" "$n" "$san" $arg
	done < "$log/.lane-$1.$$"
	lane_drain
	# every test the lane was to run reported: one it did not (the list cut
	# short, a lane stopped) fails the run, never a shorter count
	_planned=$(lane_tests "$1" | wc -l)
	if [ "$lane_reported" != "$_planned" ]; then
		echo "FAIL lane-$1: $lane_reported of its $_planned tests reported"
		echo "1 lane-$1" >> "$log/.tally.$$"
	fi
	rm -f "$log/.lane-$1.$$"
}
# Beside the serial lanes (a slot of JOBS) boot tests run on what is left,
# never one that uses the host's loop devices (the host lane has loop
# devices of its own), runs alone or is marked quiet.
# "# quiet": a test that the sanitizer runs' load upsets, but not a guest's.
touches_host() { grep -q 'losetup' $(files_of "$1"); }
quiet() { grep -q '^# quiet$' $(files_of "$1"); }
boot_pending=$(for t in tests/boot/*.sh; do
	boot_selected "$t" && in_tier "$t" && echo "$(limit_of "$t") $t"
done | sort -s -k1,1nr | cut -d' ' -f2)
# Two serial lanes: the tests that share the host one after another, the
# others beside them (most of a lane's time is waits: a runtime, a server,
# a poll; the serial lane alone was the suite's longest path, 891 s of
# tests that share the host and 481 s of the others, one after the other).
# With boot tests the other lane (the unit tests, the sanitizers' runs:
# a core's work) takes one slot of JOBS while it runs; the host lane's
# tests mostly wait on their servers, devices and runtimes (a fresh root:
# 824 s of it, a third of a core), so boot tests use its slot. Each lane
# marks its end (.host-done, .own-done: the time it ended, for the figures).
if [ -n "$boot_pending" ]; then
	(lane_slots=${HOST_JOBS:-1}; serial_lane host; date +%s > "$log/.host-done.$$") &
	lanes=$!
	(lane_slots=${OWN_JOBS:-1}; serial_lane own; date +%s > "$log/.own-done.$$") &
	lanes="$lanes $!"
elif [ "$JOBS" -ge 2 ]; then
	(lane_slots=${HOST_JOBS:-3}; serial_lane host) &
	lanes=$!
	(lane_slots=${OWN_JOBS:-2}; serial_lane own) &	# a subshell each: a lane's wait is for its own test
	lanes="$lanes $!"
	wait
else
	serial_lane all
fi

# boot tests: up to JOBS at once, two of those with servers at a time;
# the long ones (a "# timeout:" of their own) first, so that two run together longest
pending=$boot_pending
running=""
while [ -n "$pending$running" ]; do
	# collect what finished
	still=""
	for t in $running; do
		if [ -f "$log/$(basename "$t").result" ]; then
			report "$(basename "$t")"
			for c in $(checks_selected "$t"); do report "$c.sh"; done
		else
			still="$still $t"
		fi
	done
	running=$still
	# start what fits (the own lane, while it runs, takes a slot;
	# a test that shares the host waits for the host lane's end, a quiet
	# one or one that runs alone for both lanes')
	n=$(echo $running | wc -w)
	servers_busy=0 nfs_busy=0 alone_busy=0 host_lane=0 lanes_busy=0
	[ -e "$log/.host-done.$$" ] || host_lane=1
	{ [ $host_lane = 1 ] || [ ! -e "$log/.own-done.$$" ]; } && lanes_busy=1
	[ -n "$pending" ] && [ ! -e "$log/.own-done.$$" ] && n=$((n + 1))
	for t in $running; do
		uses_servers "$t" && servers_busy=$((servers_busy + 1))
		uses_nfs "$t" && nfs_busy=1
		alone "$t" && alone_busy=1
	done
	rest=""
	for t in $pending; do
		if [ "$n" -lt "$JOBS" ] && [ $alone_busy = 0 ] && ! { [ $servers_busy -ge 2 ] && uses_servers "$t"; } &&
			! { [ $nfs_busy = 1 ] && uses_nfs "$t"; } &&
			! { alone "$t" && [ "$n" -gt 0 ]; } && ! { [ $host_lane = 1 ] && touches_host "$t"; } &&
			! { [ $lanes_busy = 1 ] && { quiet "$t" || alone "$t"; }; }; then
			start "$t"
			running="$running $t"
			n=$((n + 1))
			uses_servers "$t" && servers_busy=$((servers_busy + 1))
			uses_nfs "$t" && nfs_busy=1
			alone "$t" && alone_busy=1
		else
			rest="$rest $t"
		fi
	done
	pending=$rest
	[ -n "$running$pending" ] && sleep 1
done
wait
rm -rf "$running_dir"
boot_end=$(date +%s)

# where the time went: the ten slowest of this run, the ten costliest in
# CPU-seconds (the suite's wall time follows them), and the run's totals:
# the tests this run reported (its tally), not others' beside it
while read -r _rc name; do
	read -r rc secs limit cpu < "$log/$name.result" || continue
	echo "$secs ${cpu:-0} $name"
done < "$log/.tally.$$" > "$log/.costs.$$"
echo "the ten slowest:"
sort -k1,1rn "$log/.costs.$$" | head -n 10 | awk '{ printf "  %5d s  %s\n", $1, $3 }'
echo "the ten costliest:"
sort -k2,2rn "$log/.costs.$$" | head -n 10 | awk '{ printf "  %7.1f CPU-s  %s\n", $2, $3 }'
awk -v wall=$(( $(date +%s) - suite_begin )) '{ cpu += $2 } END {
	printf "the run: %d s of wall time, %.0f CPU-seconds in its tests (user + system, guests included)\n", wall, cpu }' "$log/.costs.$$"
# a figure is not called whole where a test was counted without a cgroup
nocg=$(while read -r _secs _cpu name; do [ -e "$log/$name.nocg" ] && echo "$name"; done < "$log/.costs.$$")
[ -z "$nocg" ] || echo "of which counted without a cgroup (guests under tmux missed): $(echo $nocg)"
# the CPU-seconds by kind: the boot tests (their guests, and the servers
# and checks beside them) against the unit, CLI and sanitizer runs
while read -r _secs _cpu name; do
	if [ -f "tests/boot/$name" ] || [ -f "tests/guest/$name" ]; then echo "boot $_cpu"; else echo "host $_cpu"; fi
done < "$log/.costs.$$" | awk '{ c[$1] += $2; n[$1]++ } END {
	printf "of them: %.0f CPU-s in boot tests and the checks of shared guests (%d, their guests included), %.0f in unit, CLI and sanitizer tests (%d)\n",
		c["boot"], n["boot"], c["host"], n["host"] }'
# make test's own start (the Makefile's MAKE_TEST_BEGIN): what went before
# the tests (the packages installed, the downloads, the builds)
case "${MAKE_TEST_BEGIN:-}" in
''|*[!0-9]*) ;;
*) echo "make test: $((suite_begin - MAKE_TEST_BEGIN)) s before the tests (packages, downloads, builds), $(( $(date +%s) - MAKE_TEST_BEGIN )) s in all" ;;
esac
# the lanes' ends, from the run's start: the longest is the suite's wall time
if [ -n "$boot_pending" ]; then
	for _l in host own; do
		read -r _end < "$log/.$_l-done.$$" 2>/dev/null && printf 'the %s lane ended at %d s; ' $_l $((_end - suite_begin))
	done
	echo "the boot tests at $((boot_end - suite_begin)) s"
fi
pass=$(awk '$1 == 0' "$log/.tally.$$" | wc -l)
skip=$(awk '$1 == 77' "$log/.tally.$$" | wc -l)
fail=$(awk '$1 != 0 && $1 != 77' "$log/.tally.$$" | wc -l)
failed=$(awk '$1 != 0 && $1 != 77 { printf " %s", $2 }' "$log/.tally.$$")
skipped=$(awk '$1 == 77 { printf " %s", $2 }' "$log/.tally.$$")
rm -f "$log/.tally.$$" "$log/.host-done.$$" "$log/.own-done.$$" "$log/.costs.$$"
[ -n "$failed" ] && echo "failed:$failed"
[ -n "$skipped" ] && echo "skipped:$skipped"
# make check's tier: what it leaves to make test, said (never a silent partial run)
if [ "${TIER:-all}" = check ]; then
	left=$(for t in tests/cli/*.sh; do
		grep -q '^# tier: arm64' "$t" || ! selected "$(basename "$t")" || in_tier "$t" || printf ' %s' "$(basename "$t")"
	done)
	echo "left to make test: the boot tests and their shared guests' checks${left:+; the CLI tests marked # tier: image or long:$left}"
fi
echo "$pass passed, $fail failed, $skip skipped"
# A skip is not a pass: every requirement of a test is installed by 'make
# test' (scripts/deps.sh), so a skip means something is missing. ALLOW_SKIP=1
# accepts skips (a machine without root or loop devices), never under CI=true.
[ $fail = 0 ] || exit 1
if [ $skip != 0 ]; then
	[ "${CI:-}" != true ] && [ "${ALLOW_SKIP:-}" = 1 ] && exit 0
	echo "$skip test(s) skipped: that fails the run${CI:+ (CI=true)}; ALLOW_SKIP=1 accepts skips outside CI"
	exit 1
fi
