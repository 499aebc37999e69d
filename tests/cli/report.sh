# SPDX-License-Identifier: MIT
# bootbench report on a real result folder: quick, dbcommit and steady run
# on a loop device (scaled down), with the machine's and the disks'
# descriptions beside them, inventory.json and status.json, as the
# appliance saves them. The page is one
# self-contained file (no script, no URL, no file from elsewhere), every
# SVG in it is well-formed XML, it has the machine, the disks, each
# profile's table, a latency curve and the per-second series of each job,
# the dbcommit and steady charts; rendered by headless Chromium it shows
# ink on paper (the screenshot is kept in out/test-logs for a person to
# look at). A cut-short JSON: one line, the page still written, exit 1.
# Bad input: exit 2, one line, nothing written.
. tests/lib.sh
need_commands python3 chromium
export BOOTBENCH_PROFILES=$PWD/rootfs/usr/share/bootbench/profiles BOOTBENCH_SCALE=0.02
loopdev dev "$T/disk.img" 256M
r=$T/results
mkdir -p "$r"
for p in quick dbcommit; do
	"$BB" profile "$p" --destroy="$dev" --output="$r" "$dev" >> "$r/summary.txt" 2>&1 || bad "$p ran"
done
BOOTBENCH_SCALE=0.005 "$BB" profile steady --destroy="$dev" --output="$r" "$dev" > "$T/steady.txt" 2>&1 ||
	bad "steady ran"
mv "$r/steady-${dev#/dev/}.json" "$r/steady.json"
cp "$T/steady.txt" "$r/steady.txt"
"$BB" sysinfo --json > "$r/sysinfo.json"
"$BB" disks --json > "$r/disks.json"
# as every unattended run's folder has them (issue 46: report refused both)
"$BB" inventory --output="$r" > /dev/null 2>&1 || bad "inventory ran"
BB_RUN=quick sh -c '. rootfs/lib/bootbench/results.sh; write_status "$1" 0 ""' - "$r"

"$BB" report "$r" > "$T/out" 2> "$T/err"
check "report: exit 0" [ $? = 0 ]
check "... nothing on stderr: inventory.json and status.json are known, not refused" [ ! -s "$T/err" ]
check "... the run's end from status.json: exit status 0" grep -q '<tr><th>exit status</th><td>0</td></tr>' "$r/report.html"
check "... it says where the page went" grep -q "^report: $r/report.html (" "$T/out"
page=$r/report.html
check "one self-contained page: no script, no URL, nothing loaded from elsewhere" python3 -c "
import re, sys
t = open('$page').read().lower()
bad = re.findall(r'<script|https?:|ftp:|file:|src=|href=|<link|@import|<img|<iframe|<object|url\\((?!#)', t)
sys.exit(1 if bad else 0)"
check "every SVG is well-formed XML, and there are many" python3 -c "
import re, sys, xml.etree.ElementTree as ET
svgs = re.findall(r'<svg.*?</svg>', open('$page').read(), re.S)
for s in svgs:
    ET.fromstring(s)
sys.exit(0 if len(svgs) >= 20 else 1)"
check "the machine and its disks" sh -c "grep -q '<h2>Machine</h2>' '$page' && grep -q '<h2>Disks</h2>' '$page' && grep -q '<td>${dev}</td>' '$page'"
check "each profile's own table, as its summary printed it" \
	sh -c "grep -q '^randread-4k-qd32 ' '$page' && grep -q 'Verdict: fsync ' '$page' && grep -qE 'Steady state (reached|NOT reached)' '$page'"
check "a latency curve for every job of quick (4)" \
	[ "$(grep -cE '<title>(randread-4k-qd32|seqread-1m-qd8|randwrite-4k-qd32|write-4k-fsync): completion latency</title>' "$page")" = 4 ]
check "... drawn from the json+ bins, on a percentile axis to 99.9% and beyond" \
	sh -c "grep -q 'percentile of I/Os' '$page' && grep -q '>99.9%<' '$page'"
check "IOPS and MB/s per second for every job of quick" \
	sh -c "[ \$(grep -cE '<title>(randread-4k-qd32|seqread-1m-qd8|randwrite-4k-qd32|write-4k-fsync): (IOPS|MB/s) per second</title>' '$page') = 8 ]"
check "dbcommit: sync against page writes, 4 pairs" \
	sh -c "grep -q 'dbcommit: a commit' '$page' && [ \$(grep -c 'sync p99</text>' '$page') = 4 ]"
check "steady: the rounds drawn" grep -q '<title>steady: rounds' "$page"

# rendered as a person would see it: ink on paper, not a blank page
mkdir -p out/test-logs
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$T/chromium" --window-size=1200,2400 \
	--screenshot="$T/report.png" "file://$page" > "$T/chromium.log" 2>&1
