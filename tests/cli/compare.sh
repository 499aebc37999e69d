# SPDX-License-Identifier: MIT
# bootbench compare over real runs: five alike loop devices, each measured
# by bootbench run into a result folder of its own (a machine's), one of
# them held to half the rate of the others (rate_iops), plus a run of
# Debian's fio on a sixth device. compare names the slow one OUTLIER with
# its slot, flags no other, reports fio's lone disk as a group too small
# to compare, says the same in CSV and JSON, names a cut-short file in one
# line and still compares the rest; bad input: exit 2, one line.
. tests/lib.sh
need_commands fio python3
job="--name=randread --rw=randread --bs=4k --iodepth=4 --ioengine=io_uring --direct=1 --runtime=2 --time_based"
for i in 1 2 3 4 5; do
	loopdev dev "$T/d$i.img" 64M
	mkdir -p "$T/share/m$i"
	rate=2000
	[ $i = 4 ] && { rate=1000; slow=$dev; }
	$BB run $job --rate_iops=$rate --filename="$dev" --output-format=json --output="$T/share/m$i/quick.json" \
		> /dev/null 2> "$T/run$i.err" || { bad "run on $dev"; cat "$T/run$i.err"; }
done
# the seeds' tables: yabs on one of them (scaled down) comes out in YABS's layout;
# dbcommit's verdict: a copy of a real run whose commits wait 100x a page write
# is fsync-bound
export BOOTBENCH_PROFILES=$PWD/rootfs/usr/share/bootbench/profiles BOOTBENCH_SCALE=0.02
"$BB" profile yabs --destroy="$dev" --output="$T/share/m5" "$dev" > /dev/null 2>&1 || bad "yabs ran"
mkdir -p "$T/dbc"
loopdev big "$T/big.img" 256M
"$BB" profile dbcommit --destroy="$big" --output="$T/dbc" "$big" > /dev/null 2>&1 || bad "dbcommit ran"
python3 - "$T/dbc/dbcommit-${big#/dev/}.json" "$T/share/m5/dbcommit-slow.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
for i in range(0, len(jobs) - 1, 2):
    w = jobs[i + 1]["write"]["clat_ns"]["percentile"]["50.000000"]
    jobs[i]["sync"]["lat_ns"]["percentile"]["50.000000"] = 100 * w
json.dump(d, open(sys.argv[2], "w"))
PY
unset BOOTBENCH_SCALE
loopdev other "$T/d6.img" 64M
mkdir -p "$T/share/fio-elsewhere"
fio $job --rate_iops=2000 --filename="$other" --output-format=json --output="$T/share/fio-elsewhere/fio.json" \
	> /dev/null 2>&1 || bad "Debian's fio ran"

"$BB" compare "$T/share" > "$T/text" 2> "$T/err"
rc=$?
check "an outlier: exit status 1" [ $rc = 1 ]
check "nothing on stderr for readable files" [ ! -s "$T/err" ]
check "the slow disk is named OUTLIER (slow) with its slot" \
	grep -qE "^    [^ ]+ +- +$slow .*OUTLIER \(slow\): machine .*, disk \(no serial\), slot $slow\$" "$T/text"
check "... and no other disk" [ "$(grep -c OUTLIER "$T/text")" = 1 ]
check "the five alike disks are one group, summed up" \
	grep -qE "^  group unknown model / unknown firmware / 64\.0MiB: 5 disks, median [0-9.]+k? IOPS \([0-9.]+ MB/s\), MAD " "$T/text"
check "fio's own JSON is read: its disk a group too small to compare" \
	grep -qE "^  group unknown model / unknown firmware / 0B: 1 disk\(s\): too few to compare \(3 needed\)" "$T/text"
check "... its machine named by its folder" grep -qE "^    fio-elsewhere +- +$other " "$T/text"
check "the count at the end" grep -q "^1 outlier(s)\$" "$T/text"
check "YABS's own table for the disk that ran yabs" sh -c "
	grep -q \"^YABS's table: machine .*, slot $dev (\" '$T/text' &&
	grep -qE '^Block Size \| 4k +\(IOPS\) \| 64k +\(IOPS\)\$' '$T/text' &&
	grep -qE '^Block Size \| 512k +\(IOPS\) \| 1m +\(IOPS\)\$' '$T/text' &&
	[ \$(grep -cE '^Total +\| [0-9.]+ [MG]B/s +\( *[0-9.]+k?\)' '$T/text') = 2 ]"
