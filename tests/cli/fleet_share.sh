# SPDX-License-Identifier: MIT
# bootbench fleet over a share alone (issue 46), its runs made by the
# programs a booted machine uses (bootbench inventory over recorded
# machines, results.sh's run_folder_name and write_status, bootbench save
# and its heartbeat to the share):
#   a result that is not one is unreadable, named with why, never passed:
#   status.json {}, an exit_status that is a string, a status.json cut
#   short beside a PASS burnin.json, a folder that cannot be read (said on
#   stderr, never "never seen"); exit 2;
#   a serial with a blank and a / (the machine names itself ABC_123_4)
#   matches the list's "abc 123/4", without inventory.json too;
#   an empty position is listed as empty; a list with no machine is bad
#   input; "ended" is when the run ended (status.json), not its start;
#   a run saved twice (the stick's copy and the share's) is one run; a
#   newer run supersedes an older wherever the walk meets them; --since
#   leaves last month's pass out;
#   a run going writes its heartbeat to the share (bootbench save
#   --heartbeat): running, then silent once it is old (the share's clock),
#   then passed when its results are saved (the heartbeat removed);
#   exit statuses 0 all passed, 1 one failed, 3 one running or silent, 2
#   unreadable; --format=json and csv say the same states;
#   what an attack found passed (unreadable now): a pipe or a link for
#   status.json, a pass beside a failed target or hook, a key twice, a
#   file not bootbench's, a burn-in PASS beside a failed component, a run
#   dated in the future, a pass newest by the machine's clock while a
#   failed run reached the share later; a machine listed by MAC finds its
#   heartbeat (named by its serial) through its saved inventory or the
#   MACs the heartbeat carries; one machine on two lines is said, exit 2;
#   --since judges a folder with no time in its name by when it ended;
#   a second attack's (unreadable, named, exit 2): a copy cut short (a
#   file MANIFEST.sha256 lists missing), a run folder that is a link, a
#   folder deeper than the walk goes, a status.json of a terabyte; in the
#   list: a serial column headed "Service Tag", "S/N", "Serial No" or
#   "serial_number" is read; a row with cells filled but no serial or MAC,
#   and a NUL byte, are bad input; a placeholder serial beside a MAC is
#   the MAC's machine; a row's serial seen on a machine without its MAC
#   is unreadable; a run whose clock was not set (status.json's clock)
#   beside another of the machine is unreadable, --since or not; each
#   kind of run is judged by its newest (a quick run's pass after a failed
#   burn-in is failed); a heartbeat named after a pass, however the
#   share's clock stamped them (a copy of the share), is not hidden by it;
#   a third attack's (46b), never an older pass: a newest run folder with
#   no inventory.json or status.json (a copy cut after console.log:
#   unreadable; a status.json that is a pipe: unreadable; an older
#   image's console log alone saying exit status 1: failed); two runs of
#   one second, one failed (unreadable, whichever run id is larger); two
#   boards with one serial whose runs overlap (unreadable); --since over a
#   failed rerun dated 2000 that reached the share after the pass.
. tests/lib.sh
need_commands python3 setpriv
M=$T/machines SHARE=$T/share
mkdir -p "$T/runs" "$SHARE/results"
SH=sh
[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"

machine() { # NAME SERIAL MAC: a recorded machine (DMI serial, one wired NIC) in $M/NAME
	R=$M/$1
	mkdir -p "$R/sys/class/dmi/id" "$R/sys/class/net/eno1/device" "$R/proc" "$R/dev"
	printf '%s\n' "$2" > "$R/sys/class/dmi/id/product_serial"
	echo "$3" > "$R/sys/class/net/eno1/address"
	echo up > "$R/sys/class/net/eno1/operstate"
	grep -m8 . /proc/cpuinfo > "$R/proc/cpuinfo"
	printf 'MemTotal:        1048576 kB\nMemFree:          600000 kB\nMemAvailable:     524288 kB\n' > "$R/proc/meminfo"
	: > "$R/dev/kmsg"
}
new_run() { # NAME: a run folder of machine NAME, named as the boot names it, in $RUN
	RUN=$T/runs/$(ROOT="$M/$1" BOOTBENCH="$BB" $SH -c '. rootfs/lib/bootbench/results.sh; run_folder_name')
	mkdir -p "$RUN"
	BOOTBENCH_SYSROOT="$M/$1" "$BB" inventory --output="$RUN" > /dev/null
}
status() { # STATUS: status.json as the boot writes it
	BB_RUN=quick $SH -c '. rootfs/lib/bootbench/results.sh; write_status "$1" "$2" ""' - "$RUN" "$1"
}
save() { "$BB" save --stick="$SHARE" --spool="$T/spool" usb "$RUN" > /dev/null 2>&1 || bad "saving $RUN"; }
# aged MINUTES: the run just saved, renamed as if it had started MINUTES ago
aged() {
	old=$(basename "$RUN")
	new=$(date -u -d "$1 minutes ago" +%Y%m%dT%H%M%SZ)_${old#*_}
	mv "$SHARE/results/$old" "$SHARE/results/$new"
	RUN=$T/runs/$new
}
fleet() { # CSV [ARGS...]: the list on $T/out, stderr on $T/err, exit status in $rc
	csv=$1; shift
	"$BB" fleet --expect="$csv" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	sed 's/^/    /' "$T/out" "$T/err"
}
row() { # POSITION STATE [DETAIL-ERE]: that row of $T/out
	awk -v p="$1" '$2 == p' "$T/out" > "$T/row"
	check "$1: $2${3:+ ($3)}" sh -c "grep -q ' $2 ' '$T/row' && grep -Eq -- '${3:-.}' '$T/row'"
}

# passed: a serial with a blank and a slash, listed as a person types it
machine a "ABC 123/4" 52:54:00:00:01:01; new_run a; status 0; save
# passed, its newer run; its older run, failed, is met after it by the walk
machine b SN-0002 52:54:00:00:01:02; new_run b; status 1; save; aged 90
mkdir -p "$SHARE/zz-older"; mv "$SHARE/results/$(basename "$RUN")" "$SHARE/zz-older/"
new_run b; status 0; save
# passed, saved twice (the stick's copy beside the share's): one run
machine c SN-0003 52:54:00:00:01:03; new_run c; status 0; save
mkdir -p "$SHARE/stick-copy"; cp -a "$SHARE/results/$(basename "$RUN")" "$SHARE/stick-copy/"
# passed, no inventory.json: the folder's name is all that says whose it is
machine d "XY 9/9" 52:54:00:00:01:04; new_run d; rm "$RUN/inventory.json"; status 0; save
# its run ended 40 min after it started: "ended" says the end
machine e SN-0005 52:54:00:00:01:05; new_run e; status 0; save; aged 60
python3 - "$SHARE/results/$(basename "$RUN")/status.json" <<'PY'
import datetime, json, sys
d = json.load(open(sys.argv[1]))
d["ended"] = (datetime.datetime.utcnow() - datetime.timedelta(minutes=20)).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(d, open(sys.argv[1], "w"))
PY
ended_e=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ended'].replace('T', ' ').replace('Z', ' UTC'))" \
	"$SHARE/results/$(basename "$RUN")/status.json")

cat > "$T/passed.csv" <<CSV
position,serial,mac
U01,abc 123/4,
U02,SN-0002,
U03,SN-0003,
U04,xy 9/9,
U05,SN-0005,
CSV
fleet "$T/passed.csv" "$SHARE"
check "all listed passed: exit 0" [ $rc = 0 ]
row U01 passed 'quick ended'
check "... a serial with a blank and a / is one machine: none unlisted" sh -c "! grep -q unlisted '$T/out'"
row U02 passed 'the newest of 2 runs'
row U03 passed
check "... a run saved twice is one run" sh -c "! grep -E '^4 ' '$T/out' | grep -q 'runs)'"
row U04 passed
row U05 passed "quick ended $ended_e"
# the rack's empty U slots, a position and no machine: listed as empty
{ cat "$T/passed.csv"; printf 'U06,,\nU07,,\n'; } > "$T/slots.csv"
fleet "$T/slots.csv" "$SHARE"
check "all listed passed, two empty positions: exit 0" [ $rc = 0 ]
row U06 empty
check "the count: 5 listed, 5 passed; 2 empty positions" grep -q '^5 listed: 5 passed, 0 failed, 0 running, 0 silent, 0 never seen, 0 unreadable; 0 reported but not listed; 2 empty position(s)$' "$T/out"
fleet "$T/passed.csv" --since="$(date -u -d '30 minutes ago' +%Y-%m-%dT%H:%M:%SZ)" "$SHARE"
check "--since 30 min ago: SN-0005's run (60 min ago) is left out: never seen, exit 1" \
	sh -c "[ $rc = 1 ] && awk '\$2 == \"U05\"' '$T/out' | grep -q 'never seen' && grep -q '2 run(s) before --since left out' '$T/out'"
check "... SN-0002's failed run before it too: its newer run alone" sh -c "awk '\$2 == \"U02\"' '$T/out' | grep -q passed && ! awk '\$2 == \"U02\"' '$T/out' | grep -q 'runs)'"
refuses "--since that is not a date" "--since=yesterday: expected a UTC date" "$BB" fleet --expect="$T/passed.csv" --since=yesterday "$SHARE"

printf 'position,serial,mac\n' > "$T/none.csv"
refuses "a list with no machine (a header only)" "no machine listed" "$BB" fleet --expect="$T/none.csv" "$SHARE"
printf 'position,serial,mac\nU1,,\nU2,,\n' > "$T/empty.csv"
refuses "a list of empty positions only" "no machine listed" "$BB" fleet --expect="$T/empty.csv" "$SHARE"

# failed: exit 1
machine f SN-0006 52:54:00:00:01:06; new_run f; status 1; save
{ cat "$T/passed.csv"; echo "U08,SN-0006,"; } > "$T/failed.csv"
fleet "$T/failed.csv" "$SHARE"
check "one failed: exit 1" [ $rc = 1 ]
row U08 failed 'exit status 1'

# a run going: its heartbeat on the share while it runs
machine g SN-0007 52:54:00:00:01:07; new_run g
"$BB" save --heartbeat=5 --stick="$SHARE" usb "$RUN" > "$T/heartbeat.out" 2>&1 &
beating=$!
i=0; until [ -e "$SHARE/results/$(basename "$RUN").heartbeat.json" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the heartbeat is on the share" [ -e "$SHARE/results/$(basename "$RUN").heartbeat.json" ]
{ cat "$T/passed.csv"; echo "U09,SN-0007,"; } > "$T/going.csv"
fleet "$T/going.csv" "$SHARE"
check "one running, the others passed: exit 3" [ $rc = 3 ]
row U09 running 'last heartbeat on the share [0-9]+ s ago'
kill -STOP $beating
touch -d '10 minutes ago' "$SHARE/results/$(basename "$RUN").heartbeat.json"
fleet "$T/going.csv" "$SHARE"
check "its heartbeat 10 min old: silent, exit 3" [ $rc = 3 ]
row U09 silent 'silent since [0-9-]+ [0-9:]+ UTC \(10 min\), its last heartbeat on the share'
kill -CONT $beating
status 0
i=0; while kill -0 $beating 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the heartbeat stops once the run's status.json is written" sh -c "! kill -0 $beating 2>/dev/null"
save
check "... and its file goes once the results are saved" [ ! -e "$SHARE/results/$(basename "$RUN").heartbeat.json" ]
fleet "$T/going.csv" "$SHARE"
check "its results saved: passed, exit 0" sh -c "[ $rc = 0 ] && awk '\$2 == \"U09\"' '$T/out' | grep -q passed"
# the run's shell stops it (stop_heartbeat): it ends by itself after the beat in
# hand, exit 0, nothing half-written left on the share
new_run g
"$BB" save --heartbeat=5 --stick="$SHARE" usb "$RUN" > "$T/heartbeat.out" 2>&1 &
beating=$!
i=0; until [ -e "$SHARE/results/$(basename "$RUN").heartbeat.json" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -TERM $beating
wait $beating
check "SIGTERM: the heartbeat ends by itself, exit 0 (got $?)" [ $? = 0 ]
check "... no temporary heartbeat file left" sh -c "! ls -a '$SHARE/results' | grep -q '^\..*heartbeat.*partial'"

# results that are not results: unreadable, with why; exit 2
bad_status() { # NAME SERIAL STATUS.JSON-TEXT [burnin]
	machine "$1" "$2" "52:54:00:00:02:$3"; new_run "$1"
	printf '%s' "$4" > "$RUN/status.json"
	[ -z "${5:-}" ] || printf '{"bootbench_burnin": "1", "verdict": "PASS", "components": []}\n' > "$RUN/burnin.json"
	save
}
bad_status h SN-0021 21 '{}'
bad_status i SN-0022 22 '{"bootbench_status": 1, "run": "quick", "exit_status": "1", "failed_targets": []}'
bad_status j SN-0023 23 '{"bootbench_status": 1, "run": "burnin", "exit_sta' burnin
{ cat "$T/passed.csv"; printf 'U21,SN-0021,\nU22,SN-0022,\nU23,SN-0023,\n'; } > "$T/broken.csv"
fleet "$T/broken.csv" "$SHARE"
check "broken results: exit 2" [ $rc = 2 ]
row U21 unreadable 'status.json: no exit_status'
row U22 unreadable 'status.json: its exit_status is not a number'
row U23 unreadable 'status.json: not JSON, or cut short'
fleet "$T/broken.csv" --format=json "$SHARE"
check "JSON: the same states, the counts" json "$T/out" \
	"{m['position']: m['state'] for m in d['machines']} == {'U01': 'passed', 'U02': 'passed', 'U03': 'passed', 'U04': 'passed',
	  'U05': 'passed', 'U21': 'unreadable', 'U22': 'unreadable', 'U23': 'unreadable', '': 'unlisted'}
	 and d['states']['unreadable'] == 3 and d['listed'] == 8"
fleet "$T/broken.csv" --format=csv "$SHARE"
check "CSV: a header, a row a machine, the same states" python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$T/out')))
got = {r['position']: r['state'] for r in rows if r['line']}
sys.exit(0 if got['U21'] == 'unreadable' and got['U01'] == 'passed' and len(got) == 8 else 1)"
# on a console of 80 columns (issue 48): every line fits, each detail folded under its own row
COLUMNS=80 "$BB" fleet --expect="$T/broken.csv" "$SHARE" > "$T/out80" 2>/dev/null
check "COLUMNS=80: no line past column 80" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$T/out80"
check "... a row, then its detail indented under it" sh -c "grep -A1 -E '^[0-9]+ +U21 +SN-0021 +unreadable\$' '$T/out80' | tail -n1 | grep -q '^       status.json: no exit_status'"
"$BB" fleet --expect="$T/broken.csv" "$SHARE" > "$T/out1" 2>/dev/null
check "... into a pipe, a row is one line (for grep)" grep -Eq '^[0-9]+ +U21 +SN-0021 +unreadable +status.json: no exit_status' "$T/out1"
refuses "--format that is not one" "--format=xml: expected text, csv or json" "$BB" fleet --expect="$T/broken.csv" --format=xml "$SHARE"

# a run folder that cannot be read (a share's permissions): said, that machine unreadable, exit 2
machine k SN-0031 52:54:00:00:03:01; new_run k; status 0; save
chmod 000 "$SHARE/results/$(basename "$RUN")"
chmod 755 "$T"
{ cat "$T/passed.csv"; printf 'U31,SN-0031,\n'; } > "$T/locked.csv"
chmod 644 "$T/locked.csv"
"$BB" fleet --expect="$T/locked.csv" "$SHARE" > /dev/null 2>&1	# as root it can be read: the rest is nobody's view
setpriv --reuid=65534 --regid=65534 --clear-groups "$BB" fleet --expect="$T/locked.csv" "$SHARE" > "$T/out" 2> "$T/err"
rc=$?
sed 's/^/    /' "$T/out" "$T/err"
check "an unreadable run folder: exit 2" [ $rc = 2 ]
check "... said on stderr, with its name" grep -q "$(basename "$RUN"): cannot read it: Permission denied" "$T/err"
row U31 unreadable 'the folder cannot be read'
chmod 755 "$SHARE/results/$(basename "$RUN")"

# what a review found passed (issue 46, its attack): each is unreadable, exit 2
odd_run() { # NAME SERIAL N: a run saved with status 0 whose files the caller then spoils, in $F
	machine "$1" "$2" "52:54:00:00:04:$3"; new_run "$1"; status 0; save
	F=$SHARE/results/$(basename "$RUN")
	printf 'U4%s,%s,\n' "$3" "$2" >> "$T/odd.csv"
}
cp "$T/passed.csv" "$T/odd.csv"
odd_run l SN-0041 1; rm "$F/status.json"; mkfifo "$F/status.json"
odd_run m SN-0042 2; printf '{"bootbench_status": 1, "exit_status": 0}\n' > "$T/elsewhere.json"
rm "$F/status.json"; ln -s "$T/elsewhere.json" "$F/status.json"
odd_run n SN-0043 3; rm "$F/status.json"; ln -s "$T/nowhere.json" "$F/status.json"
odd_run o SN-0044 4; printf '{"bootbench_status": 1, "exit_status": 0, "failed_targets": ["/dev/sda"]}\n' > "$F/status.json"
odd_run p SN-0045 5; printf '{"bootbench_status": 1, "exit_status": 0, "failed_targets": [], "hook_after_status": 1}\n' > "$F/status.json"
odd_run q SN-0046 6; printf '{"bootbench_status": 1, "exit_status": 1, "exit_status": 0, "failed_targets": []}\n' > "$F/status.json"
odd_run r SN-0047 7; printf '{"bootbench_status": false, "exit_status": 0, "failed_targets": []}\n' > "$F/status.json"
odd_run s SN-0048 8; rm "$F/status.json"; printf '{"verdict": "PASS", "components": []}\n' > "$F/burnin.json"
odd_run t SN-0049 9; rm "$F/status.json"
printf '{"bootbench_burnin": "1", "verdict": "PASS", "components": [{"name": "cpu", "verdict": "FAIL"}]}\n' > "$F/burnin.json"
timeout 20 "$BB" fleet --expect="$T/odd.csv" "$SHARE" > "$T/out" 2> "$T/err"
rc=$?
sed 's/^/    /' "$T/out" "$T/err"
check "a pipe for status.json is not waited on for ever" [ $rc != 124 ]
check "results that contradict themselves or are not files: exit 2" [ $rc = 2 ]
row U41 unreadable 'status.json: cannot read it: not a regular file'
row U42 unreadable 'status.json: cannot read it: a link'
row U43 unreadable 'status.json: cannot read it: a link'
row U44 unreadable 'exit_status 0 beside a failed target or hook'
row U45 unreadable 'exit_status 0 beside a failed target or hook'
row U46 unreadable 'status.json: not JSON.*duplicate'
row U47 unreadable "status.json: not bootbench.s"
row U48 unreadable "burnin.json: not bootbench.s"
row U49 unreadable 'burnin.json: verdict PASS beside a component that did not pass'

# a machine listed by its MAC: its heartbeat, named by its serial, is its own
machine u SN-0051 52:54:00:00:05:01; new_run u; status 0; save
new_run u
printf '{"bootbench_heartbeat": 1, "run": "%s", "what": "running", "macs": ["52:54:00:00:05:01"]}\n' "$(basename "$RUN")" \
	> "$SHARE/results/$(basename "$RUN").heartbeat.json"
{ cat "$T/passed.csv"; printf 'U51,,52:54:00:00:05:01\n'; } > "$T/bymac.csv"
fleet "$T/bymac.csv" "$SHARE"
check "listed by MAC, a newer run going: exit 3" [ $rc = 3 ]
row U51 running 'last heartbeat on the share'
check "... not also an unlisted machine" sh -c "! grep -q 'SN-0051' '$T/out' || grep 'SN-0051' '$T/out' | grep -q U51"
# its heartbeat alone (no run saved yet): found by the MACs it carries (the
# recorded machine's, read where the boot reads them)
machine v SN-0052 52:54:00:00:05:02; new_run v
BOOTBENCH_SYSROOT="$M/v" "$BB" save --heartbeat=5 --stick="$SHARE" usb "$RUN" > "$T/heartbeat.out" 2>&1 &
beating=$!
i=0; until [ -e "$SHARE/results/$(basename "$RUN").heartbeat.json" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
kill $beating; wait $beating
check "the heartbeat carries the machine's MACs" grep -q '"macs": \["52:54:00:00:05:02"\]' "$SHARE/results/$(basename "$RUN").heartbeat.json"
check "... and said nothing went wrong" [ ! -s "$T/heartbeat.out" ]
{ cat "$T/passed.csv"; printf 'U52,,52:54:00:00:05:02\n'; } > "$T/bymac2.csv"
fleet "$T/bymac2.csv" "$SHARE"
row U52 running 'last heartbeat on the share'
# a MAC two machines report (a NIC moved from one to another): which stands there cannot be told
printf '{"bootbench_heartbeat": 1, "run": "20261205T000000Z_SN-0053_aaaaaa", "what": "running", "macs": ["52:54:00:00:05:02"]}\n' \
	> "$SHARE/results/20261205T000000Z_SN-0053_aaaaaa.heartbeat.json"
fleet "$T/bymac2.csv" "$SHARE"
check "a MAC in two machines' reports: exit 2" [ $rc = 2 ]
row U52 unreadable 'in what two machines reported'
rm "$SHARE/results/20261205T000000Z_SN-0053_aaaaaa.heartbeat.json"
# a row that gives a serial is that serial's: another machine with its MAC is not it
{ cat "$T/passed.csv"; printf 'U54,SN-0054,52:54:00:00:05:02\n'; } > "$T/serialmac.csv"
fleet "$T/serialmac.csv" "$SHARE"
row U54 'never seen'
# the machine's clock wrong: a passed run named in the future beside a failed one is no pass
machine w SN-0071 52:54:00:00:07:01; new_run w; status 1; save
new_run w; status 0; save
mv "$SHARE/results/$(basename "$RUN")" "$SHARE/results/20300101T000000Z_SN-0071_${RUN##*_}"
# the newest by name passed, but a failed run reached the share 10 min after it: which is newer is not known
machine x SN-0072 52:54:00:00:07:02; new_run x; status 0; save
passed_dir=$SHARE/results/$(basename "$RUN")
touch -d '10 minutes ago' "$passed_dir/status.json"
new_run x; status 1; save
old=$(basename "$RUN")
mv "$SHARE/results/$old" "$SHARE/results/$(date -u -d '3 hours ago' +%Y%m%dT%H%M%SZ)_${old#*_}"
# a folder renamed by hand (no time in its name) that ended before the campaign
machine y SN-0073 52:54:00:00:07:03; new_run y; BB_RUN=quick $SH -c '. rootfs/lib/bootbench/results.sh; write_status "$1" 0 ""' - "$RUN"
sed -i 's/"ended": "[^"]*"/"ended": "2025-11-01T00:00:00Z"/' "$RUN/status.json"
mkdir -p "$SHARE/archive" && cp -r "$RUN" "$SHARE/archive/SN-0073-old"
{ cat "$T/passed.csv"; printf 'U71,SN-0071,\nU72,SN-0072,\nU73,SN-0073,\n'; } > "$T/clocks.csv"
fleet "$T/clocks.csv" "$SHARE"
check "clocks that cannot be trusted: exit 2" [ $rc = 2 ]
row U71 unreadable 'dated 2030-01-01 00:00:00 UTC, in the future'
row U72 unreadable 'reached the share later: which ran last cannot be told'
row U73 passed 'ended 2025-11-01'
fleet "$T/clocks.csv" --since=2026-01-01 "$SHARE"
row U73 'never seen'

# one machine listed twice, by serial and by MAC: the list's mistake, said, exit 2
{ cat "$T/passed.csv"; printf 'U61,SN-0051,\nU62,,52:54:00:00:05:01\n'; } > "$T/twice.csv"
fleet "$T/twice.csv" "$SHARE"
check "one machine on two lines: exit 2" [ $rc = 2 ]
check "... said with both lines" grep -q 'line [0-9]*: its MAC is the machine of line [0-9]*.*listed twice' "$T/err"
# a placeholder serial (firmware's, shared by many machines) can match no machine: a bad line
{ cat "$T/passed.csv"; printf 'U63,To Be Filled By O.E.M.,\n'; } > "$T/placeholder.csv"
fleet "$T/placeholder.csv" "$SHARE"
check "a placeholder serial listed: exit 2, the line named" sh -c "[ $rc = 2 ] && grep -q 'line [0-9]*: the serial .To Be Filled By O.E.M.. is firmware.s placeholder' '$T/err'"
# a serial column headed as asset lists head it is the serial column: its machine is checked (SN-0006 failed)
for h in "Service Tag" "S/N" "Serial No" "serial_number"; do
	printf 'Position,%s,MAC\nU02,SN-0002,\nU08,SN-0006,\n' "$h" > "$T/header.csv"
	fleet "$T/header.csv" "$SHARE"
	check "a serial column headed '$h': SN-0006 checked, failed, exit 1" sh -c "[ $rc = 1 ] && awk '\$2 == \"U08\"' '$T/out' | grep -q ' failed '"
done
# a header not understood: a row whose cells are filled but hold no serial or MAC is refused, never an empty position
printf 'Position,Asset Serial,MAC\nU02,SN-0002,\n' > "$T/header.csv"
refuses "a row with cells filled and no serial or MAC: bad input, the columns understood named" \
	"line 2: no serial or MAC, but other cells are filled: the columns understood are position ('Position'), mac ('MAC')" \
	"$BB" fleet --expect="$T/header.csv" "$SHARE"
# a NUL in a line (a newline lost in transfer): the rest of the line is not dropped unread
printf 'serial,position\nSN-0002,U1\000SN-0006,U2\n' > "$T/nul.csv"
refuses "a NUL byte in the list: bad input, its line named" "line 2: a NUL byte at character 11" \
	"$BB" fleet --expect="$T/nul.csv" "$SHARE"
# a placeholder serial beside a MAC ("N/A"): the row is the MAC's machine (SN-0006's NIC)
printf 'position,serial,mac\nU08,N/A,52:54:00:00:01:06\n' > "$T/na.csv"
fleet "$T/na.csv" "$SHARE"
check "a placeholder serial with a MAC: matched by the MAC (failed, exit 1), not never seen" \
	sh -c "[ $rc = 1 ] && awk '\$2 == \"U08\"' '$T/out' | grep -q ' failed '"
# a row with the serial and a MAC: SN-0002's runs come from a machine without that MAC (another board)
printf 'position,serial,mac\nU02,SN-0002,52:54:00:00:09:99\n' > "$T/mismatch.csv"
fleet "$T/mismatch.csv" "$SHARE"
check "the serial seen on a machine without the listed MAC: exit 2" [ $rc = 2 ]
row U02 unreadable 'serial SN-0002 was seen on a machine without MAC 52:54:00:00:09:99'
# a rerun whose clock was not set (CMOS reset, no NTP; clock.sh's "set": false) failed: named 2000, its
# files' times 2000 too (the stick copied with rsync -a); its pass of an hour ago is no pass, --since or not
machine z SN-0075 52:54:00:00:07:05; new_run z; status 0; save; aged 60
new_run z; status 1
python3 - "$RUN/status.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["clock"] = {"set": False, "why": "no NTP server answered"}
d["ended"] = "2000-01-01T01:00:00Z"
json.dump(d, open(sys.argv[1], "w"))
PY
save; old=$(basename "$RUN"); reset=$SHARE/results/20000101T000000Z_${old#*_}
mv "$SHARE/results/$old" "$reset"; touch -d '2000-01-01 01:00' "$reset"/* "$reset"
printf 'position,serial\nU75,SN-0075\n' > "$T/clock.csv"
fleet "$T/clock.csv" "$SHARE"
row U75 unreadable 'ran with its clock not set \(status.json\): which of its 2 runs is newest cannot be told'
fleet "$T/clock.csv" --since="$(date -u -d '1 day ago' +%Y-%m-%d)" "$SHARE"
check "... --since does not leave the run with no clock out: exit 2" [ $rc = 2 ]
row U75 unreadable 'ran with its clock not set'
# its burn-in failed an hour ago; a quick run (or an erase) since passed: the burn-in's verdict stands
machine zk SN-0076 52:54:00:00:07:06; new_run zk
BB_RUN=burnin $SH -c '. rootfs/lib/bootbench/results.sh; write_status "$1" 1 ""' - "$RUN"; save; aged 60
new_run zk; status 0; save
printf 'position,serial\nU76,SN-0076\n' > "$T/kinds.csv"
fleet "$T/kinds.csv" "$SHARE"
check "a newer run of another kind does not hide a failed burn-in: exit 1" [ $rc = 1 ]
row U76 failed 'its newest burnin run failed, saved in .*; its newer quick run passed'
# the share copied (cp -r: every mtime the copy's): its newer run's heartbeat (named now, the run died)
# copied a minute before its older pass: the names order them, never a pass over a run gone silent
machine zh SN-0077 52:54:00:00:07:07; new_run zh; status 0; save; aged 60
passed_dir=$SHARE/results/$(basename "$RUN")
new_run zh
printf '{"bootbench_heartbeat": 1, "run": "%s", "what": "burnin"}\n' "$(basename "$RUN")" \
	> "$SHARE/results/$(basename "$RUN").heartbeat.json"
touch -d '10 minutes ago' "$SHARE/results/$(basename "$RUN").heartbeat.json"
touch -d '9 minutes ago' "$passed_dir"/* "$passed_dir"
printf 'position,serial\nU77,SN-0077\n' > "$T/copied.csv"
fleet "$T/copied.csv" "$SHARE"
row U77 silent 'its last heartbeat on the share'
rm "$SHARE/results/$(basename "$RUN").heartbeat.json"

# what a second attack found passed (issue 46): a share of its own ($S2), each unreadable, named, exit 2
S2=$T/share2; mkdir -p "$S2"
save2() { "$BB" save --stick="$S2" --spool="$T/spool" usb "$RUN" > /dev/null 2>&1 || bad "saving $RUN"; }
aged2() { old=$(basename "$RUN"); mv "$S2/results/$old" "$S2/results/$(date -u -d "$1 minutes ago" +%Y%m%dT%H%M%SZ)_${old#*_}"; }
printf 'position,serial\n' > "$T/second.csv"
# a copy cut short: burnin.json (PASS) arrived, status.json (exit status 1) that the manifest lists did not
machine z1 SN-0081 52:54:00:00:08:01; new_run z1
printf '{"bootbench_burnin": "1", "verdict": "PASS", "components": [{"name": "cpu", "verdict": "PASS"}]}\n' > "$RUN/burnin.json"
status 1; save2; rm "$S2/results/$(basename "$RUN")/status.json"; echo 'U81,SN-0081' >> "$T/second.csv"
# its newest run (failed) a link to a folder elsewhere; its newest run (failed) 17 folders down the share
machine z2 SN-0082 52:54:00:00:08:02; new_run z2; status 0; save2; aged2 60
new_run z2; status 1; save2; mv "$S2/results/$(basename "$RUN")" "$T/elsewhere-run"
ln -s "$T/elsewhere-run" "$S2/results/$(basename "$RUN")"; linked=$(basename "$RUN"); echo 'U82,SN-0082' >> "$T/second.csv"
machine z3 SN-0083 52:54:00:00:08:03; new_run z3; status 0; save2; aged2 60
new_run z3; status 1; save2
deep=$S2; for i in $(seq 1 17); do deep=$deep/d$i; done; mkdir -p "$deep"; mv "$S2/results/$(basename "$RUN")" "$deep/"
echo 'U83,SN-0083' >> "$T/second.csv"
# a status.json of a terabyte (sparse: a share's damaged file): said, never read into memory
machine z4 SN-0084 52:54:00:00:08:04; new_run z4; status 0; save2
truncate -s 1T "$S2/results/$(basename "$RUN")/status.json"; echo 'U84,SN-0084' >> "$T/second.csv"
# a whole copy whose manifest is long (300 files: over 16 KiB) passed: every line of it read whole
machine z5 SN-0085 52:54:00:00:08:05; new_run z5; for i in $(seq 1 300); do echo "$i" > "$RUN/sample-$i.log"; done
status 0; save2; echo 'U85,SN-0085' >> "$T/second.csv"
timeout 60 "$BB" fleet --expect="$T/second.csv" "$S2" > "$T/out" 2> "$T/err"
rc=$?
sed 's/^/    /' "$T/out" "$T/err"
check "a partial copy, a linked run, a run too deep, a file of a terabyte: exit 2" [ $rc = 2 ]
row U81 unreadable 'incomplete copy: status.json missing'
row U82 unreadable 'the folder cannot be read: a link'
check "... the link named on stderr" grep -q "$linked: cannot read it: a link" "$T/err"
check "... the folder too deep named on stderr" grep -q '/d17: cannot read it: deeper than 16 folders' "$T/err"
row U84 unreadable 'status.json: cannot read it: 1048576 MiB, larger than any result'
row U85 passed
check "... its manifest over 16 KiB" [ "$(stat -c %s "$S2/results/$(basename "$RUN")/MANIFEST.sha256")" -gt 16384 ]
# what a third attack found passed (46b), on a share of its own ($S3), folders written as save writes them
S3=$T/share3; mkdir -p "$S3/results"
ts() { date -u -d "$1" +%Y%m%dT%H%M%SZ; }
iso() { date -u -d "$1" +%Y-%m-%dT%H:%M:%SZ; }
run3() { # NAME SERIAL MAC EXIT ENDED-ISO: a run folder in $D, its inventory and status.json
	D=$S3/results/$1; mkdir -p "$D"
	printf '{"format":1,"machine":"%s","system":{"serial":"%s"},"nics":[{"name":"eno1","mac":"%s"}]}\n' "$2" "$2" "$3" \
		> "$D/inventory.json"
	printf '{"bootbench_status": 1, "run": "quick", "exit_status": %s, "failed_targets": [], "ended": "%s"}\n' "$4" "$5" \
		> "$D/status.json"
}
manifest3() { (cd "$D" && sha256sum $(ls | grep -v MANIFEST) > MANIFEST.sha256); }
lost() { printf 'bootbench: [40.2] unattended run finished, exit status 1\n' > "$D/console.log"; echo '{}' > "$D/disks.json"; }
printf 'position,serial\n' > "$T/third.csv"
for n in 91 92 93; do  # each an older pass two days ago
	run3 "$(ts '2 days ago')_SN-00${n}_aaaaaa" SN-00$n 52:54:00:00:09:$n 0 "$(iso '2 days ago')"; manifest3
	echo "U$n,SN-00$n" >> "$T/third.csv"
done
# the hour-ago names taken once: a second that ticked between two $(ts) made two
# folders of one run (U98), and two seconds of "one second's two runs" (U94, U95)
H=$(ts '1 hour ago')
# newer: a copy cut after disks.json (rsync's name order): its manifest lists inventory.json and status.json
run3 "${H}_SN-0091_bbbbbb" SN-0091 52:54:00:00:09:91 1 "$(iso '50 min ago')"; lost; manifest3
rm "$D/inventory.json" "$D/status.json"
# newer: status.json a pipe, burnin.json a folder, no inventory.json
D=$S3/results/${H}_SN-0092_bbbbbb; mkdir -p "$D/burnin.json"; mkfifo "$D/status.json"; lost
# newer: an older image's run, its console log (exit status 1) and disks.json alone
D=$S3/results/${H}_SN-0093_bbbbbb; mkdir -p "$D"; lost
# two runs begun and ended in the same second, one FAILED: the random run id (000... or fff...) orders nothing
# (their end taken once: a second that ticked between two $(iso) ended the passed run a second later,
# and the fleet rightly called it the newer, passed: make check, 2026-12-06)
E=$(iso '50 min ago')
for n in 94 95; do
	[ $n = 94 ] && f=000aaa p=fffbbb || f=fffbbb p=000aaa
	run3 "${H}_SN-00${n}_$f" SN-00$n 52:54:00:00:09:$n 1 "$E"
	run3 "${H}_SN-00${n}_$p" SN-00$n 52:54:00:00:09:$n 0 "$E"
	echo "U$n,SN-00$n" >> "$T/third.csv"
done
# two boards with one serial (a cloned FRU), no NIC in common, their runs at the same time: one FAILED
run3 "$(ts '3 hours ago')_SN-0096_aaaaaa" SN-0096 52:54:00:00:09:0a 1 "$(iso '70 min ago')"
run3 "$(ts '170 min ago')_SN-0096_bbbbbb" SN-0096 52:54:00:00:09:0b 0 "$(iso '60 min ago')"
echo "U96,SN-0096" >> "$T/third.csv"
# a pass is status.json's word alone (no manifest to say a copy was cut): a burn-in's PASS without it, and an
# older image's console log saying exit status 0 without it, each newer than a failed run: neither passed
for n in 98 99; do
	run3 "$(ts '2 days ago')_SN-00${n}_aaaaaa" SN-00$n 52:54:00:00:09:$n 1 "$(iso '2 days ago')"
	D=$S3/results/${H}_SN-00${n}_bbbbbb; mkdir -p "$D"
	printf '{"format":1,"machine":"SN-00%s","system":{"serial":"SN-00%s"}}\n' $n $n > "$D/inventory.json"
	echo "U$n,SN-00$n" >> "$T/third.csv"
done
D=$S3/results/${H}_SN-0098_bbbbbb
printf '{"bootbench_burnin": "1", "verdict": "PASS", "components": [{"name": "cpu", "verdict": "PASS"}]}\n' > "$D/burnin.json"
D=$S3/results/${H}_SN-0099_bbbbbb
printf 'bootbench: [40.2] unattended run finished, exit status 0\n' > "$D/console.log"
fleet "$T/third.csv" "$S3"
check "a cut copy, a pipe, a log alone, one second's two runs, two boards, passes without status.json: none passed, exit 2" [ $rc = 2 ]
row U91 unreadable 'incomplete copy: inventory.json missing'
row U92 unreadable 'status.json: cannot read it: not a regular file'
row U93 failed 'exit status 1 \(console.log\)'
row U94 unreadable 'in the same second as this run, one passed and one not'
row U95 unreadable 'in the same second as this run, one passed and one not'
row U96 unreadable 'ran at the same time on boards with no NIC in common'
row U98 unreadable 'no status.json: burnin.json says PASS, but the run.s own verdict is missing'
row U99 unreadable 'no status.json: console.log says exit status 0, but the run.s own verdict is missing'
# this campaign's pass (arrived 110 min ago), then a rerun FAILED that its clock (reset) dated 2000, arrived now:
# --since leaves the rerun out by its name, but not its arrival
run3 "$(ts '2 hours ago')_SN-0097_aaaaaa" SN-0097 52:54:00:00:09:97 0 "$(iso '110 min ago')"; touch -d '110 min ago' "$D"/*
run3 "20000101T000512Z_SN-0097_bbbbbb" SN-0097 52:54:00:00:09:97 1 "2000-01-01T00:20:00Z"
printf 'position,serial\nU97,SN-0097\n' > "$T/since.csv"
fleet "$T/since.csv" --since="$(date -u -d '1 day ago' +%Y-%m-%d)" "$S3"
check "--since does not hide a failed rerun that reached the share later: exit 2" [ $rc = 2 ]
row U97 unreadable 'SN-0097_bbbbbb \(not passed\) reached the share later'
# out of memory (a list of 20,000 under a 30 MB limit) says nothing of the machines: never exit 1 ("one failed")
{ echo serial; seq -f 'SN-%06g' 1 20000; } > "$T/big.csv"
(ulimit -v 30000; "$BB" fleet --expect="$T/big.csv" "$S2" > /dev/null 2> "$T/err"); rc=$?
check "out of memory: exit 2, said (got $rc)" sh -c "[ $rc = 2 ] && grep -q 'out of memory' '$T/err'"
finish