cp "$T/report.png" out/test-logs/report.png 2>/dev/null
check "Chromium renders it (out/test-logs/report.png)" [ -s "$T/report.png" ]
check "... with dark lines and text on a light page" /usr/bin/python3 -c "
from PIL import Image
im = Image.open('$T/report.png').convert('L')
px = im.getdata(); n = len(px)
dark = sum(1 for p in px if p < 100); light = sum(1 for p in px if p > 200)
import sys; sys.exit(0 if light > 0.6 * n and 0.005 * n < dark < 0.3 * n else 1)"

# the figures the page shows are the JSON's: read back from Chromium's DOM
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$T/chromium" --dump-dom "file://$page" \
	> "$T/dom.html" 2> "$T/chromium.log"
check "the figures in the rendered page are the ones in the JSON (IOPS, MB/s, p99 of every job)" python3 - \
	"$T/dom.html" "$r/quick-${dev#/dev/}.json" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
n = 0
for job in d["jobs"]:
    for dr in ("read", "write"):
        x = job[dr]
        if x["io_bytes"] <= 0:
            continue
        want = "<tr><td>%s</td><td class=\"n\">%.0f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>" % (
            dr, x["iops"], x["bw_bytes"] / 1e6, x["clat_ns"]["percentile"]["50.000000"] / 1000,
            x["clat_ns"]["percentile"]["99.000000"] / 1000)
        section = dom.split("<h3>%s</h3>" % job["jobname"])[1]
        if want not in section.split("<h3>")[0]:
            sys.exit("%s %s: %s not in the page" % (job["jobname"], dr, want))
        n += 1
sys.exit(0 if n == 4 else "%d directions checked" % n)
PY

# one JSON, to standard output; a cut-short one: a line, the page still made
"$BB" report "$r/quick-${dev#/dev/}.json" > "$T/one.html" 2> "$T/err"
check "a JSON file alone: the page on standard output" sh -c "grep -q '</html>' '$T/one.html' && [ ! -s '$T/err' ]"
head -c 500 "$r/quick-${dev#/dev/}.json" > "$r/cut.json"
"$BB" report --output="$T/cut.html" "$r" > /dev/null 2> "$T/err"
check "a cut-short file: exit 1, one line naming it" \
	sh -c "[ $? = 1 ] && [ \$(wc -l < '$T/err') = 1 ] && grep -q 'cut.json: not JSON, or cut short' '$T/err'"
check "... the page is still written, saying so" grep -q 'unreadable: .*cut.json' "$T/cut.html"
rm "$r/cut.json"

bad_input() { # description args...
	d=$1; shift
	rm -f "$T/bad.html"
	"$BB" report "$@" > "$T/out" 2> "$T/err"
	rc=$?
	check "$d: exit 2, one line, nothing written" \
		sh -c "[ $rc = 2 ] && [ \$(wc -l < '$T/err') = 1 ] && [ ! -s '$T/out' ] && [ ! -e '$T/bad.html' ]"
}
bad_input "nothing named" --output="$T/bad.html"
# NVMe wear in the Disks table (issue 48): a drive that reports it, one that
# does not (null), and a file from before issue 48 that wrote 0 and 0 for
# "not reported": only the first has a figure
cp -r "$r" "$T/wear"
rm -f "$T/wear/report.html"
python3 - "$T/wear/disks.json" <<'PY'
import json, sys
health = lambda spare, used: {"temperature_c": 35, "available_spare_pct": spare, "percentage_used": used,
                              "media_errors": 0, "unsafe_shutdowns": 1, "power_on_hours": 10, "critical_warning": 0}
d = {"disks": [dict(name=n, path="/dev/" + n, model="M", serial=n.upper(), transport="nvme", size=1 << 30,
                    nvme_health=h) for n, h in (("nvme0n1", health(100, 3)), ("nvme1n1", health(None, None)),
                                                ("nvme2n1", health(0, 0)), ("nvme3n1", dict(health(0, 0), critical_warning=1)))]}
json.dump(d, open(sys.argv[1], "w"))
PY
"$BB" report "$T/wear" > /dev/null 2>&1
grep -o 'NVMe: [^<]*' "$T/wear/report.html" | sed 's/^/    /'
check "NVMe wear: a reported figure, 3% used and spare 100%" grep -q 'NVMe: 35 C, 3% used, spare 100%' "$T/wear/report.html"
check "... not reported (null): said so, twice" \
	[ "$(grep -c 'NVMe: 35 C, wear not reported, spare not reported' "$T/wear/report.html")" = 2 ]
check "... a drive whose spare is gone at 0% wear (critical warning bit 0): its figures, not 'not reported'" \
	grep -q 'NVMe: 35 C, 0% used, spare 0%, .*CRITICAL WARNING' "$T/wear/report.html"
check "... the others never 0% used" [ "$(grep -c ' 0% used' "$T/wear/report.html")" = 1 ]

bad_input "a path that is not there" --output="$T/bad.html" "$T/nowhere"
bad_input "an unknown option" --pdf --output="$T/bad.html" "$r"
bad_input "a device, not a result" --output="$T/bad.html" "$dev"
bad_input "--output names a folder" --output="$T" "$r"
finish
