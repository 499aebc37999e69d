#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench-image ARCH=arm64` (issue 47): what the arm64 image costs,
# measured, as scripts/bench-image.sh does for x86_64.
#   sizes   kernel + the base initramfs (target <= 26 MB), each pack, the
#           stick (<= 64 MB, every pack on it), the ISO
#   boot    seconds from QEMU start (qemu-system-aarch64 -M virt, TCG,
#           AAVMF) to the menu on the serial console: the stick through
#           shim and GRUB; its kernel and every pack handed over by QEMU
#           (AAVMF loads them); and the floor measured in the same run: the
#           same kernel with a busybox-only initramfs whose init says so
#           and powers off. Rounds interleaved, medians compared.
#   bytes   the image built a second time from the same dl/arm64 into
#           out/arm64-repro with no cache (BENCH_REPRO=0 leaves it out), the
#           checksums of both compared
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/out/arm64
B=$OUT/bench-image
ROUNDS=${ROUNDS:-3}
LIMIT=240
QEMU_SH=$ROOT/scripts/qemu-arm64.sh
mkdir -p "$B"
. "$ROOT/scripts/bench-boot.sh"
packs=$(awk '!/^[[:space:]]*#/ && NF && $1 != "base" { print $2 }' "$ROOT/image/packs.table" |
	while read -r f; do [ ! -e "$OUT/$f" ] || echo "$f"; done)

floor_image "$OUT/busybox/busybox" "$B/floor.img"
cat "$OUT/initramfs.img" $(for f in $packs; do echo "$OUT/$f"; done) > "$B/all.img"
CMDLINE="console=ttyAMA0,115200 quiet"
cp "$OUT/bootbench-usb.img" "$B/stick.img"
: > "$B/floor.t"; : > "$B/kernel.t"; : > "$B/usb.t"
for r in $(seq "$ROUNDS"); do
	timed_boot "floor: powering off" --kernel "$OUT/vmlinuz" --initrd "$B/floor.img" --append "$CMDLINE" >> "$B/floor.t"
	timed_boot "Esc goes back" --kernel "$OUT/vmlinuz" --initrd "$B/all.img" --append "$CMDLINE" >> "$B/kernel.t"
	timed_boot "Esc goes back" --usb "$B/stick.img" >> "$B/usb.t"
	echo "round $r: floor $(tail -n1 "$B/floor.t") s, every pack $(tail -n1 "$B/kernel.t") s, USB stick $(tail -n1 "$B/usb.t") s" >&2
done
floor=$(median < "$B/floor.t") kern=$(median < "$B/kernel.t") usb=$(median < "$B/usb.t")

echo
echo "bootbench arm64 image (qemu-system-aarch64 -M virt, TCG, AAVMF; $ROUNDS rounds, medians)"
table_head
# shellcheck disable=SC2086
size_rows 26 "kernel (signed, uncompressed)" $packs
row "kernel + every part (the stick's boot)" $all
u=$(size "$OUT/bootbench-usb.img")
target_row "USB image (every pack)" $u 64
row "ISO (every pack)" "$(size "$OUT/bootbench.iso")"
ratio() { awk -v a="$1" -v b="$floor" 'BEGIN { printf "%.2f", a / b }'; }
printf '  %-40s %9s s\n' "floor (busybox-only, to power-off)" "$floor"
printf '  %-40s %9s s %8s  %sx floor\n' "every pack handed over, to menu" "$kern" "" "$(ratio "$kern")"
printf '  %-40s %9s s %8s  %sx floor\n' "USB stick (AAVMF, shim, GRUB) to menu" "$usb" "" "$(ratio "$usb")"

[ "${BENCH_REPRO:-1}" = 1 ] || exit 0
echo
echo "a second build of the same commit (out/arm64-repro), from scratch"
rm -rf "$ROOT/out/arm64-repro"
BOOTBENCH_CACHE=off make -C "$ROOT" --no-print-directory ARCH=arm64 OUT=out/arm64-repro image > "$B/repro.log" 2>&1 ||
	{ tail -n 20 "$B/repro.log"; echo "bench-image: the second build failed ($B/repro.log)" >&2; exit 1; }
sums() { (cd "$1" && sha256sum vmlinuz initramfs.img $packs bootbench-usb.img bootbench.iso \
	$(find pxe -type f | LC_ALL=C sort)); }
sums "$OUT" > "$B/first.sums"
sums "$ROOT/out/arm64-repro" > "$B/second.sums"
if cmp -s "$B/first.sums" "$B/second.sums"; then
	echo "  $(wc -l < "$B/first.sums") files, the same bytes"
else
	diff "$B/first.sums" "$B/second.sums" | sed 's/^/  /'
	echo "bench-image: the two builds differ" >&2
	exit 1
fi
