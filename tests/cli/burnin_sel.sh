# SPDX-License-Identifier: MIT
# burnin_sel.sh - bootbench burnin's bmc component against a BMC event log
# (SEL) of more than 64 KiB, as a machine that has logged for years holds
# one: a recorded tree with an IPMI device (BOOTBENCH_SYSROOT) and an
# ipmitool on PATH that answers as ipmitool does (`mc info`, `sel elist`,
# `sensor`), its log growing by the records a test names between the
# burn-in's start and its end. The log is read whole: the events before
# the burn-in are not new whatever their words, one logged during it is
# new (a critical one FAILs quoting it, another is a note), bmc-sel.txt
# holds every record; a listing too long to hold is an ERROR, never read
# from its tail (whose first line is cut, and was read as a new critical
# record: a false FAIL). QEMU's BMC (tests/boot/burnin_bmc.sh) logs too
# little to reach that size.
. tests/lib.sh
need_commands python3
R=$T/root
mkdir -p "$R/dev" "$T/bin"
: > "$R/dev/ipmi0"
# a fan that failed once and the heat it caused, over and over: 1200
# records, each old and critical in its words, 140 KiB in all. The record
# logged during the quiet burn-in is as wide (ipmitool pads the ID) as puts
# the start of the log's last 64 KiB inside an old record's date, where a
# cut line's first digits read as a record ID ("03/02/2023" as 0x3): the
# false FAIL, on the binary that read only the tail.
python3 - "$T/sel.txt" "$T/quiet.new" <<'PY'
import sys
line = lambda i: ("%4x | 03/%02d/2023 | %02d:%02d:%02d | Temperature CPU%d Temp | Upper Critical going high | Asserted"
                  " | Reading %d > Threshold 90 degrees C\n" % (i, i % 28 + 1, i % 24, i % 60, (i * 7) % 60, i % 2 + 1,
                                                                91 + i % 9))
sel = "".join(line(i) for i in range(1, 1201))
open(sys.argv[1], "w").write(sel)
width, tail = len(line(1)), 65535
record = "4b1 | 06/01/2024 | 10:00:00 | System Event #0x83 | Timestamp Clock Sync | Asserted\n"
pad = next(p for p in range(1, 2 * width) if (len(sel) + p + len(record) - tail) % width == len("   1 | "))
open(sys.argv[2], "w").write(" " * pad + record)
PY
# ipmitool: the log in $T/sel.txt; from its second `sel elist` on (the
# burn-in's end) with $T/sel-new.txt after it; $T/sel-huge: a listing of 17 MiB
cat > "$T/bin/ipmitool" <<EOF
#!/bin/sh
case "\$*" in
"mc info") printf 'Device ID                 : 32\nFirmware Revision         : 3.45\nIPMI Version              : 2.0\n' ;;
"sel elist")
	if [ -e "$T/sel-huge" ]; then
		yes '   1 | 03/01/2023 | 00:00:00 | System Event #0x83 | Timestamp Clock Sync | Asserted' | head -c 17825792
		exit 0
	fi
	cat "$T/sel.txt"
	[ -e "$T/elist.calls" ] && cat "$T/sel-new.txt"
	echo >> "$T/elist.calls" ;;
sensor) printf 'CPU1 Temp        | 45.000     | degrees C  | ok    | na | 0.000 | na | 89.000 | 90.000 | na\nFAN1             | 5400.000   | RPM        | ok    | na | 300.000 | na | na | na | na\n' ;;
*) echo "ipmitool: \$*: not faked" >&2; exit 1 ;;
esac
EOF
chmod +x "$T/bin/ipmitool"
# bmc NAME NEW-RECORDS: a burn-in of the bmc component alone; NEW-RECORDS
# logged during it; its results in $T/NAME
bmc() {
	rm -f "$T/elist.calls"
	printf '%s' "$2" > "$T/sel-new.txt"
	mkdir -p "$T/$1"
	PATH="$T/bin:$PATH" BOOTBENCH_SYSROOT=$R "$BB" burnin --components=bmc --output="$T/$1" > "$T/$1.out" 2>&1
	echo $? > "$T/$1.rc"
}
comp() { json "$T/$1/burnin.json" "(lambda c: $2)([x for x in d['components'] if x['name'] == 'bmc'][0])"; }

check "the log is over 64 KiB" [ "$(wc -c < "$T/sel.txt")" -gt 65536 ]
bmc quiet "$(cat "$T/quiet.new")
"
check "a SEL over 64 KiB, one event logged during the burn-in, not critical: PASS, exit 0" sh -c \
	"[ \$(cat '$T/quiet.rc') = 0 ] && grep -q '^bmc       PASS' '$T/quiet/burnin.txt'"
check "... one new event, none critical, all 1200 before it counted" comp quiet \
	"c['figures']['sel_new_events']['value'] == 1 and c['figures']['sel_critical_events']['value'] == 0
	 and '(1200 before)' in c['figures']['sel_new_events']['text'] and open('$T/quiet.new').read().strip() in c['not_run']"
check "... bmc-sel.txt is the whole log, every record" sh -c \
	"[ \$(grep -c '^ *[0-9a-f]* | ' '$T/quiet/bmc-sel.txt') = 1201 ] && head -n 1 '$T/quiet/bmc-sel.txt' | grep -q '^   1 | 03/02/2023'"
bmc hot " 4b1 | 06/01/2024 | 10:00:00 | Temperature CPU2 Temp | Upper Critical going high | Asserted | Reading 97 > Threshold 90 degrees C
"
check "a critical event logged during the burn-in: FAIL quoting that one record alone, exit 1" sh -c \
	"[ \$(cat '$T/hot.rc') = 1 ] && grep -q '^bmc       FAIL     the BMC logged during the burn-in:  4b1 | 06/01/2024' '$T/hot/burnin.txt'"
check "... one new event, one critical" comp hot \
	"c['figures']['sel_new_events']['value'] == 1 and c['figures']['sel_critical_events']['value'] == 1"
bmc none ""
check "nothing logged during the burn-in: PASS, no new event" comp none \
	"c['verdict'] == 'PASS' and c['figures']['sel_new_events']['value'] == 0"
touch "$T/sel-huge"
bmc huge ""
rm -f "$T/sel-huge"
check "a listing over 16 MiB, more than is held: ERROR saying so, never a verdict from its tail" sh -c \
	"[ \$(cat '$T/huge.rc') = 1 ] && grep -q '^bmc       ERROR    the BMC.s event log could not be read whole at the start: its listing is over 16 MiB' '$T/huge/burnin.txt'"
finish
