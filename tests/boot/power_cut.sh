# SPDX-License-Identifier: MIT
# timeout: 600
# Boot test (issue 20): the power cut during a save to the stick, 20 times.
# The guest boots from a qcow2 copy of the stick, saves an older results
# folder, then starts a save of a new one after a few seconds' sleep, and
# QEMU's state is snapshotted (savevm) during that sleep. Each cut starts
# QEMU from that snapshot (the stick as it was, the save about to start),
# waits for the save to begin and kills QEMU (SIGKILL) at a random moment
# of it; the last cut comes the moment the save reports done. Then, on the stick as the cut left it: fsck.fat -n is run (its
# verdict is counted), mtools reads the FAT, the older folder is intact
# (its manifest checks), and the new folder is either absent or complete
# (its manifest checks and lists every file). The stick is slowed to
# 256 KB/s so the save lasts seconds and the cuts spread over it.
# Not beside the unit, CLI and sanitizer lane: its cuts are timed against a
# measured save, and beside the sanitizer runs a guest resumed from the
# snapshot stalled past 120 s (beside another boot test it has passed).
# quiet
. tests/bootlib.sh
need_artifacts
need_commands tmux mcopy mdir qemu-img fsck.fat python3
CUTS=${CUTS:-20}
THROTTLE=262144
stick_with_conf "$T/stick.raw"
qemu-img convert -f raw -O qcow2 "$T/stick.raw" "$T/stick.qcow2" || { bad "the stick is converted to qcow2"; finish; }
console_boot 160 50 "--fw bios --usb '$T/stick.qcow2' --monitor '$T/mon'"
step "the menu comes up on the serial console" "Esc goes back" 240
keys 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30
# folders of text files: the older one saved now, the new one at each cut
FILL='for i in $(seq 1 8); do seq 1 1800 | sed "s/.*/result & of file $i: 0123456789abcdefghijklmnopqrstuvwxyz/" > f$i.txt; done'
type_line "clear; mkdir -p /tmp/old /tmp/new && (cd /tmp/old && $FILL) && (cd /tmp/new && $FILL && echo new > id.txt) && bootbench save --stick=/media/bootbench usb /tmp/old > /dev/null; echo OLD=\$?"
step_result "the older folder is saved" OLD "OLD=0" 120
# slowed now, after the boot (the stick stays attached as the boot medium: the
# save goes to it)
monitor "$T/mon" "block_set_io_throttle stick $THROTTLE 0 0 0 0 0" > /dev/null
# the snapshot the moment the sleep begins: each resume waits out the rest
# of it (a second and a half, of each of 21 runs)
type_line "clear; sync; echo SLEEP-BEGINS; sleep 1.5; echo SAVE-START; bootbench save --stick=/media/bootbench usb /tmp/new; echo SAVE-END=\$?"
wait_for "^SLEEP-BEGINS" 30 E
monitor "$T/mon" "savevm cut" > "$T/savevm.out"
monitor "$T/mon" "info snapshots" > "$T/snapshots"
check "the snapshot is taken during the sleep" grep -q ' cut ' "$T/snapshots" || cat "$T/savevm.out" "$T/snapshots"
monitor "$T/mon" "quit" > /dev/null
sleep 1
$TM kill-server 2>/dev/null

# stick_now: the stick as it is now, raw, in $T/now.raw. A QEMU killed a
# moment ago can still hold its lock on the image after pgrep no longer
# sees it (the kernel drops a dying process's command line before its open
# files: seen in a fresh root under load), so the copy is tried again for
# 20 s; a stale now.raw is never read.
stick_now() {
	rm -f "$T/now.raw"
	i=0
	until qemu-img convert -f qcow2 -O raw "$T/stick.qcow2" "$T/now.raw" 2> "$T/convert.err"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { cat "$T/convert.err"; return 1; }
		sleep 0.2
	done
}
# the older folder as saved, for comparing
stick_now
mcopy -s -n -i "$T/now.raw@@1M" ::/results/old "$T/" 2>/dev/null
check "the older folder is on the stick, with its manifest" [ -s "$T/old/MANIFEST.sha256" ]
old_sum=$(cd "$T/old" && cat MANIFEST.sha256 f*.txt | sha256sum)

