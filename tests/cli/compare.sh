# SPDX-License-Identifier: MIT
# bootbench compare over a rack made from real runs: twelve "machines", each
# a result folder of a bootbench run on a loop device (json+), named as a
# rack would name them (the machine's DMI serial in its JSON, the disk's
# model, serial and firmware in the disks.json beside it): ten of model A,
# two of model B, and srv07's disk held to half the rate of the others
# (rate_iops). Debian's fio runs the same job with json+, its disk named
# model A by a disks.json beside it. compare names exactly srv07's disk
# OUTLIER, with its machine, serial and slot; reports model B's two as too
# few to compare; lines fio's disk up in model A's group; says the same in
# CSV, JSON and HTML; shows YABS's table for a yabs run and names a
# fsync-bound disk; names a cut-short file in one line and still compares
# the rest. Reruns of one disk are one disk, its newest run (in whichever
# machine it was: a disk is its serial, but a placeholder serial such as
# 0000000000 that many disks report is no disk's: its machine and slot
# are, attack 46b); a folder
# that cannot be read is said (exit 1). Bad input: exit 2, one line.
. tests/lib.sh
need_commands fio python3 setpriv
job="--name=randread --rw=randread --bs=4k --iodepth=4 --ioengine=io_uring --direct=1 --runtime=2 --time_based"
loopdev dev "$T/d.img" 64M
# name MACHINE-FOLDER SERIAL MODEL FIRMWARE: the machine's serial in its JSON, the disk's identity beside it
name() {
	python3 - "$1" "$2" "$3" "$4" "$dev" <<'PY'
import json, os, sys
folder, serial, model, fw, dev = sys.argv[1:]
for f in os.listdir(folder):
    if f.endswith(".json") and f != "disks.json":
        d = json.load(open(os.path.join(folder, f)))
        if "bootbench" in d:
            d["bootbench"]["system"]["dmi"]["product_serial"] = os.path.basename(folder).upper()
            json.dump(d, open(os.path.join(folder, f), "w"))
json.dump({"disks": [{"name": os.path.basename(dev), "path": dev, "serial": serial, "model": model,
                      "firmware": fw, "size": 64 << 20}]}, open(os.path.join(folder, "disks.json"), "w"))
PY
}
# at_rate RATE FILE: the run reached 95% of its rate. The rack is eleven
# alike disks and a slow one: a run the host's load held below its rate
# (beside stress-ng --cpu 2 the loop device's worker waits for a CPU:
# 1490 IOPS of 2000, p99 31 ms) is not what the rack is, and is run again
at_rate() {
	python3 -c "import json, sys; sys.exit(json.load(open(sys.argv[2]))['jobs'][0]['read']['iops'] < 0.95 * int(sys.argv[1]))" "$1" "$2"
}
# run_at RATE FILE COMMAND...: COMMAND until its run reaches its rate (5 tries)
run_at() {
	_rate=$1 _file=$2; shift 2
	for _try in 1 2 3 4 5; do
		"$@" > /dev/null 2> "$T/run.err" || { bad "$*"; cat "$T/run.err"; return; }
		at_rate "$_rate" "$_file" && return
		echo "    $(basename "$(dirname "$_file")"): below $_rate IOPS (the host's load), run again"
	done
	bad "$_file: 5 runs, none at $_rate IOPS"
}
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
	m=$T/share/srv$i
	mkdir -p "$m"
	rate=1000
	[ $i = 07 ] && rate=500
	run_at $rate "$m/quick.json" $BB run $job --rate_iops=$rate --filename="$dev" --output-format=json+ --output="$m/quick.json"
	case $i in 11|12) name "$m" "B-DISK-$i" "Model B" FW2 ;; *) name "$m" "A-DISK-$i" "Model A" FW1 ;; esac
done
# the seeds' tables: yabs on srv05's disk (scaled down) comes out in YABS's
# layout; dbcommit's verdict: a copy of a real run whose commits wait 100x a
# page write is fsync-bound
export BOOTBENCH_PROFILES=$PWD/rootfs/usr/share/bootbench/profiles BOOTBENCH_SCALE=0.02
"$BB" profile yabs --destroy="$dev" --output="$T/share/srv05" "$dev" > /dev/null 2>&1 || bad "yabs ran"
name "$T/share/srv05" A-DISK-05 "Model A" FW1
mkdir -p "$T/dbc"
loopdev big "$T/big.img" 256M
"$BB" profile dbcommit --destroy="$big" --output="$T/dbc" "$big" > /dev/null 2>&1 || bad "dbcommit ran"
python3 - "$T/dbc/dbcommit-${big#/dev/}.json" "$T/share/srv06/dbcommit-slow.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
for i in range(0, len(jobs) - 1, 2):
    w = jobs[i + 1]["write"]["clat_ns"]["percentile"]["50.000000"]
    jobs[i]["sync"]["lat_ns"]["percentile"]["50.000000"] = 100 * w
