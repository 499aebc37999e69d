#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench-image`: what the image costs, measured.
#   sizes   kernel + the base initramfs (target <= 24 MB), each pack
#           (image/packs.table), USB image (<= 48 MB, every pack on it), ISO
#   boot    seconds from QEMU start to the menu on the serial console (its
#           first screen), against the floor measured in the same run:
#           the same kernel with a busybox-only initramfs whose init says
#           so and powers off (QEMU start to that line). Target: <= 1.5x the floor, with
#           every pack (what the stick loads) and with the base alone.
#   unpack  the kernel's own time to unpack the base (dmesg: from "Trying to
#           unpack" to "Freeing initrd memory") as built (the large files
#           in a squashfs image) and with every file in the archive: the
#           archive xz or zstd, the modules each xz-compressed or not
#   bytes   the whole chain built a second time from the same dl/ into
#           out/repro (BENCH_REPRO=0 leaves it out: the ZFS modules alone take
#           minutes), and the checksums of both builds compared
# Boots are the same (-kernel/-initrd, SeaBIOS, same devices); the USB
# stick's own boot (SeaBIOS + syslinux) is measured beside them. Rounds are
# interleaved and the medians compared, since TCG timings drift.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# the boots measured are the image's own: the bzImage unpacks itself as a boot loader
# hands it over (qemu.sh would boot its vmlinux by the PVH entry, as the tests do)
export QEMU_BZIMAGE=1
OUT=$ROOT/out
B=$OUT/bench-image
ROUNDS=${ROUNDS:-3}
LIMIT=180
mkdir -p "$B"
. "$ROOT/scripts/bench-boot.sh"

floor_image "$OUT/busybox/busybox" "$B/floor.img"
# The parts as the boot loaders hand them to the kernel: one after another.
cat "$OUT/initramfs.img" $(awk '!/^[[:space:]]*#/ && NF && $1 != "base" { print "'"$OUT"'/" $2 }' "$ROOT/image/packs.table") > "$B/all.img"

# The unpack probe: an init appended after the archive under test, which
# prints the kernel's unpack span and powers off.
rm -rf "$B/probe"; mkdir -p "$B/probe/bin"
cp "$OUT/busybox/busybox" "$B/probe/bin/busybox"
cat > "$B/probe/init" <<'PROBE'
#!/bin/busybox sh
/bin/busybox dmesg | /bin/busybox awk '{ t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
	/Trying to unpack rootfs/ { s = t } /Freeing initrd memory/ { e = t }
	END { printf "probe: unpack %.3f s\n", e - s }'