# resume RESULTLOG: QEMU from the snapshot in the background ($qpid), booted
# as the snapshot's guest was (--direct: the same kernel and option ROMs)
resume() {
	: > "$1"
	scripts/qemu.sh --fw bios --usb "$T/stick.qcow2" $(direct) --throttle $THROTTLE --loadvm cut --serial "$1" \
		--timeout 120 > /dev/null 2>&1 &
	qpid=$!
}
# power_off_now RESULTLOG: SIGKILL to that QEMU; returns once it is gone
# (and its lock on the stick with it)
power_off_now() {
	pkill -9 -f "qemu-system.*file:$1"
	while pgrep -f "qemu-system.*file:$1" > /dev/null; do sleep 0.1; done
	wait $qpid 2>/dev/null
}
# wait_serial FILE PATTERN SECONDS
wait_serial() {
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
# folder_state NAME: "absent", "complete" or what is wrong with it (on $T/now.raw)
folder_state() {
	rm -rf "$T/check"; mkdir -p "$T/check"
	mdir -b -i "$T/now.raw@@1M" "::/results/$1" > /dev/null 2>&1 || { echo absent; return; }
	mcopy -s -n -i "$T/now.raw@@1M" "::/results/$1" "$T/check/" 2> "$T/mcopy.err" ||
		{ echo "unreadable: $(head -c 300 "$T/mcopy.err" | tr '\n' ' ')"; return; }
	(
		cd "$T/check/$1" || exit 1
		[ -s MANIFEST.sha256 ] || { echo "no manifest"; exit 0; }
		sha256sum -c --quiet MANIFEST.sha256 > /dev/null 2>&1 || { echo "manifest does not check"; exit 0; }
		listed=$(awk '{ print $2 }' MANIFEST.sha256 | sort | tr '\n' ' ')
		have=$(ls | grep -v '^MANIFEST.sha256$' | sort | tr '\n' ' ')
		[ "$listed" = "$have" ] || { echo "files not in the manifest: $have vs $listed"; exit 0; }
		echo complete
	)
}

# fsck_beyond_cut LOG: what fsck.fat -n found beyond what a cut leaves and
# the kernel mounts as it is: the dirty flag (set in the boot sector, not in
# its backup), a free cluster count gone stale, the two FAT copies differing
# while both are intact (the cut fell between the kernel's writes of the first
# copy and its mirror; fsck.fat says "appear to be intact" only when each
# copy checks, and names a corrupt one otherwise), and files of the
# unfinished temporary folder whose cluster chains were not yet written (the
# next save removes that folder)
fsck_beyond_cut() {
	awk '/^\// { partial = $0 ~ /^\/RESULTS\/\.[^\/]*\.partial(\/|$)/; if (partial) next }
		/^  / && partial { next }
		{ partial = 0; print }' "$1" |
		grep -v "^fsck.fat \|^There are differences between boot sector and its backup\.\|^This is mostly harmless\|^  65:01/00\$\|^  Not automatically fixing this\.\|^Dirty bit is set\|^ Automatically removing dirty bit\|^Free cluster summary wrong\|^Reclaimed [0-9]* unused clusters\? ([0-9]* bytes)\.\|^FATs differ but appear to be intact\.\|^  Using first FAT\.\|^  Auto-correcting\.\|^Leaving filesystem unchanged\|^/.*part.img: [0-9]* files\|^ *\$"
}

# The save without a cut: how long it takes, and that it completes.
resume "$T/full.log"
if wait_serial "$T/full.log" SAVE-START 60; then
	t0=$(date +%s%N)
	wait_serial "$T/full.log" 'SAVE-END=' 120
	dur_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	check "the save from the snapshot completes, exit 0 (${dur_ms} ms)" grep -q 'SAVE-END=0' "$T/full.log"
else
	bad "QEMU resumes from the snapshot and the save starts"
	tail -n 20 "$T/full.log"
	finish
fi
power_off_now "$T/full.log"
stick_now
state=$(folder_state new)
check "... and the new folder is complete on the stick ($state)" [ "$state" = complete ]

# The cuts: at a random moment between the start of the save and its end.
clean=0 dirty=0 complete=0 absent=0 wrong=0 moments=""
for n in $(seq 1 "$CUTS"); do
	resume "$T/cut$n.log"
	if ! wait_serial "$T/cut$n.log" SAVE-START 60; then
		bad "cut $n: the save starts"
		continue
	fi
	if [ "$n" = "$CUTS" ]; then
		# the last one the moment the save says it is done: what it reported
		# saved (fsync'd, the rename too) must survive it. Timed cuts alone
		# can all fall before the rename when these runs go slower than the
		# measured one (a loaded host: 20 of 20 absent once)
		wait_serial "$T/cut$n.log" 'SAVE-END=' 120 || bad "cut $n: the save ends"
		ms=end
	else
		# random, spread over the save: the n-th cut in the n-th of CUTS-1
		# equal slices of it (and a little past its end)
		ms=$(python3 -c "import random; print(int(($n - 1 + random.random()) * $dur_ms * 1.05 / ($CUTS - 1)))")
		sleep "$(python3 -c "print($ms / 1000)")"
	fi
	moments="$moments $ms"
	power_off_now "$T/cut$n.log"
	stick_now
	dd if="$T/now.raw" of="$T/part.img" bs=1M skip=1 status=none
	fsck.fat -n "$T/part.img" > "$T/fsck$n.log" 2>&1
	other=$(fsck_beyond_cut "$T/fsck$n.log")
	if grep -q '^Dirty bit is set\|Reclaimed' "$T/fsck$n.log"; then
		dirty=$((dirty + 1))
	else
		clean=$((clean + 1))
	fi
	if [ -n "$other" ]; then
		bad "cut $n at $ms ms: fsck.fat -n finds only the dirty flag and unattached clusters"
		sed 's/^/    /' "$T/fsck$n.log"
		wrong=$((wrong + 1))
	fi
	old=$(folder_state old)
	[ "$old" = complete ] && [ "$(cd "$T/check/old" && cat MANIFEST.sha256 f*.txt | sha256sum)" = "$old_sum" ] ||
		{ bad "cut $n at $ms ms: the older folder is intact ($old)"; wrong=$((wrong + 1)); }
	new=$(folder_state new)
	case "$new" in
	complete) complete=$((complete + 1)) ;;
	absent) absent=$((absent + 1)) ;;
	*) bad "cut $n at $ms ms: the new folder is complete or absent ($new)"; wrong=$((wrong + 1)) ;;
	esac
	echo "cut $n at $ms ms of $dur_ms: new folder $new"
	[ "$ms" != end ] || end_state=$new
done
check "a cut the moment the save reported it done leaves the new folder complete (${end_state:-no such cut})" [ "${end_state:-}" = complete ]
echo "cuts: $CUTS at ms$moments; new folder complete $complete, absent $absent; fsck.fat -n clean $clean, dirty flag or unattached clusters only $dirty"
check "every cut left a FAT the kernel mounts, the older folder intact, the new one complete or absent" [ $wrong = 0 ]
check "the cuts fell on both sides of the rename (some complete, some absent)" [ $((complete * absent)) -gt 0 ]
finish