json.dump(d, open(sys.argv[2], "w"))
PY
name "$T/share/srv06" A-DISK-06 "Model A" FW1
unset BOOTBENCH_SCALE
mkdir -p "$T/share/fio-elsewhere"
run_at 1000 "$T/share/fio-elsewhere/fio.json" fio $job --rate_iops=1000 --filename="$dev" --output-format=json+ \
	--output="$T/share/fio-elsewhere/fio.json"
name "$T/share/fio-elsewhere" A-DISK-FIO "Model A" FW1
slow=$dev
# srv03's disk named as a datacenter names it, by its by-id path (issue 48:
# the line naming it ran past 80 columns)
byid=/dev/disk/by-id/nvme-SAMSUNG_MZQL23T8HCLS-00A07_S64HNE0T123456_1
for f in "$T/share/srv03/quick.json" "$T/share/srv03/disks.json"; do
	sed -i "s|\"$dev\"|\"$byid\"|g" "$f"
done
# srv04's disks.json as a hostile share might have it: an escape sequence in the serial
python3 - "$T/share/srv04/disks.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["disks"][0]["serial"] = "A-DISK-04\x1b[2J\u009b"
json.dump(d, open(sys.argv[1], "w"))
PY
# issue 46: srv11's disk run twice more, before its run above (older
# timestamps, one of them at a tenth of the rate): one disk, its newest
# run, not a group of three agreeing with itself
python3 - "$T/share/srv11" <<'PY'
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "quick.json")))
for name, ago, scale in (("rerun-1.json", 7200, 0.1), ("rerun-2.json", 3600, 1.0)):
    d["timestamp"] -= ago
    for job in d["jobs"]:
        job["read"]["iops"] *= scale
    json.dump(d, open(os.path.join(sys.argv[1], name), "w"))
PY

"$BB" compare "$T/share" > "$T/text" 2> "$T/err"
rc=$?
# what a failure below is about: the figures of every disk
sed -n '/^randread read$/,/^$/p' "$T/text" | sed 's/^/    /'
check "an outlier: exit status 1" [ $rc = 1 ]
check "nothing on stderr for readable files" [ ! -s "$T/err" ]
check "exactly srv07's disk is named OUTLIER (slow), with its machine, serial and slot" \
	grep -qE "^    SRV07 +A-DISK-07 +$dev .*OUTLIER \(slow\): machine SRV07, disk A-DISK-07, slot $dev\$" "$T/text"
check "... and no other disk" [ "$(grep -c OUTLIER "$T/text")" = 1 ]
check "model A's ten and fio's disk are one group, summed up" \
	grep -qE "^  group Model A / FW1 / 64\.0MiB: 11 disks, median [0-9.]+k? IOPS \([0-9.]+ MB/s\), MAD " "$T/text"
check "model B's two (srv11's disk run three times is one disk): too few to compare" \
	grep -qE "^  group Model B / FW2 / 64\.0MiB: 2 disk\(s\): too few to compare \(3 needed\)" "$T/text"
check "fio's own json+ is lined up with bootbench's: its disk in model A's group" \
	grep -qE "^    fio-elsewhere +A-DISK-FIO +$dev " "$T/text"
check "the count at the end" grep -q "^1 outlier(s)\$" "$T/text"
check "YABS's own table for the disk that ran yabs" sh -c "
	grep -q \"^YABS's table: machine SRV05, disk A-DISK-05, slot $dev (\" '$T/text' &&
	grep -qE '^Block Size \| 4k +\(IOPS\) \| 64k +\(IOPS\)\$' '$T/text' &&
	grep -qE '^Block Size \| 512k +\(IOPS\) \| 1m +\(IOPS\)\$' '$T/text' &&
	[ \$(grep -cE '^Total +\| [0-9.]+ [MG]B/s +\( *[0-9.]+k?\)' '$T/text') = 2 ]"
check "a run whose commits wait 100x a page write: fsync-bound, named" \
	grep -qE "^  fsync-bound: unknown model \(machine SRV06, disk \(no serial\), slot $big\): dbcommit-log-fsync-1 write sync p50 [0-9]+ us, 100x" "$T/text"
