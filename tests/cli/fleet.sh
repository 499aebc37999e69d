# SPDX-License-Identifier: MIT
# bootbench fleet over a share of real saved runs (issue 33): twelve
# machines listed in a rack's CSV, their runs made here by the programs a
# booted machine uses (bootbench inventory, burnin and run over recorded
# machines, results.sh's status.json, bootbench save to the share):
#   passed: a burn-in, a run, one listed by MAC only, one with no serial of
#   its own (bootbench's name mac-...), one whose newer run passed after a
#   failed one; failed: one saved by an older image (no status.json, its
#   console log's exit status 1: a log shows a failure, never a pass, which
#   is status.json's alone: fleet_share.sh), a burn-in's bmc ERROR, a run whose target
#   failed, a run cancelled by wrong boot parameters, a run whose push said
#   pass and whose saved result says exit status 1 (the share wins, issue
#   46); running: one listed as "sn 0015/b", which names itself SN_0015_B
#   (issue 46); never seen: three.
# And one that reported without being listed. Each is named with its state
# and what failed; the page says the same; exit 1 (not all passed), 0 for
# a list of the passed ones only. Bad CSV lines are each named with their
# line number, exit 2, nothing written. The live states (running, silent)
# are tests/boot/rack_alerts.sh's, with real guests and Prometheus.
# A second attack's (issue 46), with the share: a FAIL pushed while the
# burn-in goes on is failed; a run whose heartbeat stopped and whose
# result never arrived is silent whatever its pushes said; one run FAIL in
# Prometheus and PASS on the share is unreadable; an erase mid-way is
# running; pushes the gateway took after a pass reached the share are a
# newer run's, however the machine's reset clock named it (--since
# too), and a pushed pass over a saved failure that only arrival orders is
# unreadable; a pushed pass does not hide a failed burn-in; a burn-in
# component pushes while it runs. A third attack's (46b): a run whose
# machine's clock ran 8 h ahead does not supersede a later run's FAIL
# (the gateway's clock orders runs).
. tests/lib.sh
. tests/servers.sh
need_commands python3 prometheus prometheus-pushgateway curl
M=$T/machines SHARE=$T/share
mkdir -p "$T/runs" "$SHARE"
SH=sh
[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"

# machine NAME SERIAL MAC: a recorded machine (DMI serial, one wired NIC) in $M/NAME
machine() {
	R=$M/$1
	mkdir -p "$R/sys/class/dmi/id" "$R/sys/class/net/eno1/device" "$R/proc" "$R/dev"
	printf '%s\n' "$2" > "$R/sys/class/dmi/id/product_serial"
	echo "$3" > "$R/sys/class/net/eno1/address"
	echo up > "$R/sys/class/net/eno1/operstate"
	grep -m8 . /proc/cpuinfo > "$R/proc/cpuinfo"
	printf 'MemTotal:        1048576 kB\nMemFree:          600000 kB\nMemAvailable:     524288 kB\n' > "$R/proc/meminfo"
	: > "$R/dev/kmsg"
}
# new_run NAME: a run folder of machine NAME, named as the boot names it, in $RUN
new_run() {
	RUN=$T/runs/$(ROOT="$M/$1" BOOTBENCH="$BB" $SH -c '. rootfs/lib/bootbench/results.sh; run_folder_name')
	mkdir -p "$RUN"
	BOOTBENCH_SYSROOT="$M/$1" "$BB" inventory --output="$RUN" > /dev/null
}
# finish_run NAME STATUS [FAILED-TARGETS] [RUN-NAME]: status.json as the boot writes it, then saved to the share
finish_run() {
	BB_RUN=${4:-quick} $SH -c '. rootfs/lib/bootbench/results.sh; write_status "$1" "$2" "$3"' - "$RUN" "$2" "${3:-}"
	"$BB" save --stick="$SHARE" --spool="$T/spool" usb "$RUN" > /dev/null 2>&1 || bad "saving $RUN"
}
burn() { # NAME COMPONENTS: a real burn-in over the recorded machine, 1 s a component
	BOOTBENCH_SYSROOT="$M/$1" BOOTBENCH_SCALE=0.1 "$BB" burnin --components="$2" --duration=10s \
		--limits=cpu_need_sensors=0 --output="$RUN" > /dev/null 2>&1
}
run_ok() { "$BB" run --name=r --filename="$T/data" --rw=randread --bs=4k --size=4m --runtime=1 --time_based \
	--output-format=json+ --output="$RUN/data.json" > /dev/null 2>&1; }
head -c 4M /dev/zero > "$T/data"
# live: Debian's Pushgateway and Prometheus on loopback; one machine's run
# is killed -9 once Prometheus has seen it (silent), another's goes on
# while fleet asks (running)
start_pushgateway || { bad "the Pushgateway starts"; finish; }
start_prometheus || { bad "Prometheus starts"; finish; }
live_run() { # NAME: a run of machine NAME pushing to the Pushgateway, in the background
	BOOTBENCH_SYSROOT="$M/$1" "$BB" run --name=live --filename="$T/data-$1" --rw=randread --bs=4k --size=4m \
		--runtime=120 --time_based --rate_iops=100 --metrics="http://127.0.0.1:$PUSH_PORT" > /dev/null 2>&1 &
}
seen_running() { # SERIAL
	i=0
	until prom_query "bootbench_state{machine=\"$1\",state=\"running\"} == 1" | grep -q "\"$1\"" || [ $i -ge 100 ]; do
		sleep 0.2; i=$((i + 1))
	done
	[ $i -lt 100 ]
}
machine l SN-0012 52:54:00:00:00:12; live_run l
killed=$!
check "SN-0012's run is seen running in Prometheus" seen_running SN-0012
kill -KILL $killed
killed_at=$(date +%s)
machine g SN-0007 52:54:00:00:00:07; live_run g
going=$!
check "SN-0007's run is seen running in Prometheus" seen_running SN-0007

machine a SN-0001 52:54:00:00:00:01; new_run a; burn a cpu; finish_run a $? "" burnin
machine b SN-0002 52:54:00:00:00:02; new_run b; run_ok; finish_run b $?
machine c SN-0003 52:54:00:00:00:03; new_run c; burn c cpu,bmc; finish_run c $? "" burnin
machine d SN-0004 52:54:00:00:00:04; new_run d; finish_run d 2
machine e SERIAL-E 52:54:00:00:00:05; new_run e; run_ok; finish_run e $?
machine f "To Be Filled By O.E.M." 52:54:00:00:00:06; new_run f; run_ok; finish_run f $?
machine h SN-0008 52:54:00:00:00:08; new_run h; finish_run h 1 /dev/nvme1n1
# that failed run was an hour before the one that passed
old=$(basename "$RUN")
mv "$SHARE/results/$old" "$SHARE/results/$(date -u -d '1 hour ago' +%Y%m%dT%H%M%SZ)_${old#*_}"
new_run h; run_ok; finish_run h $?
# an older image's run: no status.json, its console log says how it ended (1: failed)
machine i SN-0010 52:54:00:00:00:10; new_run i; run_ok
printf 'bootbench: [40.1] run: quick on /dev/sda: exit status 1\nbootbench: [40.2] unattended run finished, exit status 1\n' > "$RUN/console.log"
"$BB" save --stick="$SHARE" --spool="$T/spool" usb "$RUN" > /dev/null 2>&1
# a run whose target failed: a file cut short under it (exit 1)
machine k SN-0011 52:54:00:00:00:11; new_run k
head -c 64M /dev/zero > "$T/short"
"$BB" run --name=s --filename="$T/short" --rw=read --bs=64k --time_based --runtime=20 --output-format=json+ \
	--output="$RUN/short.json" > /dev/null 2>&1 &
sleep 1; truncate -s 1M "$T/short"; wait $!
finish_run k $? /dev/sdb
machine u SN-9999 52:54:00:00:00:99; new_run u; run_ok; finish_run u $?
# issue 46: a run that pushed its end (pass) and then failed (exit status 1,
# its after-hook, say), saved an hour after it started: the share's result
# wins over the push
machine m SN-0014 52:54:00:00:00:14; new_run m
old=$(basename "$RUN")
aged=$T/runs/$(date -u -d '1 hour ago' +%Y%m%dT%H%M%SZ)_${old#*_}
mv "$RUN" "$aged"
RUN=$aged
# its pushes carry its identity, as the boot's do (BOOTBENCH_RUN_ID: the folder's name)
BOOTBENCH_RUN_ID=$(basename "$RUN") BOOTBENCH_SYSROOT="$M/m" "$BB" run --name=done --filename="$T/data-m" --rw=randread --bs=4k --size=4m --runtime=1 \
	--time_based --metrics="http://127.0.0.1:$PUSH_PORT" > /dev/null 2>&1 || bad "SN-0014's run"
seen_passed() { # SERIAL
	i=0
	until prom_query "bootbench_state{machine=\"$1\",state=\"pass\"} == 1" | grep -q "\"$1\"" || [ $i -ge 100 ]; do
		sleep 0.2; i=$((i + 1))
	done
	[ $i -lt 100 ]
}
check "SN-0014's ended run is seen in Prometheus" seen_passed SN-0014
finish_run m 1
# issue 46: a serial with a blank and a / (its label ABC_123_4), listed as a person types it, running
machine n "SN 0015/B" 52:54:00:00:00:15; live_run n
going2=$!
check "SN 0015/B's run is seen running in Prometheus" seen_running SN_0015_B

cat > "$T/rack.csv" <<CSV
Position,Serial,MAC,Asset tag
R01-U01,SN-0001,,A-1
R01-U02,sn-0002,,A-2
R01-U03,SN-0003,,A-3
R01-U04,SN-0004,,A-4
R01-U05,,52-54-00-00-00-05,A-5
R01-U06,,525400000006,A-6
R01-U07,SN-0007,,A-7
R01-U08,SN-0008,,A-8
# rack 2
R02-U01,SN-0010,,B-1
R02-U02,SN-0011,,B-2
R02-U03,SN-0012,,B-3
"R02-U04, upper shelf of the spares cage",SN-0013,52:54:00:00:00:13,"B-4, ""spare"""
R02-U05,SN-0014,,B-5
R02-U06,sn 0015/b,,B-6
CSV
# silent: no push from SN-0012 for more than 10 s
while [ $(($(date +%s) - killed_at)) -le 11 ]; do sleep 0.5; done
"$BB" fleet --expect="$T/rack.csv" --prometheus="http://127.0.0.1:$PROM_PORT" --silent-after=10 \
	--output="$T/fleet.html" "$SHARE" > "$T/fleet.txt" 2> "$T/fleet.err"
rc=$?
# the same at 80 columns, checked below: while the runs still push (killed, their
# machines' words changed between the two: "running, 40%" then "last push ...")
COLUMNS=80 "$BB" fleet --expect="$T/rack.csv" --prometheus="http://127.0.0.1:$PROM_PORT" --silent-after=10 \
	"$SHARE" > "$T/fleet80.txt" 2>/dev/null
kill $going $going2
sed 's/^/    /' "$T/fleet.txt" "$T/fleet.err"
check "not every machine passed: exit 1" [ $rc = 1 ]
check "nothing said on stderr" [ ! -s "$T/fleet.err" ]
# on a console of 80 columns (issue 48): no line past 80, no word cut or lost (the same
# words as the unfolded list above, its figures aside: a second ticked between the two,
# a figure may have gained a digit), each machine's detail folded on the lines under its
# row, indented, never at column 1
sed -E 's/[0-9]+/0/g' "$T/fleet.txt" > "$T/fleet.words"
check "fleet at 80 columns: every line fits, no word cut or lost" \
	sh -c "sed -E 's/[0-9]+/0/g' '$T/fleet80.txt' | python3 tests/screen_fits.py --text --unfolded '$T/fleet.words'"
# (R02-U04's position, 39 characters, folds its row too: under its line number)
check "... each machine's detail on the lines under its row, indented" awk '
	NR == 1 || /^$/ || /^reported, but not on the list:$/ || /^[0-9]+ listed: / { next }
	/^([0-9]+|-) +[^ ]/ { row = 1; next }
	/^       [^ ]/ && row { next }
	{ print "not a row, nor its detail under it: " $0; bad = 1 } END { exit bad }' "$T/fleet80.txt"
check "... a row that fits stays in its columns: each row's position under the header's" python3 - "$T/fleet80.txt" <<'PY'
import re, sys
rows = open(sys.argv[1]).read().split("\n")
col = rows[0].index("position")
listed = [r for r in rows[1:] if re.match(r"\d+ +R0[12]-U0[1-8] ", r)]
print(*listed[:3], sep="\n")
sys.exit(0 if len(listed) >= 10 and all(r.index("R0") == col for r in listed) else 1)
PY
# state POSITION STATE [DETAIL-REGEX]
state() {
	awk -v p="$1" '$2 == p' "$T/fleet.txt" > "$T/row"
	check "$1: $2${3:+ ($3)}" sh -c "grep -q ' $2 ' '$T/row' && grep -Eq -- '${3:-.}' '$T/row'"
}
state R01-U01 passed 'burnin ended'
state R01-U02 passed 'quick ended'
state R01-U03 failed 'failed +bmc ERROR; burnin ended'
state R01-U01 passed '^2 +R01-U01 +SN-0001 +passed +burnin ended'
state R01-U04 failed 'cancelled before it ran'
state R01-U05 passed
state R01-U06 passed
state R01-U07 running '[0-9]+% done, about [0-9]+ min left; last push [0-9]+ s ago'
state R01-U08 passed 'the newest of 2 runs'
state R02-U01 failed 'exit status 1 \(console.log\)'
state R02-U02 failed 'failed +failed on /dev/sdb; quick ended'
state R02-U03 silent 'silent since [0-9-]+ [0-9:]+ UTC \([0-9]+ s\); it was at [0-9]+% done'
check "a quoted position with a comma, listed by serial and MAC: never seen" grep -q '^14 *R02-U04, upper shelf of the spares cage SN-0013 *never seen' "$T/fleet.txt"
check "the machine that reported unlisted is named" grep -q '^- .*SN-9999 *unlisted' "$T/fleet.txt"
state R02-U05 failed 'exit status 1; quick ended'
state R02-U06 running 'last push [0-9]+ s ago'
check "the count: 14 listed, 5 passed, 5 failed, 2 running, 1 silent, 1 never seen, 1 unlisted" \
	grep -qx '14 listed: 5 passed, 5 failed, 2 running, 1 silent, 1 never seen, 0 unreadable; 1 reported but not listed' "$T/fleet.txt"
check "the page names each machine with its state" python3 -c "
import html.parser, sys
class P(html.parser.HTMLParser):
    rows, row, cell = [], None, None
    def handle_starttag(self, t, a):
        if t == 'tr': self.row = []
        if t in ('td', 'th'): self.cell = ''
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
    def handle_endtag(self, t):
        if t in ('td', 'th'): self.row.append(self.cell); self.cell = None
        if t == 'tr': self.rows.append(self.row)
p = P(); p.feed(open('$T/fleet.html').read())
got = {r[1]: r[3] for r in p.rows if len(r) == 5 and r[0] != 'line'}
want = {'R01-U01': 'passed', 'R01-U03': 'failed', 'R01-U07': 'running', 'R02-U03': 'silent', 'R02-U04, upper shelf of the spares cage': 'never seen',
        '': 'unlisted'}
sys.exit(any(got.get(k) != v for k, v in want.items()) or len(got) != 15)"

# a list of the machines that passed: exit 0
grep -E '^(Position|R01-U0[1256]|R01-U08),' "$T/rack.csv" > "$T/passed.csv"
"$BB" fleet --expect="$T/passed.csv" "$SHARE" > "$T/passed.txt" 2>&1
check "a list whose machines all passed: exit 0" [ $? = 0 ]
check "... the other machines on the share named as unlisted" sh -c "[ \$(grep -c ' unlisted ' '$T/passed.txt') = 6 ]"

# bad lines: each named with its number, exit 2, no page written
cat > "$T/bad.csv" <<CSV
serial,mac,position
SN-1,aa:bb:cc:dd:ee:ff,U1
SN-2,not-a-mac,U2
,,U3
SN-1,,U4
SN-5,11:22:33:44:55:66
"SN-6,,U6
SN-7,aa-bb-cc-dd-ee-ff,U7
CSV
printf 'SN-8\001,,U8\n' >> "$T/bad.csv"
"$BB" fleet --expect="$T/bad.csv" --output="$T/bad.html" "$SHARE" > "$T/bad.out" 2> "$T/bad.err"
rc=$?
sed 's/^/    /' "$T/bad.err"
check "bad CSV lines: exit 2, nothing printed, no page" sh -c "[ $rc = 2 ] && [ ! -s '$T/bad.out' ] && [ ! -e '$T/bad.html' ]"
for l in "line 3: 'not-a-mac' is not a MAC address" "line 5: serial SN-1 is on line 2 too" \
	"line 6: 2 field(s), the header has 3" "line 7: a quote is not closed" "line 8: MAC aa:bb:cc:dd:ee:ff is on line 2 too" \
	"line 9: the serial 'SN-8?' is not printable ASCII"; do
	check "named: $l" grep -qF "$l" "$T/bad.err"
done
check "... and no good line named, nor an empty position (line 4: ,,U3)" sh -c "! grep -Eq 'line (2|4):' '$T/bad.err'"
printf 'position,name\nU1,x\n' > "$T/nocol.csv"
refuses "a header with no serial or mac column" "line 1: the header names no serial or mac column" \
	"$BB" fleet --expect="$T/nocol.csv" "$SHARE"
refuses "no --expect" "--expect=RACK.CSV is needed" "$BB" fleet "$SHARE"
refuses "a Prometheus URL with a password" "without a user or password" \
	"$BB" fleet --expect="$T/rack.csv" --prometheus=http://admin:secret@10.0.0.1:9090
check "... and that password is not shown" sh -c \
	"! '$BB' fleet --expect='$T/rack.csv' --prometheus=http://admin:secret@10.0.0.1:9090 2>&1 | grep -q secret"
refuses "a share that is not there" "$T/none" "$BB" fleet --expect="$T/rack.csv" "$T/none"

# what a second attack found (issue 46), the share and Prometheus together; pushes made as
# bootbench's are (its run label on each sample, the run's start and this push's time)
push() { # MACHINE[/disk/DISK] RUN START BODY (each series a gauge, as bootbench types them)
	printf '%s\nbootbench_run_start_timestamp_seconds{run="%s"} %s\nbootbench_last_push_timestamp_seconds{run="%s"} %s\n' \
		"$4" "$2" "$3" "$2" "$(date +%s)" | awk -F'{' '!seen[$1]++ { print "# TYPE " $1 " gauge" } { print }' |
		curl -s --data-binary @- "http://127.0.0.1:$PUSH_PORT/metrics/job/bootbench/machine/$1"
}
seen() { # PROMQL: Prometheus has a sample of it
	i=0; until prom_query "$1" | grep -q '"value"' || [ $i -ge 100 ]; do sleep 0.2; i=$((i + 1)); done; [ $i -lt 100 ]
}
ago() { date -u -d "$1 ago" +%Y%m%dT%H%M%SZ; }
# a burn-in whose cpu FAILED while its memory component goes on: failed now (a FAIL is final), never "running"
R=$(ago '20 min')_SN-0031_aaaaaa
push SN-0031 "$R" "$(date -d '20 min ago' +%s)" "bootbench_burnin_verdict{component=\"cpu\",run=\"$R\"} 0
bootbench_burnin_running{component=\"cpu\",run=\"$R\"} 0
bootbench_burnin_running{component=\"memory\",run=\"$R\"} 1"
# a run whose heartbeat on the share stopped 10 min ago and whose result never arrived; its last push said
# every component passed: silent, whatever the pushes say (its save failed, or the machine died saving)
R=$(ago '40 min')_SN-0032_bbbbbb
printf '{"what": "burnin"}\n' > "$SHARE/results/$R.heartbeat.json"; touch -d '10 min ago' "$SHARE/results/$R.heartbeat.json"
push SN-0032 "$R" "$(date -d '40 min ago' +%s)" "bootbench_burnin_verdict{component=\"cpu\",run=\"$R\"} 1
bootbench_burnin_running{component=\"cpu\",run=\"$R\"} 0"
# one run, its pushes FAIL and its copy on the share PASS: which to believe cannot be told
machine o SN-0033 52:54:00:00:00:33; new_run o; finish_run o 0
push SN-0033 "$(basename "$RUN")" "$(date -d '10 min ago' +%s)" "bootbench_burnin_verdict{component=\"cpu\",run=\"$(basename "$RUN")\"} 0
bootbench_burnin_running{component=\"cpu\",run=\"$(basename "$RUN")\"} 0"
# an erase of two disks, one proven erased, the other mid-way (an older image's pushes: its phase, no running
# gauge): running, never the pass of the disk done
R=$(ago '30 min')_SN-0034_erase-cccccc
push SN-0034/disk/DISK-A "$R" "$(date -d '30 min ago' +%s)" "bootbench_erase_progress_ratio{phase=\"done\",run=\"$R\"} 1
bootbench_erase_erased{run=\"$R\"} 1"
push SN-0034/disk/DISK-B "$R" "$(date -d '30 min ago' +%s)" "bootbench_erase_progress_ratio{phase=\"overwrite\",run=\"$R\"} 0.4
bootbench_erase_time_left_seconds{run=\"$R\"} 5400"
# its pass saved 2 h ago; rerun since with its clock reset to 2000 (no NTP), that rerun FAILED, pushing now:
# the gateway took its pushes after the pass reached the share, whatever the machine's clock named it
machine q SN-0035 52:54:00:00:00:35; new_run q; finish_run q 0
touch -d '2 hours ago' "$SHARE/results/$(basename "$RUN")"/*
R=20000101T000000Z_SN-0035_dddddd
push SN-0035 "$R" 946684800 "bootbench_burnin_verdict{component=\"cpu\",run=\"$R\"} 0
bootbench_burnin_running{component=\"cpu\",run=\"$R\"} 0"
# the reverse: its failed run saved from a stick with the machine's mtimes (rsync -a: 2 h ago by them),
# an older run's pass (begun 3 h ago) the gateway took since: which is newer cannot be told, never passed
machine s SN-0038 52:54:00:00:00:38; new_run s; finish_run s 1
old=$(basename "$RUN"); mv "$SHARE/results/$old" "$SHARE/results/$(ago '1 hour')_${old#*_}"
touch -d '2 hours ago' "$SHARE/results/$(ago '1 hour')_${old#*_}"/*
R=$(ago '3 hours')_SN-0038_eeeeee
push SN-0038 "$R" "$(date -d '3 hours ago' +%s)" "bootbench_burnin_verdict{component=\"cpu\",run=\"$R\"} 1
bootbench_burnin_running{component=\"cpu\",run=\"$R\"} 0"
# its burn-in failed (saved an hour ago); an erase since, proven, pushed: the burn-in's FAIL stands
machine t SN-0039 52:54:00:00:00:39; new_run t; finish_run t 1 "" burnin
old=$(basename "$RUN"); mv "$SHARE/results/$old" "$SHARE/results/$(ago '1 hour')_${old#*_}"
touch -d '1 hour ago' "$SHARE/results/$(ago '1 hour')_${old#*_}"/*
R=$(ago '10 min')_SN-0039_erase-ffffff
push SN-0039/disk/DISK-A "$R" "$(date -d '10 min ago' +%s)" "bootbench_erase_progress_ratio{phase=\"done\",run=\"$R\"} 1
bootbench_erase_running{run=\"$R\"} 0
bootbench_erase_erased{run=\"$R\"} 1"
for q in 'bootbench_erase_erased{machine="SN-0039"}' 'bootbench_burnin_verdict{machine="SN-0038"}' 'bootbench_burnin_running{machine="SN-0031"}' 'bootbench_burnin_verdict{machine="SN-0032"}' \
	'bootbench_burnin_verdict{machine="SN-0033"}' 'bootbench_erase_progress_ratio{machine="SN-0034",disk="DISK-B"}' \
	'bootbench_burnin_verdict{machine="SN-0035"}'; do
	seen "$q" || bad "Prometheus has $q"
done
printf 'position,serial\nU31,SN-0031\nU32,SN-0032\nU33,SN-0033\nU34,SN-0034\nU35,SN-0035\nU38,SN-0038\nU39,SN-0039\n' > "$T/second.csv"
"$BB" fleet --expect="$T/second.csv" --prometheus="http://127.0.0.1:$PROM_PORT" --silent-after=120 "$SHARE" \
	> "$T/fleet.txt" 2> "$T/fleet.err"
rc=$?
sed 's/^/    /' "$T/fleet.txt" "$T/fleet.err"
check "none passed: exit 2 (one unreadable)" [ $rc = 2 ]
state U31 failed 'cpu FAIL; pushed while its run went on \(a FAIL is final\); burn-in: memory; last push'
state U32 silent 'its last heartbeat on the share'
state U33 unreadable 'passed on the share, but its pushes to Prometheus said cpu FAIL: they contradict'
state U34 running 'erase: about 90 min left'
state U35 failed 'cpu FAIL'
state U39 failed 'its newest burnin run on the share failed, saved in .*; a newer run passed \(Prometheus'
state U38 unreadable 'reached the gateway after .* \(not passed\) reached the share, but began before it'
"$BB" fleet --expect="$T/second.csv" --prometheus="http://127.0.0.1:$PROM_PORT" --silent-after=120 \
	--since="$(date -u -d '1 day ago' +%Y-%m-%d)" "$SHARE" > "$T/fleet.txt" 2> "$T/fleet.err"
state U35 failed 'cpu FAIL'
# a third attack's (46b): its run R1 pushed with the RTC 8 h ahead (kept in local time, no NTP), passed on
# disk S0, its groups left on the gateway; R2, its clock set, FAILED on disk S1: the machine's clock dates
# R1 after R2, but only the gateway's clock orders runs, and R2's FAIL is never hidden (not passed)
now=$(date +%s); R=$(ago '30 min')_SN-0040_gggggg
printf 'bootbench_state{run="R1",state="pass"} 1\nbootbench_state{run="R1",state="running"} 0
bootbench_run_start_timestamp_seconds{run="R1"} %s\nbootbench_last_push_timestamp_seconds{run="R1"} %s\n' \
	$((now - 1800 + 28800)) $((now - 1200 + 28800)) | awk -F'{' '!seen[$1]++ { print "# TYPE " $1 " gauge" } { print }' |
	curl -s --data-binary @- "http://127.0.0.1:$PUSH_PORT/metrics/job/bootbench/machine/SN-0040/disk/S0"
printf 'bootbench_state{run="%s",state="fail"} 1\nbootbench_state{run="%s",state="running"} 0
bootbench_run_start_timestamp_seconds{run="%s"} %s\nbootbench_last_push_timestamp_seconds{run="%s"} %s\n' \
	"$R" "$R" "$R" $((now - 600)) "$R" "$now" | awk -F'{' '!seen[$1]++ { print "# TYPE " $1 " gauge" } { print }' |
	curl -s --data-binary @- "http://127.0.0.1:$PUSH_PORT/metrics/job/bootbench/machine/SN-0040/disk/S1"
seen 'bootbench_state{machine="SN-0040",disk="S1",state="fail"}' || bad "Prometheus has SN-0040's FAIL"
seen 'bootbench_state{machine="SN-0040",disk="S0",state="pass"}' || bad "Prometheus has SN-0040's pass"
printf 'position,serial\nU40,SN-0040\n' > "$T/future.csv"
"$BB" fleet --expect="$T/future.csv" --prometheus="http://127.0.0.1:$PROM_PORT" > "$T/fleet.txt" 2> "$T/fleet.err"
rc=$?
sed 's/^/    /' "$T/fleet.txt" "$T/fleet.err"
check "a run dated 8 h ahead does not supersede a later run's FAIL: exit 1 or 2 (got $rc)" sh -c "[ $rc = 1 ] || [ $rc = 2 ]"
check "U40: failed (disk S1 FAIL) or unreadable (two runs current), never passed" sh -c \
	"awk '\$2 == \"U40\"' '$T/fleet.txt' | grep -Eq ' failed .*disk S1 FAIL| unreadable .*two runs of it current'"
# a burn-in's long component (memory, held before its first pattern: no CPU burnt) pushes while it runs
machine r SN-0036 52:54:00:00:00:36; mkdir -p "$T/burn36"
BOOTBENCH_SYSROOT="$M/r" BOOTBENCH_BURNIN_HOLD=memory BOOTBENCH_METRICS="http://127.0.0.1:$PUSH_PORT" \
	"$BB" burnin --components=memory --duration=60s --output="$T/burn36" > "$T/burn36.log" 2>&1 &
burning=$!
pushed_at() { curl -s "http://127.0.0.1:$PUSH_PORT/metrics" | awk '/^push_time_seconds\{.*machine="SN-0036"/ { printf "%d", $2 }'; }
i=0; until [ -n "$(pushed_at)" ] || [ $i -ge 100 ]; do sleep 0.2; i=$((i + 1)); done
first=$(pushed_at); sleep 8; again=$(pushed_at)
check "a burn-in component running pushes again within 8 s (push_time_seconds $first, then $again)" \
	sh -c "[ -n '$first' ] && [ '${again:-0}' -gt '${first:-0}' ]"
held=$(sed -n 's/.*SIGCONT to pid \([0-9]*\).*/\1/p' "$T/burn36.log")
kill -TERM $burning; [ -z "$held" ] || kill -CONT "$held"; wait $burning
finish
