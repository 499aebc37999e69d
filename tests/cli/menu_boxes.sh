# SPDX-License-Identifier: MIT
# The menu's boxes that grow with the machine, at a serial console's 80x24
# (issue 48), drawn by the image's own dialog with its own libraries and
# terminfo (out/rootfs, through its loader; TERM and DIALOGOPTS as the
# console sets them):
#   - the consent gate (menu-lib.sh's consent) with 3 disks and with 24:
#     every device named is on the screen, the box fits
#     (tests/screen_fits.py) and its OK button is drawn (with a fixed
#     height, 24 disks pushed it off the box); typing the names exactly
#     consents (exit 0), another answer does not; with 60, more than the
#     box holds, the names are listed first (scrolled to the end), then
#     asked for, and all 60 typed consent;
#   - Erase's live table (erase_table, in 38-erase.sh's infobox) with 24
#     disks: the box fits, its columns kept, and the disks past the 17 it
#     has rows for are counted on a line of their own (they had been cut
#     off unseen);
#   - a profile's gauge on 24 disks: its title counts them (the list ran
#     over the box's border, cut unmarked).
# tier: image (not in make check: it reads the built image)
. tests/lib.sh
R=$PWD/out/rootfs
[ -x "$R/usr/bin/dialog" ] || { echo "out/rootfs is missing: run 'make image'"; exit 1; }
need_commands tmux python3
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec %s/lib64/ld-linux-x86-64.so.2 --library-path %s/lib/x86_64-linux-gnu:%s/usr/lib/x86_64-linux-gnu %s/usr/bin/dialog "$@"\n' \
	"$R" "$R" "$R" "$R" > "$T/bin/dialog"
chmod +x "$T/bin/dialog"
TM="tmux -L bbconsent$$"
trap '$TM kill-server 2>/dev/null; cleanup' EXIT
# gate NAME ANSWER DEVICES...: consent for DEVICES at 80x24; the screen in
# $T/NAME.screen, then ANSWER typed; its exit status in $T/NAME.rc
gate() {
	n=$1 answer=$2; shift 2
	$TM new-session -d -s "$n" -x 80 -y 24 "env PATH='$T/bin:$PATH' TERMINFO='$R/usr/share/terminfo' TERM=vt100 \
		DIALOGOPTS=--ascii-lines sh -c '. rootfs/lib/bootbench/menu-lib.sh; consent $*; echo \$? > $T/$n.rc'; sleep 60"
	i=0; until $TM capture-pane -p -t "$n" | grep -q 'Type the device names'; do
		i=$((i + 1)); [ $i -lt 50 ] || break; sleep 0.2
	done
	sleep 0.5
	$TM capture-pane -p -t "$n" > "$T/$n.screen"
	sed 's/^/    /' "$T/$n.screen" | grep -v '^ *$'
	$TM send-keys -t "$n" "$answer" Enter
	i=0; until [ -s "$T/$n.rc" ] || [ $i -ge 50 ]; do i=$((i + 1)); sleep 0.2; done
}
all_named() { # NAME DEVICES...: each device on the screen
	_screen=$T/$1.screen; shift
	for _dev; do grep -q -- "$_dev\( \|$\)" "$_screen" || { echo "    not on the screen: $_dev"; return 1; }; done
}
few="/dev/vda /dev/vdb /dev/nvme0n1"
gate few "$few" $few
check "3 disks: the box fits 80x24" sh -c "python3 tests/screen_fits.py < '$T/few.screen'"
check "... every disk named on it" all_named few $few
check "... its OK button drawn" grep -q '<  OK  >' "$T/few.screen"
check "... the names typed exactly: consent, exit 0" [ "$(cat "$T/few.rc" 2>/dev/null)" = 0 ]
many=$(i=0; while [ $i -lt 24 ]; do printf '/dev/nvme%dn1 ' $i; i=$((i + 1)); done)
gate many "/dev/nvme0n1" $many
check "24 disks: the box fits 80x24" sh -c "python3 tests/screen_fits.py < '$T/many.screen'"
check "... every disk named on it" all_named many $many
check "... its OK button drawn" grep -q '<  OK  >' "$T/many.screen"
check "... one name typed of 24: no consent" [ "$(cat "$T/many.rc" 2>/dev/null)" = 1 ]
# a shelf of 60: more names than the box holds with its question. They are listed first, one a
# line, scrolled (the first page, then the end), then asked for: no name is off the screen unseen
# (the box had clipped them at 23 rows: past about 52 names of /dev/sdXY's length, 45 of NVMe's)
shelf=$(i=0; while [ $i -lt 60 ]; do printf '/dev/nvme%dn1 ' $i; i=$((i + 1)); done)
$TM new-session -d -s shelf -x 80 -y 24 "env PATH='$T/bin:$PATH' TERMINFO='$R/usr/share/terminfo' TERM=vt100 \
	DIALOGOPTS=--ascii-lines sh -c '. rootfs/lib/bootbench/menu-lib.sh; consent $shelf; echo \$? > $T/shelf.rc'; sleep 60"
until_shown() { # SESSION TEXT
	i=0; until $TM capture-pane -p -t "$1" | grep -q -- "$2"; do i=$((i + 1)); [ $i -lt 50 ] || return 1; sleep 0.2; done
	sleep 0.5
}
until_shown shelf 'these 60 disks will be overwritten'
$TM capture-pane -p -t shelf > "$T/shelf1.screen"
sed 's/^/    /' "$T/shelf1.screen" | grep -v '^ *$'
check "60 disks: listed first, in a box that fits 80x24, its title counting them" sh -c \
	"python3 tests/screen_fits.py < '$T/shelf1.screen' && grep -q 'Consent: these 60 disks will be overwritten' '$T/shelf1.screen'"
