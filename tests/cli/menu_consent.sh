# SPDX-License-Identifier: MIT
# The consent gate's screen (menu-lib.sh's consent) at a serial console's
# 80x24 (issue 48), drawn by the image's own dialog with its own libraries
# and terminfo (out/rootfs, through its loader; TERM and DIALOGOPTS as the
# console sets them): with 3 disks and with 24, every device named is on
# the screen, the box fits (tests/screen_fits.py) and its OK button is
# drawn (with a fixed height, 24 disks pushed it off the box). Typing the
# names exactly consents (exit 0); another answer does not.
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
finish
