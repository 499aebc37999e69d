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
# record: a false FAIL). QEMU's BMC (tests/guest/burnin_bmc.sh) logs too
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
# the same log at 4096 records, none critical, 4 KiB free: ipmitool's
# "Percent Used" multiplies the entries by 16 in 16 bits and says 0%
python3 - "$T/sel4096.txt" <<'PY'
import sys
open(sys.argv[1], "w").write("".join("%4x | 03/01/2023 | 00:00:%02d | System Event #0x83 | Timestamp Clock Sync | Asserted\n"
                                     % (i, i % 60) for i in range(1, 4097)))
PY
# ipmitool: `mc info`, `sel info`, `sel elist`, `sel clear`, `sensor`, each
# call written to $T/calls. The BMC's log is $T/log, $T/free bytes free and
# $T/overflow its flag. The burn-in's end is the first `sel info` after the
# start's listing, or else the END-th `sel elist` ($T/end-at: 2 without a
# clear, the start's listing then the end's): $T/new.txt is added to the
# log then, after $T/end-action: "wrap" (its 5 oldest records overwritten)
# or "cleared" (emptied meanwhile); from then on `sel info` says
# $T/free-end and $T/overflow-end where they are.
# $T/sel-huge: a listing of 17 MiB; $T/info-fails: `sel info` fails; $T/cut:
# the listing stops at its 601st record, exit 0, as ipmitool's does at a
# record it cannot read; $T/clear-silent: `sel clear` says it clears and exits
# 0, and the log stays.
cat > "$T/bin/ipmitool" <<EOF
#!/bin/sh
S=$T
echo "\$*" >> "\$S/calls"
records() { grep -c '^ *[0-9a-f]\{1,4\} |' "\$S/log"; }
listings() { cat "\$S/elist.calls" 2>/dev/null | wc -l; }
# the burn-in's end: what it logged, once
ended() {
	[ -e "\$S/ended" ] && return 0
	[ \$(listings) -ge \$((\$(cat "\$S/end-at") - \$1)) ] || return 1
	touch "\$S/ended"
	case "\$(cat "\$S/end-action" 2>/dev/null)" in
	wrap) tail -n +6 "\$S/log" > "\$S/log.new" && mv "\$S/log.new" "\$S/log" ;;
	cleared) : > "\$S/log" ;;
	esac
	cat "\$S/new.txt" >> "\$S/log"
}
case "\$*" in
"mc info") printf 'Device ID                 : 32\nFirmware Revision         : 3.45\nIPMI Version              : 2.0\n' ;;
"sel info")
	[ -e "\$S/info-fails" ] && { echo "Get SEL Info command failed: Unspecified error"; exit 1; }
	ended 1
	n=\$(records) free=\$(cat "\$S/free") ovf=\$(cat "\$S/overflow")
	if [ -e "\$S/ended" ]; then
		[ -e "\$S/free-end" ] && free=\$(cat "\$S/free-end")
		[ -e "\$S/overflow-end" ] && ovf=\$(cat "\$S/overflow-end")
	fi
	# ipmitool's own sums: the entries times 16 in 16 bits
	e=\$((n * 16 & 65535)) f=\$free pct=0
	[ \$n -gt 0 ] && f=\$((free + e)) && [ \$f -gt 0 ] && pct=\$((100 * e / f))
	if [ \$f -ge 65535 ]; then pct=unknown; else pct=\$pct%; fi
	more=""; [ \$free = 65535 ] && more="or more"
	printf 'SEL Information\nVersion          : 1.5 (v1.5, v2 compliant)\nEntries          : %d\nFree Space       : %d bytes %s\nPercent Used     : %s\nLast Add Time    : 06/01/2024 10:%02d:%02d\nLast Del Time    : Not Available\nOverflow         : %s\nSupported Cmds   : %s \n' \
		\$n \$free "\$more" \$pct \$((n / 60 % 60)) \$((n % 60)) \$ovf "'Reserve'" ;;
"sel elist")
	if [ -e "\$S/sel-huge" ]; then
		yes '   1 | 03/01/2023 | 00:00:00 | System Event #0x83 | Timestamp Clock Sync | Asserted' | head -c 17825792
		exit 0
	fi
	echo >> "\$S/elist.calls"
	ended 0
	[ -s "\$S/log" ] || { echo "SEL has no entries"; exit 0; }
	if [ -e "\$S/cut" ]; then
		head -n 600 "\$S/log"
		echo "Get SEL Entry 259 command failed: Unspecified error"
		exit 0
	fi
	cat "\$S/log" ;;
"sel clear")
	echo "Clearing SEL.  Please allow a few seconds to erase."
	[ -e "\$S/clear-silent" ] && exit 0
	echo \$((\$(cat "\$S/free") + \$(records) * 16)) > "\$S/free"
	: > "\$S/log"
	echo false > "\$S/overflow" ;;