check "a run whose commits wait 100x a page write: fsync-bound, named" \
	grep -qE "^  fsync-bound: unknown model \(machine .*, slot $big\): dbcommit-log-fsync-1 write sync p50 [0-9]+ us, 100x" "$T/text"
check "... only that copy, not the real run's folder" [ "$(grep -c '^  fsync-bound: ' "$T/text")" -le 4 ]

"$BB" compare --format=json "$T/share" > "$T/json"
check "JSON: the slow member, the rest not" json "$T/json" \
	"d['outliers'] == 1 and [m['slot'] for t in d['tests'] for g in t['groups'] for m in g['members'] if m['outlier'] == 'slow'] == ['$slow']"
check "JSON: median and MAD of the group" json "$T/json" \
	"[g for g in d['tests'][0]['groups'] if g['disks'] == 5 and g['compared'] and 1900 < g['median_iops'] < 2100 and g['mad_iops'] < 200]"
"$BB" compare --format=csv "$T/share" > "$T/csv"
check "CSV: a header and one row per disk, the slow one flagged" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$T/csv')) if r['test'] == 'randread read']
sys.exit(0 if len(rows) == 6 and [r['slot'] for r in rows if r['outlier'] == 'slow'] == ['$slow'] else 1)"
"$BB" compare --format=html "$T/share" > "$T/compare.html"
check "HTML: one self-contained page, the slow disk's bar hatched and named" python3 -c "
import re, sys, xml.etree.ElementTree as ET
t = open('$T/compare.html').read()
for svg in re.findall(r'<svg.*?</svg>', t, re.S):
    ET.fromstring(svg)
ok = not re.search(r'<script|https?:|src=|href=', t) and t.count('class=\"bar hatch\"') == 1 and \
    re.search(r'<li class=\"bad\">OUTLIER: randread read: machine [^,]+, disk \(no serial\), slot $slow,', t)
sys.exit(0 if ok else 1)"
"$BB" compare --by=machine "$T/share" > "$T/by-machine"
check "--by=machine: this host's five disks one group, the same outlier; fio's machine alone" \
	sh -c "sed -n '/^randread read\$/,/^\$/p' '$T/by-machine' > '$T/by-machine-randread' &&
		grep -qE '^  group machine [^ ]+: 5 disks' '$T/by-machine-randread' &&
		[ \$(grep -c 'too few to compare' '$T/by-machine-randread') = 1 ] &&
		[ \$(grep -c 'OUTLIER (slow): .*slot $slow\$' '$T/by-machine') = 1 ]"

# a cut-short file among them: one line naming it, the rest still compared
head -c 300 "$T/share/m1/quick.json" > "$T/share/m1/cut.json"
"$BB" compare "$T/share" > "$T/text2" 2> "$T/err2"
check "a cut-short file: exit status 1" [ $? = 1 ]
check "... one line naming it" sh -c "[ \$(wc -l < '$T/err2') = 1 ] && grep -q '/m1/cut.json: not JSON, or cut short (line' '$T/err2'"
check "... the rest still compared" grep -q "OUTLIER (slow): .*slot $slow\$" "$T/text2"
rm "$T/share/m1/cut.json"

# bad input: exit 2, one line
bad_input() { # description args...
	d=$1; shift
	"$BB" compare "$@" > "$T/out" 2> "$T/err"
	rc=$?
	check "$d: exit 2, one line" sh -c "[ $rc = 2 ] && [ \$(wc -l < '$T/err') = 1 ] && [ ! -s '$T/out' ]"
}
bad_input "an unknown grouping" --by=colour "$T/share"
bad_input "an unknown format" --format=xml "$T/share"
bad_input "an unknown option" --fast "$T/share"
bad_input "nothing named"
bad_input "a path that is not there" "$T/nowhere"
mkdir "$T/empty"
bad_input "a folder without results" "$T/empty"
finish
