# SPDX-License-Identifier: MIT
# bench-boot.sh: sourced by scripts/bench-image.sh and bench-image-arm64.sh:
# sizes in MB, a boot timed to a line on its serial console, medians.
# Needs ROOT, OUT (the image's folder) and B (the bench's folder) set;
# QEMU_SH the machine's QEMU script (scripts/qemu.sh unless set), LIMIT a
# boot's seconds at most.
MB() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
size() { stat -c %s "$1"; }
# The table: a header, a size's row, and one held to a target (ok/MISSED)
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? "ok" : "MISSED" }'; }
table_head() { printf '  %-40s %10s %10s %s\n' "measure" "value" "target" "verdict"; }
row() { printf '  %-40s %8s MB %10s\n' "$1" "$(MB "$2")" ""; }
target_row() { printf '  %-40s %8s MB %7s MB %s\n' "$1" "$(MB "$2")" "$3" "$(verdict "$(MB "$2")" "$3")"; }
# size_rows TARGET-MB KERNEL-LABEL PACK...: the kernel and base initramfs
# ($OUT's) against TARGET, then each pack's row; sets kt (kernel + base)
# and all (kernel + every part, the stick's boot)
size_rows() {
	_target=$1 _label=$2; shift 2
	kt=$(( $(size "$OUT/vmlinuz") + $(size "$OUT/initramfs.img") ))
	target_row "kernel + base initramfs" $kt "$_target"
	row "  $_label" "$(size "$OUT/vmlinuz")"
	row "  base initramfs (initramfs.img)" "$(size "$OUT/initramfs.img")"
	all=$kt
	for _f; do
		row "  pack $_f" "$(size "$OUT/$_f")"
		all=$((all + $(size "$OUT/$_f")))
	done
}
# The floor's initramfs: BUSYBOX and an init that says so and powers off
# ("floor: powering off"), the least a boot to userland can be.
floor_image() { # busybox img
	rm -rf "$B/floor"; mkdir -p "$B/floor/bin"
	cp "$1" "$B/floor/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo floor: powering off\n/bin/busybox poweroff -f\n' > "$B/floor/init"
	chmod 755 "$B/floor/init"
	(cd "$B/floor" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | zstd -q -12 > "$2"
}

# Seconds from QEMU start until the serial log has the marker (or QEMU exits
# when the marker is empty: the unpack probe). One process watches the log
# (read every 10 ms, in place: a loop of grep and sleep took a quarter of a
# second from a 2-core host's guest; grep on tail -f waits for a newline,
# which dialog's screen does not end with). Every boot, the floor's too, is
# timed to a line on its serial console by the same watch.
watch_log() { # log marker pid: the time the marker appeared; fails if QEMU ended first
	python3 -c '
import os, sys, time
log, marker, pid = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
while True:
    with open(log, "rb") as f:
        if marker in f.read():
            print("%.3f" % time.time())
            sys.exit(0)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(1)
    time.sleep(0.01)' "$@"
}
timed_boot() { # marker qemu.sh-options...
	marker=$1; shift
	log=$B/serial.log
	rm -f "$log"; : > "$log"
	start=$(date +%s.%N)
	setsid "${QEMU_SH:-$ROOT/scripts/qemu.sh}" --serial "$log" --timeout "${LIMIT:-180}" "$@" >/dev/null 2>&1 &
	pid=$!
	if [ -z "$marker" ]; then
		wait $pid || true
		end=$(date +%s.%N)
	else
		end=$(watch_log "$log" "$marker" $pid) ||
			{ end=$(date +%s.%N); echo "bench-image: boot did not reach '$marker'" >&2; tail -5 "$log" >&2; }
	fi
	/bin/kill -TERM -- -$pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	[ -n "$marker" ] || grep -q "probe: unpack" "$log" || { echo "bench-image: the probe did not report" >&2; tail -5 "$log" >&2; }
	awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
