#!/bin/sh
# SPDX-License-Identifier: MIT
# usage: scripts/pvh-kernel.sh BZIMAGE
# Prints the path of the kernel QEMU should load for a direct boot under
# SeaBIOS: BZIMAGE's own vmlinux, unpacked once and kept in
# $OUT/qemu-pvh/ (named by BZIMAGE's checksum), when it carries a PVH entry
# point (Debian's kernels do: CONFIG_PVH); BZIMAGE itself otherwise.
#
# Why: under TCG the bzImage's stub spends 3 s of CPU (9 s of wall time on a
# loaded host) unpacking its 8 MB of xz before the kernel prints a line, on
# every boot. QEMU boots the ELF through its PVH note at once (0.7 s to
# "Linux version"); the kernel that runs is the same build, byte for byte.
# Boots through firmware and a boot loader (usb_bios.sh, pxe.sh,
# pxe_ipxe_script.sh, the UEFI and ISO tests, FIRMWARE_BOOT=1) still run
# the stub.
set -u
bz=$1
OUT=${OUT:-out}
# the boot protocol's header: "HdrS" at 0x202; setup sectors at 0x1f1; the
# payload's offset and length (from the protected-mode code) at 0x248 and 0x24c
u8() { od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }
u32() { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
[ "$(od -A n -c -j 514 -N 4 "$bz" 2>/dev/null | tr -d ' ')" = HdrS ] || { echo "$bz"; exit 0; }
sum=$(sha256sum "$bz" | cut -c1-16)
cache=$OUT/qemu-pvh/$sum.elf
if [ ! -s "$cache" ]; then
	setup=$(u8 "$bz" 497); [ "$setup" != 0 ] || setup=4
	offset=$(( (setup + 1) * 512 + $(u32 "$bz" 584) ))
	length=$(u32 "$bz" 588)
	mkdir -p "$OUT/qemu-pvh"
	tmp=$(mktemp "$OUT/qemu-pvh/.unpack.XXXXXX") || { echo "$bz"; exit 0; }
	# the payload is xz (Debian's kernels), the unpacked size after it (so one
	# stream); any other boots as it is
	if tail -c +$((offset + 1)) "$bz" | head -c "$length" | xz -dc --single-stream > "$tmp" 2>/dev/null &&
		[ "$(od -A n -c -N 4 "$tmp" | tr -d ' ')" = "177ELF" ] &&
		readelf -n "$tmp" 2>/dev/null | grep -q '0x00000012'; then
		# one unpack a kernel: older ones go (65 MB each)
		find "$OUT/qemu-pvh" -name '*.elf' ! -name "$sum.elf" -delete
		mv "$tmp" "$cache"	# atomic: boot tests run three at a time
	else
		rm -f "$tmp"
		echo "$bz"; exit 0
	fi
fi
echo "$cache"
