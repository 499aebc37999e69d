# SPDX-License-Identifier: MIT
# burnin_together.sh - bootbench burnin's together phase (issue 45): with
# two components or more, every one runs at once, each in a process of its
# own for the whole time (the worst case of power and heat), and the disks
# all at once; the machine's load is sampled meanwhile, and the together
# row says for how long every load was seen at once, each of their
# components still running, against burnin_together_overlap_min. Real
# stress-ng, the real memory patterns, two loop devices written and read
# back. --phases=together,each runs both, a verdict per component; a stop
# (SIGTERM, the burn-in killed) leaves no load running.
. tests/lib.sh
need_commands stress-ng python3
loopdev a "$T/a.img" 48M
loopdev b "$T/b.img" 48M
# the overlap's bar at a quarter: beside another load (stress-ng --cpu 2) the memory's share is locked
# slower, and the memory component ends later than the others
LIMITS=cpu_need_sensors=0,cpu_freq_min=0,memory_need_edac=0,memory_fraction=0.1,disks_need_selftest=0,together_overlap_min=0.25
# the processes this test's burn-ins started (and theirs), by a mark in their environment:
# other tests' stress-ng may run beside this one
loads() { grep -ls "BBTEST_MARK=$T/" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
burn() { # NAME ARGS...: its results in $T/NAME, its exit status in $T/NAME.rc
	n=$1; shift
	mkdir -p "$T/$n"
	BBTEST_MARK="$T/$n" "$BB" burnin --components=cpu,memory,disks --destroy="$a,$b" --output="$T/$n" "$@" "$a" "$b" \
		> "$T/$n.out" 2> "$T/$n.err"
	echo $? > "$T/$n.rc"
}
# passes NAME: how many disk passes the burn-in in $T/NAME runs now
passes() { n=0; for p in $(pgrep -f burnin-pass); do grep -qs "BBTEST_MARK=$T/$1" /proc/$p/environ && n=$((n + 1)); done; echo $n; }
comp() { json "$T/$1/burnin.json" "(lambda c: $3)([x for x in d['components'] if x['name'] == '$2'][0])"; }

refuses "a phase that does not exist" "--phases=parallel: expected together, each, or together,each" \
	"$BB" burnin --phases=parallel --components=cpu,memory
refuses "a phase named twice" "--phases=each,each" "$BB" burnin --phases=each,each --components=cpu,memory

# the default with three components: together; both disks' passes seen running at once
(i=0; while [ $i -lt 300 ] && [ "$(passes together)" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done
 passes together > "$T/passes-at-once") &
watcher=$!
BOOTBENCH_SCALE=0.5 burn together --duration=60s --limits="$LIMITS"
wait $watcher
cat "$T/together.out"
check "three components, no --phases: one phase, together" json "$T/together/burnin.json" "d['phases'] == ['together']"
check "... every component PASS, and the machine" sh -c "[ \$(cat '$T/together.rc') = 0 ] && grep -q '^machine   PASS' '$T/together/burnin.txt'"
check "... the components ran at the same time: each began before any ended" json "$T/together/burnin.json" \
	"(lambda r: len(r) == 3 and max(x['from_s'] for x in r) < min(x['to_s'] for x in r))([c['ran']['together'] for c in d['components'] if c['name'] in ('cpu', 'memory', 'disks')])"
check "... each for the phase's time (30 s), not a share of it" json "$T/together/burnin.json" "
all(c['seconds'] >= 24 for c in d['components'] if c['name'] in ('cpu', 'memory', 'disks'))"
check "... both disks' passes running at once" [ "$(cat "$T/passes-at-once")" -ge 2 ]
check "... both disks written and verified, in the disks' figures" comp together disks \
	"c['figures']['disks_tested']['value'] == 2 and len(c['devices']) == 2 and all(x['figures']['pass']['value'] > 0 for x in c['devices'])"
# every sample counted as "all" had each load, each component still running
check "the load sampled: every load at once, each component running, for over together_overlap_min of it" json "$T/together/burnin.json" \
	"(lambda t, ok: sorted(t['loads']) == ['cpu', 'disks', 'memory'] and t['overlap_s'] >= 0.25 * t['sampled_s'] and len(ok) >= 3 and
	  all(s['cpu_busy_pct'] >= 90 and s['disk_mbs'] >= 1 and sorted(s['running']) == ['cpu', 'disks', 'memory'] and
	      s['memory_used_mib'] - t['memory_base_mib'] >= t['memory_need_mib'] for s in ok))(d['together'], [s for s in d['together']['samples'] if s['all']])"
check "... the together row PASS, in so many seconds" sh -c \
	"grep -Eq '^together  PASS     every load at once for [0-9]+ s of [0-9]+ s \\(the CPUs 90% busy [0-9]+ s, the memory.s share half in use [0-9]+ s, the disks moving [0-9]+ s\\)' '$T/together/burnin.txt'"

# a bar the phase cannot meet: its start and end never have every load
BOOTBENCH_SCALE=0.25 burn strict --duration=60s --limits="${LIMITS%,together_overlap_min=*},together_overlap_min=1"
check "every load at once for less than together_overlap_min: the together row ERROR, the machine not PASS" sh -c \
	"grep -q '^together  ERROR    every load at once for only' '$T/strict/burnin.txt' && [ \$(cat '$T/strict.rc') = 1 ] &&
	 grep -q '^machine   ERROR' '$T/strict/burnin.txt'"

# both phases: half the time together, half one after another; a verdict per component, both phases' figures
BOOTBENCH_SCALE=0.5 burn both --duration=60s --phases=together,each --limits="$LIMITS"
check "--phases=together,each: both phases, in that order" json "$T/both/burnin.json" "d['phases'] == ['together', 'each']"
check "... each component ran with the others, then alone after the together phase ended" json "$T/both/burnin.json" \
	"(lambda end: all('together' in c['ran'] and c['ran']['alone']['from_s'] >= end - 1 for c in d['components'] if c['name'] in ('cpu', 'memory', 'disks')))([c for c in d['components'] if c['name'] == 'together'][0]['ran']['together']['to_s'])"
check "... one verdict each, both phases' words and figures (the alone phase's as NAME_alone)" comp both memory \
	"c['verdict'] == 'PASS' and 'alone: ' in c['reason'] and 'tested_gb' in c['figures'] and 'tested_gb_alone' in c['figures']"

# a component's process, or a program it runs, stopped from outside the burn-in (not by a signal to
# it): the component did not run its time, an ERROR, never its own INTERRUPTED or PASS
outside() { # NAME COMPONENT PATTERN: kill PATTERN's processes of this burn-in 3 s into it
	mkdir -p "$T/$1"
	BBTEST_MARK="$T/$1" BOOTBENCH_SCALE=1 "$BB" burnin --components="$2" --duration=20s --limits="$LIMITS" \
		--output="$T/$1" > "$T/$1.out" 2>&1 &
	job=$!
	sleep 3
	for p in $(pgrep -f "$3"); do
		[ "$p" != $job ] && grep -qs "BBTEST_MARK=$T/$1" /proc/$p/environ && kill -TERM $p
	done
	wait $job
	echo $? > "$T/$1.rc"
}
outside memory-child memory "burnin --components=memory"
check "the memory component's process stopped from outside: ERROR, exit 1, not INTERRUPTED" sh -c \
	"[ \$(cat '$T/memory-child.rc') = 1 ] && grep -q '^memory    ERROR    memory: its process was stopped by a signal from outside the burn-in' '$T/memory-child/burnin.txt'"
outside cpu-stressor cpu "stress-ng"
check "stress-ng stopped from outside (it exits 0): cpu ERROR, not PASS" sh -c \
	"[ \$(cat '$T/cpu-stressor.rc') = 1 ] && grep -Eq '^cpu +ERROR +stress-ng [a-z]+ ended after [0-9]+ s of its [0-9]+ s \\(stopped from outside\\?\\)' '$T/cpu-stressor/burnin.txt'"

# stop_midway NAME SIGNAL: a burn-in in $T/NAME, SIGNAL sent to it 2 s after its disks' passes began
passes_of() { [ "$(passes "$1")" -gt 0 ]; }
stop_midway() {
	BOOTBENCH_SCALE=1 burn "$1" --duration=120s --limits="$LIMITS" &
	job=$!
	i=0; while [ $i -lt 200 ] && ! passes_of "$1"; do sleep 0.1; i=$((i + 1)); done
	sleep 2
	pkill -"$2" -f "burnin --components=cpu,memory,disks --destroy=$a,$b --output=$T/$1"
	wait $job
}

# SIGTERM in the together phase: INTERRUPTED, results written, no load left running
stop_midway stopped TERM
check "SIGTERM in the together phase: exit 130, INTERRUPTED" sh -c \
	"[ \$(cat '$T/stopped.rc') = 130 ] && grep -q '^machine   INTERRUPTED' '$T/stopped/burnin.txt'"
check "... each component INTERRUPTED, none PASS" sh -c \
	"! grep -Eq '^(cpu|memory|disks|together) +PASS' '$T/stopped/burnin.txt' && [ \$(grep -Ec '^(cpu|memory|disks) +INTERRUPTED' '$T/stopped/burnin.txt') = 3 ]"
sleep 1
check "... no stressor, pass or component process left running" [ "$(loads)" = 0 ]

# the burn-in killed outright (SIGKILL: no handler runs): its components die with it
stop_midway killed KILL
i=0; while [ $i -lt 100 ] && [ "$(loads)" != 0 ]; do sleep 0.1; i=$((i + 1)); done
check "SIGKILL: every component's process and its loads end with the burn-in" [ "$(loads)" = 0 ]
finish