sensor) printf 'CPU1 Temp        | 45.000     | degrees C  | ok    | na | 0.000 | na | 89.000 | 90.000 | na\nFAN1             | 5400.000   | RPM        | ok    | na | 300.000 | na | na | na | na\n' ;;
*) echo "ipmitool: \$*: not faked" >&2; exit 1 ;;
esac
EOF
chmod +x "$T/bin/ipmitool"
# bmc NAME NEW-RECORDS [END [FLAG...]]: a burn-in of the bmc component alone
# (--output=$T/NAME unless NOOUT), its log $LOG ($T/sel.txt), $FREE bytes
# free (65535: "or more"), overflow $OVERFLOW (false); NEW-RECORDS logged
# during it (at the END-th listing, 2 by default); $RUN before bootbench.
# Its exit status in $T/NAME.rc, its output in $T/NAME.out.
bmc() {
	name=$1 new=$2 end=${3:-2}
	if [ $# -ge 3 ]; then shift 3; else shift $#; fi
	rm -f "$T/elist.calls" "$T/calls" "$T/ended"
	cp "${LOG:-$T/sel.txt}" "$T/log"
	printf '%s' "$new" > "$T/new.txt"
	echo "$end" > "$T/end-at"
	echo "${FREE:-65535}" > "$T/free"
	echo "${OVERFLOW:-false}" > "$T/overflow"
	mkdir -p "$T/$name"
	[ -n "${NOOUT:-}" ] || set -- --output="$T/$name" "$@"
	PATH="$T/bin:$PATH" BOOTBENCH_SYSROOT=$R ${RUN:-} "$BB" burnin --components=bmc "$@" > "$T/$name.out" 2>&1
	echo $? > "$T/$name.rc"
	touch "$T/calls"
}
comp() { json "$T/$1/burnin.json" "(lambda c: $2)([x for x in d['components'] if x['name'] == 'bmc'][0])"; }
# the line of the bmc component in burnin.txt of NAME holds TEXT
says() { grep -qF -- "$2" "$T/$1/burnin.txt"; }
cleared() { grep -qx 'sel clear' "$T/calls"; }

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
check "... the log's state read first (sel info): 1200 records, not full, nothing cleared" comp quiet \
	"c['figures']['sel_entries']['value'] == 1200 and round(c['figures']['sel_used_percent']['value'], 1) == 22.7
	 and 'nearly full' not in c['not_run'] and not $(cleared && echo True || echo False)"
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

# Issue 45: a full log logs nothing new. Overflow set, no byte free: an
# ERROR without consent, saying what --clear-sel does; nothing cleared.
FREE=0 OVERFLOW=true bmc full ""
check "a full event log (overflow, 0 bytes free), no --clear-sel: ERROR, exit 1, nothing cleared" sh -c \
	"[ \$(cat '$T/full.rc') = 1 ] && ! grep -qx 'sel clear' '$T/calls' && ! grep -qx 'sel elist' '$T/calls'"
check "... the ERROR says why there is no verdict and what --clear-sel does" says full \
	"bmc       ERROR    the BMC's event log is full (1200 records, 100.0% used (0 bytes free: room for 0 more), overflow: the BMC has dropped events): an event during the burn-in may not be logged, so the bmc verdict cannot be established; --clear-sel (consent) saves it with the results (--output) and clears it before the run"
check "... its figures: sel_entries 1200, sel_used_percent 100" comp full \
	"c['figures']['sel_entries']['value'] == 1200 and c['figures']['sel_used_percent']['value'] == 100"
# with consent: saved whole, cleared, seen empty; the burn-in then judged on
# what was logged after the clear. The new record takes ID 1 again (a BMC
# that numbers its records by slot, as QEMU's does): new, for it is not
# the old record 1
FREE=0 OVERFLOW=true bmc clear "" 3 --clear-sel
check "--clear-sel: the full log saved, cleared, the burn-in judged: PASS, exit 0" sh -c \
	"[ \$(cat '$T/clear.rc') = 0 ] && grep -qx 'sel clear' '$T/calls' && grep -q '^bmc       PASS' '$T/clear/burnin.txt'"
check "... bmc-sel-before-clear.txt holds the old log, every record" cmp "$T/sel.txt" "$T/clear/bmc-sel-before-clear.txt"
check "... the reason and the notes say what was cleared and where it was saved" sh -c \
	"grep -q 'its event log saved to bmc-sel-before-clear.txt and cleared before the run' '$T/clear/burnin.txt' &&
	 grep -qF \"the BMC's event log (1200 records, 100.0% used (0 bytes free: room for 0 more), overflow: the BMC has dropped events) was saved to bmc-sel-before-clear.txt and cleared before the run (--clear-sel)\" '$T/clear/burnin.txt'"
check "... the figures are the log's before the clear; none new after it" comp clear \
	"c['figures']['sel_entries']['value'] == 1200 and c['figures']['sel_used_percent']['value'] == 100 and
	 c['figures']['sel_new_events']['value'] == 0 and 'after --clear-sel cleared it' in c['figures']['sel_new_events']['text']"
FREE=0 OVERFLOW=true bmc reused "   1 | 06/01/2024 | 10:00:00 | Temperature CPU1 Temp | Upper Critical going high | Asserted | Reading 97 > Threshold 90 degrees C
" 3 --clear-sel
check "... a critical event logged after the clear under an old record's ID (1): FAIL quoting it" sh -c \
	"[ \$(cat '$T/reused.rc') = 1 ] && grep -q '^bmc       FAIL     the BMC logged during the burn-in:    1 | 06/01/2024' '$T/reused/burnin.txt'"
# never cleared unless saved: no folder, an earlier run's file, a write cut short
FREE=0 OVERFLOW=true NOOUT=1 bmc noout "" 2 --clear-sel --json
check "--clear-sel without --output: not cleared (no folder to save it in), the full log's ERROR" sh -c \
	"[ \$(cat '$T/noout.rc') = 1 ] && ! grep -qx 'sel clear' '$T/calls' &&
	 grep -qF \"it was not cleared (--clear-sel): there is no run's folder to save it in first (--output)\" '$T/noout.out'"
mkdir -p "$T/earlier" && echo "an earlier run's log" > "$T/earlier/bmc-sel-before-clear.txt"
FREE=0 OVERFLOW=true bmc earlier "" 2 --clear-sel
check "an earlier run's bmc-sel-before-clear.txt in the folder: kept as it was, the log not cleared, ERROR" sh -c \
	"[ \$(cat '$T/earlier.rc') = 1 ] && ! grep -qx 'sel clear' '$T/calls' &&
	 [ \"\$(cat '$T/earlier/bmc-sel-before-clear.txt')\" = \"an earlier run's log\" ] &&
	 grep -qF \"it was not cleared (--clear-sel): $T/earlier/bmc-sel-before-clear.txt could not be made (an earlier run's is there, never overwritten)\" '$T/earlier/burnin.txt'"
# a save cut short: files are limited to 100 blocks (the 140 KiB log is
# more), SIGXFSZ ignored, so a write past it fails as on a full disk
printf 'trap "" XFSZ\nulimit -f 100\nexec "$@"\n' > "$T/fsize.sh"
FREE=0 OVERFLOW=true RUN="sh $T/fsize.sh" bmc short "" 2 --clear-sel
check "a save that cannot be written whole: the log not cleared, no part of it left, ERROR saying why" sh -c \
	"[ \$(cat '$T/short.rc') = 1 ] && ! grep -qx 'sel clear' '$T/calls' && [ ! -e '$T/short/bmc-sel-before-clear.txt' ] &&
	 grep -qF \"it was not cleared (--clear-sel): $T/short/bmc-sel-before-clear.txt could not be written whole (File too large)\" '$T/short/burnin.txt'"
touch "$T/cut"
FREE=0 OVERFLOW=true bmc cutshort "" 2 --clear-sel
rm -f "$T/cut"
check "a listing cut short (600 of 1200 records, exit 0): not saved, not cleared, ERROR" sh -c \
	"[ \$(cat '$T/cutshort.rc') = 1 ] && ! grep -qx 'sel clear' '$T/calls' && [ ! -e '$T/cutshort/bmc-sel-before-clear.txt' ] &&
	 grep -qF 'its listing holds 600 records where the BMC counts 1200: a listing cut short is not saved whole' '$T/cutshort/burnin.txt'"
touch "$T/clear-silent"
FREE=0 OVERFLOW=true bmc silent "" 3 --clear-sel
rm -f "$T/clear-silent"
check "a clear that failed silently (exit 0, the log as it was): ERROR, never a PASS" sh -c \
	"[ \$(cat '$T/silent.rc') = 1 ] && grep -qx 'sel clear' '$T/calls' && cmp -s '$T/sel.txt' '$T/silent/bmc-sel-before-clear.txt' &&
	 grep -qF \"bmc       ERROR    the BMC's event log was not cleared: ipmitool sel clear exited 0, but 10 s later the BMC still counted 1200 records and its overflow\" '$T/silent/burnin.txt'"
# nearly full: a note with its figures, the burn-in goes on
FREE=960 bmc nearly ""
check "a nearly full log (room for 60 records): PASS, a note with its figures" sh -c \
	"[ \$(cat '$T/nearly.rc') = 0 ] && grep -qF \"the BMC's event log is nearly full (1200 records, 95.2% used (960 bytes free: room for 60 more))\" '$T/nearly/burnin.txt'"
check "... sel_used_percent 95.2" comp nearly "round(c['figures']['sel_used_percent']['value'], 1) == 95.2"
LOG=$T/sel4096.txt FREE=4096 bmc pct ""
check "4096 records, 4 KiB free: ipmitool says 0% used; bootbench's own sum, 94.1%, nearly full" sh -c \
	"PATH='$T/bin:$PATH' ipmitool sel info | grep -q '^Percent Used     : 0%\$' && [ \$(cat '$T/pct.rc') = 0 ] &&
	 grep -qF \"nearly full (4096 records, 94.1% used (4096 bytes free: room for 256 more))\" '$T/pct/burnin.txt'"
touch "$T/info-fails"
bmc noinfo ""
rm -f "$T/info-fails"
check "the log's state cannot be read (sel info fails): ERROR saying so" sh -c \
	"[ \$(cat '$T/noinfo.rc') = 1 ] && grep -qF \"bmc       ERROR    the BMC's event log's state could not be read at the start (ipmitool sel info, exit 1)\" '$T/noinfo/burnin.txt'"
# during the burn-in: a log that fills, one that wraps, one cleared
echo 0 > "$T/free-end"; echo true > "$T/overflow-end"
FREE=320 bmc fills " 4b1 | 06/01/2024 | 10:00:00 | System Event #0x83 | Timestamp Clock Sync | Asserted
"
rm -f "$T/free-end" "$T/overflow-end"
check "a log that fills during the burn-in (nothing critical seen): ERROR, not PASS" sh -c \
	"[ \$(cat '$T/fills.rc') = 1 ] && grep -qF \"bmc       ERROR    the BMC's event log filled during the burn-in (1201 records, 100.0% used (0 bytes free: room for 0 more), overflow: the BMC has dropped events)\" '$T/fills/burnin.txt'"
echo wrap > "$T/end-action"
bmc wrap "$(for i in 1 2 3 4 5; do printf ' 4b%d | 06/01/2024 | 10:00:0%d | System Event #0x83 | Timestamp Clock Sync | Asserted\n' $i $i; done)
"
check "a log that wraps (its 5 oldest records overwritten by 5 new): the 5 new read, PASS with a note" sh -c \
	"[ \$(cat '$T/wrap.rc') = 0 ] && grep -qF 'its 5 oldest records were overwritten during the burn-in' '$T/wrap/burnin.txt'" 
check "... 5 new events" comp wrap "c['figures']['sel_new_events']['value'] == 5"
echo cleared > "$T/end-action"
bmc midclear " 1 | 06/01/2024 | 10:00:00 | Event Logging Disabled SEL | Log area reset/cleared | Asserted
"
rm -f "$T/end-action"
check "a log cleared during the burn-in (every record of the start gone): ERROR, not PASS" sh -c \
	"[ \$(cat '$T/midclear.rc') = 1 ] && grep -qF 'bmc       ERROR    1200 of the 1200 records the BMC' '$T/midclear/burnin.txt'"

# unattended (rootfs/etc/rc.d/50-unattended.sh): bootbench.clear_sel=on is
# --clear-sel, the log saved in the run's results folder
unattended_root
printf '#!/bin/sh\necho "$*" >> "%s/unattended.args"\nBOOTBENCH_SYSROOT=%s exec "%s" "$@"\n' "$T" "$R" "$BB" > "$T/ubin/bootbench"
chmod +x "$T/ubin/bootbench"
rm -f "$T/elist.calls" "$T/calls" "$T/ended"
cp "$T/sel.txt" "$T/log"; : > "$T/new.txt"; echo 3 > "$T/end-at"; echo 0 > "$T/free"; echo true > "$T/overflow"
PATH="$T/ubin:$T/bin:$PATH" ROOT="$T/uroot" BB_RUNDIR="$T/urun" BB_RUN=burnin BB_BURNIN=bmc BB_CLEAR_SEL=on \
	BB_SAVE=console BB_AFTER=menu \
	$SH -c '. rootfs/lib/bootbench/boot.sh; BB_PARAM_ERRORS=""; . rootfs/etc/rc.d/50-unattended.sh' > "$T/unattended.log" 2>&1
check "unattended, bootbench.clear_sel=on: bootbench burnin --clear-sel, the log saved with the results and cleared" sh -c \
	"grep -q -- '--clear-sel' '$T/unattended.args' && grep -qx 'sel clear' '$T/calls' &&
	 cmp -s '$T/sel.txt' '$T/urun/results/run/bmc-sel-before-clear.txt' && [ \$(cat '$T/urun/results/run/status') = 0 ]"
finish
