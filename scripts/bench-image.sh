#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench-image`: what the image costs, measured.
#   sizes   kernel + initramfs (target <= 40 MB), the ZFS part beside it,
#           USB image (<= 64 MB), ISO
#   boot    seconds from QEMU start to the menu on the serial console (its
#           first screen), against the floor measured in the same run:
#           the same kernel with a busybox-only initramfs that powers off at
#           once (QEMU start to QEMU exit). Target: <= 1.5x the floor.
# Both boot the same way (-kernel/-initrd, SeaBIOS, same devices); the USB
# stick's own boot (SeaBIOS + syslinux) is measured beside them. Rounds are
# interleaved and the medians compared, since TCG timings drift.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/out
B=$OUT/bench-image
ROUNDS=${ROUNDS:-3}
LIMIT=180
mkdir -p "$B"
MB() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
size() { stat -c %s "$1"; }

# The floor's initramfs: busybox and an init that powers off.
rm -rf "$B/floor"; mkdir -p "$B/floor/bin"
cp "$OUT/busybox/busybox" "$B/floor/bin/busybox"
printf '#!/bin/busybox sh\n/bin/busybox echo floor: powering off\n/bin/busybox poweroff -f\n' > "$B/floor/init"
chmod 755 "$B/floor/init"
(cd "$B/floor" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | zstd -q -12 > "$B/floor.img"

CMDLINE="console=tty0 console=ttyS0,115200 quiet"

# Seconds from QEMU start until the serial log has the marker (or QEMU exits
# when the marker is empty).
timed_boot() { # marker qemu.sh-options...
	marker=$1; shift
	log=$B/serial.log
	rm -f "$log"; : > "$log"
	start=$(date +%s.%N)
	setsid "$ROOT/scripts/qemu.sh" --serial "$log" --timeout $LIMIT "$@" >/dev/null 2>&1 &
	pid=$!
	if [ -z "$marker" ]; then
		wait $pid || true
	else
		while ! grep -q "$marker" "$log" 2>/dev/null; do
			kill -0 $pid 2>/dev/null || break
			sleep 0.05
		done
	fi
	end=$(date +%s.%N)
	grep -q "${marker:-floor: powering off}" "$log" || { echo "bench-image: boot did not reach '${marker:-power-off}'" >&2; tail -5 "$log" >&2; }
	/bin/kill -TERM -- -$pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

cp "$OUT/bootbench-usb.img" "$B/stick.img"
: > "$B/floor.t"; : > "$B/kernel.t"; : > "$B/usb.t"
scripts/qemu.sh --kernel "$OUT/vmlinuz" --initrd "$B/floor.img" --append "$CMDLINE" --serial /dev/null --timeout 60 >/dev/null 2>&1 || true
for r in $(seq "$ROUNDS"); do
	timed_boot "" --kernel "$OUT/vmlinuz" --initrd "$B/floor.img" --append "$CMDLINE" >> "$B/floor.t"
	timed_boot "Esc goes back" --kernel "$OUT/vmlinuz" --initrd "$OUT/initramfs.img" \
		--append "$CMDLINE" >> "$B/kernel.t"
	timed_boot "Esc goes back" --usb "$B/stick.img" >> "$B/usb.t"
	echo "round $r: floor $(tail -n1 "$B/floor.t") s, image $(tail -n1 "$B/kernel.t") s, USB stick $(tail -n1 "$B/usb.t") s" >&2
done
floor=$(median < "$B/floor.t") kern=$(median < "$B/kernel.t") usb=$(median < "$B/usb.t")

k=$(size "$OUT/vmlinuz") i=$(size "$OUT/initramfs.img")
echo
echo "bootbench image ($(cat "$OUT/qemu-accel"), $ROUNDS rounds, medians)"
printf '  %-36s %10s %10s %s\n' "measure" "value" "target" "verdict"
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? "ok" : "MISSED" }'; }
kt=$(( k + i ))
printf '  %-36s %8s MB %7s MB %s\n' "kernel + initramfs" "$(MB $kt)" 40 "$(verdict "$(MB $kt)" 40)"
printf '  %-36s %8s MB %10s\n' "  kernel" "$(MB $k)" ""
printf '  %-36s %8s MB %10s\n' "  initramfs (zstd)" "$(MB $i)" ""
# the ZFS part is optional (a rack may leave it out), so outside the bar; the
# stick and the ISO carry it, and the stick's boot loads it
z=$(size "$OUT/zfs.img")
printf '  %-36s %8s MB %10s\n' "ZFS part (zfs.img, optional)" "$(MB $z)" ""
printf '  %-36s %8s MB %10s\n' "kernel + initramfs + ZFS part" "$(MB $((kt + z)))" ""
u=$(size "$OUT/bootbench-usb.img")
printf '  %-36s %8s MB %7s MB %s\n' "USB image" "$(MB $u)" 64 "$(verdict "$(MB $u)" 64)"
printf '  %-36s %8s MB\n' "ISO" "$(MB "$(size "$OUT/bootbench.iso")")"
printf '  %-36s %9s s\n' "floor (busybox-only, to power-off)" "$floor"
ratio=$(awk -v a="$kern" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')
printf '  %-36s %9s s %8sx %s\n' "image, QEMU start to menu" "$kern" "<=1.5" "$ratio $(verdict "$ratio" 1.5)"
printf '  %-36s %9s s %8s  %sx floor\n' "USB stick (SeaBIOS+syslinux) to menu" "$usb" "" \
	"$(awk -v a="$usb" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')"