/bin/busybox poweroff -f
PROBE
chmod 755 "$B/probe/init"
(cd "$B/probe" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | zstd -q -12 > "$B/probe.img"
# The base as built (its large files in a squashfs image the archive
# carries: scripts/build-rootfs.sh), and its whole tree in the archive four
# ways: the modules plain or xz-compressed each; the archive zstd -22 or
# xz -9 with the x86 filter.
cp "$OUT/initramfs.img" "$B/built"
rm -rf "$B/plain" "$B/xzmod"
cp -a "$OUT/rootfs" "$B/plain"
find "$B/plain/lib/modules" -name '*.ko.xz' -exec xz -d {} +
cp -a "$B/plain" "$B/xzmod"
find "$B/xzmod/lib/modules" -name '*.ko' -exec xz -9 --check=crc32 {} +
for tree in plain xzmod; do
	(cd "$B/$tree" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) > "$B/$tree.cpio"
	xz --x86 --lzma2=preset=9 -T2 --check=crc32 -c "$B/$tree.cpio" > "$B/$tree.xz"
	zstd --ultra -22 -T2 -q -c "$B/$tree.cpio" > "$B/$tree.zst"
	rm -rf "$B/$tree.cpio" "$B/$tree"
done

CMDLINE="console=tty0 console=ttyS0,115200 quiet"


cp "$OUT/bootbench-usb.img" "$B/stick.img"
: > "$B/floor.t"; : > "$B/kernel.t"; : > "$B/base.t"; : > "$B/usb.t"
for v in plain.zst plain.xz xzmod.zst xzmod.xz; do : > "$B/$v.t"; done
scripts/qemu.sh --kernel "$OUT/vmlinuz" --initrd "$B/floor.img" --append "$CMDLINE" --serial /dev/null --timeout 60 >/dev/null 2>&1 || true
for r in $(seq "$ROUNDS"); do
	timed_boot "floor: powering off" --kernel "$OUT/vmlinuz" --initrd "$B/floor.img" --append "$CMDLINE" >> "$B/floor.t"
	timed_boot "Esc goes back" --kernel "$OUT/vmlinuz" --initrd "$B/all.img" \
		--append "$CMDLINE" >> "$B/kernel.t"
	timed_boot "Esc goes back" --kernel "$OUT/vmlinuz" --initrd "$OUT/initramfs.img" \
		--append "$CMDLINE" >> "$B/base.t"
	timed_boot "Esc goes back" --usb "$B/stick.img" >> "$B/usb.t"
	for v in built plain.zst plain.xz xzmod.zst xzmod.xz; do
		cat "$B/$v" "$B/probe.img" > "$B/probe-$v.img"
		timed_boot "" --kernel "$OUT/vmlinuz" --initrd "$B/probe-$v.img" --append "$CMDLINE loglevel=7" >/dev/null
		sed -n 's/.*probe: unpack \([0-9.]*\) s.*/\1/p' "$B/serial.log" | head -n1 >> "$B/$v.t"
		rm -f "$B/probe-$v.img"
	done
	echo "round $r: floor $(tail -n1 "$B/floor.t") s, every pack $(tail -n1 "$B/kernel.t") s, base $(tail -n1 "$B/base.t") s, USB stick $(tail -n1 "$B/usb.t") s" >&2
done
floor=$(median < "$B/floor.t") kern=$(median < "$B/kernel.t") base=$(median < "$B/base.t") usb=$(median < "$B/usb.t")

echo
echo "bootbench image ($(cat "$OUT/qemu-accel"), $ROUNDS rounds, medians)"
table_head
size_rows 24 kernel $(awk '!/^[[:space:]]*#/ && NF && $1 != "base" { print $2 }' "$ROOT/image/packs.table")
row "kernel + base + firmware (PXE default)" $((kt + $(size "$OUT/firmware.img")))
row "kernel + every part (the stick's boot)" $all
u=$(size "$OUT/bootbench-usb.img")
target_row "USB image (every pack)" $u 48
row "ISO (every pack)" "$(size "$OUT/bootbench.iso")"
printf '  %-40s %9s s\n' "floor (busybox-only, to power-off)" "$floor"
ratio() { awk -v a="$1" -v b="$floor" 'BEGIN { printf "%.2f", a / b }'; }
printf '  %-40s %9s s %8sx %s\n' "every pack, QEMU start to menu" "$kern" "<=1.5" "$(ratio "$kern") $(verdict "$(ratio "$kern")" 1.5)"
printf '  %-40s %9s s %8sx %s\n' "base alone, QEMU start to menu" "$base" "<=1.5" "$(ratio "$base") $(verdict "$(ratio "$base")" 1.5)"
printf '  %-40s %9s s %8s  %sx floor\n' "USB stick (SeaBIOS+syslinux) to menu" "$usb" "" "$(ratio "$usb")"
echo
echo "the base's unpack by the kernel (dmesg), each compression choice"
printf '  %-40s %10s %10s\n' "modules / archive" "size" "unpack"
printf '  %-40s %7s MB %8s s  (built)\n' "lazy: squashfs xz / zstd -22" "$(MB "$(size "$B/built")")" "$(median < "$B/built.t")"
for v in plain.zst plain.xz xzmod.zst xzmod.xz; do
	case $v in plain.*) m="every file in the archive" ;; *) m="every file, each .ko xz" ;; esac
	case $v in *.xz) a="xz -9 x86" ;; *) a="zstd -22" ;; esac
	printf '  %-40s %7s MB %8s s\n' "$m / $a" "$(MB "$(size "$B/$v")")" "$(median < "$B/$v.t")"
done

# Reproducible bytes: the whole chain again, from the same dl/, into out/repro,
# with no cache (scripts/build-rootfs.sh): the compressors run again too
[ "${BENCH_REPRO:-1}" = 1 ] || exit 0
echo
echo "a second build of the same commit (out/repro), from scratch"
rm -rf "$OUT/repro"
BOOTBENCH_CACHE=off make -C "$ROOT" --no-print-directory OUT=out/repro out/repro/bootbench-usb.img > "$B/repro.log" 2>&1 ||
	{ tail -n 20 "$B/repro.log"; echo "bench-image: the second build failed ($B/repro.log)" >&2; exit 1; }
sums() { (cd "$1" && sha256sum vmlinuz initramfs.img firmware.img rescue.img zfs.img bootbench-usb.img bootbench.iso \
	$(cd "$1" && find pxe -type f | LC_ALL=C sort)); }
sums "$OUT" > "$B/first.sums"
sums "$OUT/repro" > "$B/second.sums"
same=0 differ=0
while read -r sum f; do
	other=$(awk -v f="$f" '$2 == f { print $1 }' "$B/second.sums")
	if [ "$other" = "$sum" ]; then same=$((same + 1)); v=same; else differ=$((differ + 1)); v="DIFFERS ($other)"; fi
	printf '  %-28s %s %s\n' "$f" "$sum" "$v"
done < "$B/first.sums"
echo "  $same files the same, $differ differ"
[ $differ = 0 ]