check "... only that copy, not the real run's folder" [ "$(grep -c '^  fsync-bound: ' "$T/text")" -le 4 ]
# on a console of 80 columns (issue 48): every line fits, a disk's figures under its name, the outlier with them
COLUMNS=80 "$BB" compare "$T/share" > "$T/text80" 2>/dev/null
awk 'length($0) > 80 { print "    past 80: " $0 }' "$T/text80" | head -n 5
sed -n '/^randread read$/,/^$/p' "$T/text80" | head -n 12 | sed 's/^/    /'
check "COLUMNS=80: no line past column 80" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$T/text80"
check "the table: srv03's slot cut to its column ends in +, and the disk is named whole under its row" sh -c \
	"grep -A1 -E '^    SRV03 +A-DISK-03 +/dev/disk/by-\\+ ' '$T/text' | grep -q '^      machine SRV03, disk A-DISK-03, slot $byid\$'"
check "... srv03's disk, named by its by-id path, folded too" sh -c \
	"tr -s ' \n' '  ' < '$T/text80' | grep -q 'SRV03, disk A-DISK-03, slot $byid'"
check "... srv07's disk named on a line, its figures and OUTLIER (slow) folded under it" sh -c \
	"grep -A3 -E '^    SRV07, disk A-DISK-07, slot $dev\$' '$T/text80' | tr -s ' \n' '  ' | grep -q 'OUTLIER (slow): machine SRV07'"

check "a share's escape sequence in a serial is shown as ?, never sent to the terminal" sh -c \
	"grep -q 'A-DISK-04?\[2J?' '$T/text' && ! grep -q \"\$(printf '\\033')\" '$T/text' '$T/text80'"
COLUMNS=120 "$BB" compare "$T/share" > "$T/text120" 2>/dev/null
check "COLUMNS=120: the table, no line past 120 (the outlier's note folded under its row)" sh -c \
	"awk 'length(\$0) > 120 { bad = 1 } END { exit bad }' '$T/text120' && grep -A1 -E '^    SRV07 +A-DISK-07 ' '$T/text120' | grep -q '^      OUTLIER (slow): machine SRV07'"

"$BB" compare --format=json "$T/share" > "$T/json"
check "JSON: srv07's disk the slow member, no other" json "$T/json" \
	"d['outliers'] == 1 and [(m['machine'], m['disk_serial']) for t in d['tests'] for g in t['groups'] for m in g['members'] if m['outlier']] == [('SRV07', 'A-DISK-07')]"
check "JSON: model A's group, its median and MAD; model B's not compared" json "$T/json" \
	"[g for g in d['tests'][0]['groups'] if g['disks'] == 11 and g['compared'] and 950 < g['median_iops'] < 1050 and g['mad_iops'] < 100] and
	 [g for g in d['tests'][0]['groups'] if g['disks'] == 2 and not g['compared']]"
check "JSON: srv11's disk once, its newest run (quick.json)" json "$T/json" \
	"[m['file'].split('/')[-1] for t in d['tests'] if t['test'] == 'randread read' for g in t['groups'] for m in g['members'] if m['machine'] == 'SRV11'] == ['quick.json']"
"$BB" compare --format=csv "$T/share" > "$T/csv"
check "CSV: a header and one row per disk, srv07's flagged" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$T/csv')) if r['test'] == 'randread read']
sys.exit(0 if len(rows) == 13 and [r['machine'] for r in rows if r['outlier'] == 'slow'] == ['SRV07'] else 1)"
"$BB" compare --format=html "$T/share" > "$T/compare.html"
check "HTML: one self-contained page, the slow disk's bar hatched and named" python3 -c "
import re, sys, xml.etree.ElementTree as ET
t = open('$T/compare.html').read()
for svg in re.findall(r'<svg.*?</svg>', t, re.S):
    ET.fromstring(svg)
ok = not re.search(r'<script|https?:|src=|href=', t) and t.count('class=\"bar hatch\"') == 1 and \
    re.search(r'<li class=\"bad\">OUTLIER: randread read: machine SRV07, disk A-DISK-07, slot $slow,', t)
sys.exit(0 if ok else 1)"
"$BB" compare --by=machine "$T/share" > "$T/by-machine"
check "--by=machine: one disk a machine, so none compared and no outlier" \
	sh -c "sed -n '/^randread read\$/,/^\$/p' '$T/by-machine' > '$T/by-machine-randread' &&
		[ \$(grep -c 'too few to compare' '$T/by-machine-randread') = 13 ] && ! grep -q OUTLIER '$T/by-machine'"