check "... one a line from the first" all_named shelf1 $(echo $shelf | cut -d' ' -f1-15)
$TM send-keys -t shelf G
sleep 1
$TM capture-pane -p -t shelf > "$T/shelf2.screen"
sed 's/^/    /' "$T/shelf2.screen" | grep -v '^ *$'
check "... the last reached by scrolling" all_named shelf2 $(echo $shelf | cut -d' ' -f50-60)
$TM send-keys -t shelf Enter
until_shown shelf 'Type the 60 device names'
$TM capture-pane -p -t shelf > "$T/shelf3.screen"
sed 's/^/    /' "$T/shelf3.screen" | grep -v '^ *$'
check "... then the question, which fits, names the first and the last, and has its OK button" sh -c \
	"python3 tests/screen_fits.py < '$T/shelf3.screen' && grep -q '($(echo $shelf | cut -d' ' -f1) to $(echo $shelf | cut -d' ' -f60))' '$T/shelf3.screen' &&
	 grep -q '<  OK  >' '$T/shelf3.screen'"
$TM send-keys -t shelf "$(echo $shelf)" Enter
i=0; until [ -s "$T/shelf.rc" ] || [ $i -ge 50 ]; do i=$((i + 1)); sleep 0.2; done
check "... all 60 typed exactly: consent, exit 0" [ "$(cat "$T/shelf.rc" 2>/dev/null)" = 0 ] ||
	$TM capture-pane -p -t shelf | sed 's/^/    /' | grep -v '^ *$'
# the live table of 24 disks being erased, the last 7 of them (21-24 ended: 22, with errors, not
# erased) past its rows
i=1; while [ $i -le 24 ]; do
	case $i in 22) p=not-erased ;; 2[1-4]) p=erased ;; *) p=erasing ;; esac
	echo "erase nvme${i}n1 $p 1 1 50.0 120.5 30 $([ $i = 22 ] && echo 3 || echo 0)"
	i=$((i + 1))
done > "$T/progress"
( . rootfs/lib/bootbench/menu-lib.sh; erase_table "$T/progress" "$T/table" )
$TM new-session -d -s table -x 80 -y 24 "env PATH='$T/bin:$PATH' TERMINFO='$R/usr/share/terminfo' TERM=vt100 \
	DIALOGOPTS=--ascii-lines sh -c '. rootfs/lib/bootbench/menu-lib.sh; erase_table_box $T/table'; sleep 60"
i=0; until $TM capture-pane -p -t table | grep -q 'and 7 more'; do i=$((i + 1)); [ $i -lt 50 ] || break; sleep 0.2; done
$TM capture-pane -p -t table > "$T/table.screen"
sed 's/^/    /' "$T/table.screen" | grep -v '^ *$'
check "Erase's live table, 24 disks: the box fits 80x24" sh -c "python3 tests/screen_fits.py < '$T/table.screen'"
check "... the first 17 disks a row each" all_named table $(i=1; while [ $i -le 17 ]; do printf 'nvme%dn1 ' $i; i=$((i + 1)); done)
check "... the other 7 on a line: how many erased, NOT erased, not yet, their errors" \
	grep -q 'and 7 more: 3 erased, 1 NOT erased, 3 not yet; 3 errors' "$T/table.screen"
check "... its columns kept: each row's phase, done and errors under their headings" python3 - "$T/table.screen" <<'PY'
import re, sys
rows = open(sys.argv[1]).read().split("\n")
head = next(r for r in rows if "PHASE" in r)
phase = head.index("PHASE")
done_end, errors_end = head.index("DONE") + 4, head.index("ERRORS") + 6	# right-aligned: their ends
disks = [r for r in rows if re.search(r"\| nvme\d+n1 ", r)]
ok = len(disks) == 17 and all(r[phase:phase + 7] == "erasing" and r[done_end - 5:done_end] == "50.0%"
                              and r[errors_end - 1] == "0" and r[errors_end] == " " for r in disks)
sys.exit(0 if ok else 1)
PY
# the gauge of a profile run on 24 disks (30-profile.sh's title): the disks
# counted in the title, first and last named, the box's corners kept
targets=$(i=0; while [ $i -lt 24 ]; do printf ' /dev/nvme%dn1' $i; i=$((i + 1)); done)
printf 'XXX\n40\nrandread-4k-qd32\n\nElapsed 10 s, about 15 s left\nXXX\n' > "$T/gauge.in"
$TM new-session -d -s gauge -x 80 -y 24 "env PATH='$T/bin:$PATH' TERMINFO='$R/usr/share/terminfo' TERM=vt100 \
	DIALOGOPTS=--ascii-lines sh -c '. rootfs/lib/bootbench/menu-lib.sh; (cat $T/gauge.in; sleep 5) |
	dialog --title \"\$(titled_on 72 quick $targets)\" --gauge Starting... 14 72 0'; sleep 60"
i=0; until $TM capture-pane -p -t gauge | grep -q '40%'; do i=$((i + 1)); [ $i -lt 50 ] || break; sleep 0.2; done
$TM capture-pane -p -t gauge > "$T/gauge.screen"
sed 's/^/    /' "$T/gauge.screen" | grep -v '^ *$'
check "a profile's gauge on 24 disks: the box fits 80x24" sh -c "python3 tests/screen_fits.py < '$T/gauge.screen'"
check "... its title counts them, names the first and last, inside the border's corners" \
	grep -qE '^ *\+-+ quick on 24 disks: /dev/nvme0n1 \.\.\. /dev/nvme23n1 -+\+$' "$T/gauge.screen"
finish