# a cut-short file among them: one line naming it, the rest still compared
head -c 300 "$T/share/srv01/quick.json" > "$T/share/srv01/cut.json"
"$BB" compare "$T/share" > "$T/text2" 2> "$T/err2"
check "a cut-short file: exit status 1" [ $? = 1 ]
check "... one line naming it" sh -c "[ \$(wc -l < '$T/err2') = 1 ] && grep -q '/srv01/cut.json: not JSON, or cut short (line' '$T/err2'"
check "... the rest still compared" grep -q "OUTLIER (slow): machine SRV07, disk A-DISK-07, slot $slow\$" "$T/text2"
rm "$T/share/srv01/cut.json"

# issue 46: a folder that cannot be read is said, and the exit status is 1
# (the share's permissions: read as nobody, who cannot open it)
mkdir -p "$T/calm"
for i in 01 02 03 04; do cp -r "$T/share/srv$i" "$T/calm/"; done
mkdir "$T/calm/locked" && cp "$T/share/srv05/quick.json" "$T/calm/locked/" && chmod 000 "$T/calm/locked"
chmod 755 "$T"
setpriv --reuid=65534 --regid=65534 --clear-groups "$BB" compare "$T/calm" > "$T/calm.out" 2> "$T/calm.err"
rc=$?
sed 's/^/    /' "$T/calm.err"
check "an unreadable folder: exit 1, said in one line" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l < '$T/calm.err') = 1 ] && grep -q 'calm/locked: cannot read it: Permission denied' '$T/calm.err'"
check "... the rest still compared: no outlier among the four" grep -q '^0 outlier(s)$' "$T/calm.out"

# a slow disk moved to another machine to confirm it (the usual retest), slow there too: one disk,
# one vote (its newest run), never two that pull the median its way and hide it
retest() { # MACHINE DISK-SERIAL IOPS TIMESTAMP
	mkdir -p "$T/retest/$1-$2"
	printf '{"fio version":"fio-3.33","timestamp":%s,"jobs":[{"jobname":"randread","read":{"io_bytes":1000000,"iops":%s,"bw_bytes":%s}}],"bootbench":{"system":{"dmi":{"product_serial":"%s"}},"jobs":[{"targets":[{"path":"/dev/nvme0n1","serial":"%s","model":"ACME NVMe 1TB","firmware_rev":"1.0","size":1000204886016}]}]}}\n' \
		"$4" "$3" "$(($3 * 4096))" "$1" "$2" > "$T/retest/$1-$2/nvme0n1.json"
}
retest SN-M1 DISK-1 1000 1796400000; retest SN-M2 DISK-2 1010 1796400000; retest SN-M3 DISK-3 500 1796400000
retest SN-M4 DISK-3 505 1796450000
"$BB" compare "$T/retest" > "$T/retest.out" 2>&1
rc=$?
sed 's/^/    /' "$T/retest.out"
check "a disk retested in another machine is one disk, its newest run: 3 disks, DISK-3 (in SN-M4) the outlier, exit 1" sh -c \
	"[ $rc = 1 ] && grep -q ': 3 disks, median 1000 IOPS' '$T/retest.out' && grep -q 'OUTLIER (slow): machine SN-M4, disk DISK-3' '$T/retest.out'"

# a placeholder disk serial (0000000000: a SATA bridge's, a cheap SSD's) is no disk's own: five machines' disks
# report it, srv03's slow; they are five disks (machine and slot), never one vote "too few to compare"
for m in 1:1000 2:1010 3:300 4:990 5:1005; do retest "SN-P${m%%:*}" 0000000000 "${m#*:}" 1796400000; done
mkdir -p "$T/placeholder"; mv "$T/retest"/SN-P* "$T/placeholder/"
"$BB" compare "$T/placeholder" > "$T/placeholder.out" 2>&1
rc=$?
sed 's/^/    /' "$T/placeholder.out"
check "disks with a placeholder serial are each their machine's and slot's: 5 disks, SN-P3's the outlier, exit 1" sh -c \
	"[ $rc = 1 ] && grep -q ': 5 disks, median 1000 IOPS' '$T/placeholder.out' && grep -q 'OUTLIER (slow): machine SN-P3, disk 0000000000' '$T/placeholder.out'"

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
