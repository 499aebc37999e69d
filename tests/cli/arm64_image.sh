# SPDX-License-Identifier: MIT
# The arm64 image (issue 47: make image ARCH=arm64, out/arm64), as
# image_contents.sh checks x86_64's: busybox, bootbench, fio and curl are
# static aarch64 programs; every tool of image/tools.list starts with the
# image's own aarch64 loader and libraries alone, the base's and its
# pack's (run here under qemu-user through that loader, with its library
# path the tree's only, so neither the host's libraries nor another pack's
# can stand in); every module of image/modules and image/arm64/modules is
# in the index and in its pack, or built in, or named absent with its
# reason; every package of dl/arm64/manifest.tsv is in the release file;
# the stick boots UEFI through arm64's shim and GRUB.
# tier: arm64 (make test-arm64, which builds its image; not make check nor make test)
. tests/lib.sh
A=out/arm64
R=$A/rootfs
P=$A/packs
[ -d "$R" ] && [ -e "$A/bootbench-usb.img" ] || { echo "out/arm64 has no image: run 'make image ARCH=arm64'"; exit 1; }
need_commands file qemu-aarch64-static mdir

for f in bin/busybox usr/bin/bootbench usr/bin/fio usr/bin/curl; do
	kind=$(file -b "$R/$f")
	check "$f is an aarch64 ELF program, statically linked" \
		sh -c 'case "$1" in "ELF 64-bit LSB executable, ARM aarch64,"*", statically linked"*) ;; *) exit 1 ;; esac' - "$kind"
done
check "the loader is aarch64's, where the programs' ELF entries look for it" \
	sh -c "[ -f '$R/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1' ] && [ \"\$(readlink '$R/lib/ld-linux-aarch64.so.1')\" = /lib/aarch64-linux-gnu/ld-linux-aarch64.so.1 ] &&
		readelf -l '$R/usr/bin/dialog' | grep -q 'interpreter: /lib/ld-linux-aarch64.so.1'"

# the tree a boot with pack $1 (after the base and the packs it needs)
# unpacks, made once a pack
with_pack() {
	if [ ! -d "$T/with-$1" ]; then
		cp -a "$R" "$T/with-$1"
		for n in $(awk -v p="$1" '!/^[[:space:]]*#/ && $1 == p && $5 != "-" { gsub(/,/, " ", $5); print $5 }' image/packs.table) "$1"; do
			[ "$n" = base ] || cp -a "$P/$n/." "$T/with-$1/"
		done
	fi
	echo "$T/with-$1"
}
pack_of() { awk -v t="$1" '!/^[[:space:]]*#/ && $1 == t { print ($2 == "" ? "base" : $2) }' image/tools.list; }
for t in dialog:--version mdadm:--version smartctl:--version nvme:version sgdisk:--version sfdisk:--version \
	lsblk:--version blkid:--version wipefs:--version mke2fs:-V e2fsck:-V mkfs.xfs:-V mkfs.fat:--help hdparm:-V \
	cryptsetup:--version lvm:--help dmsetup:--help ntfs-3g:--help btrfs:--version efibootmgr:--version \
	mkfs.btrfs:--version parted:--version ddrescue:--version testdisk:/version photorec:/version \
	stress-ng:--version memtester:-v iperf3:--version ipmitool:-V ethtool:--version dropbear:-V dropbearkey:-h; do
	name=${t%%:*} arg=${t#*:}
	pack=$(pack_of "$name")
	W=$(with_pack "$pack")
	f=$(ls "$W/usr/sbin/$name" "$W/usr/bin/$name" 2>/dev/null | head -n1)
	if [ -z "$f" ]; then bad "$name is in the image ($pack)"; continue; fi
	lib=$W/lib/aarch64-linux-gnu
	out=$(timeout 60 qemu-aarch64-static "$lib/ld-linux-aarch64.so.1" --library-path "$lib" "$f" $arg 2>&1)
	rc=$?
	if [ $rc = 124 ] || [ $rc = 126 ] || [ $rc = 127 ] || echo "$out" | grep -q 'error while loading shared libraries'; then
		bad "$name runs with the image's aarch64 libraries ($pack): $(echo "$out" | head -n 2)"
	else
		ok "$name runs with the base's aarch64 libraries and its pack's ($pack)"
	fi
done

kver=$(ls "$R/lib/modules")
dep=$R/lib/modules/$kver/modules.dep
check "the kernel is Debian's arm64 one" sh -c "echo '$kver' | grep -q -- '-arm64\$'"
for f in image/modules/*.modules image/arm64/modules/*.modules; do
	grep -v '^[[:space:]]*#' "$f" | while read -r m pack; do
		[ -n "$m" ] || continue
		n=$(echo "$m" | tr '-' '_')
		path=$(awk -F: '{ print $1 }' "$dep" | awk -v n="$n" '{ b=$0; sub(/.*\//,"",b); sub(/\.ko.*/,"",b); gsub(/-/,"_",b); if (b == n) print }')
		if [ -z "$path" ]; then
			grep -q "/$m.ko\$\|/$n.ko\$" "$R/lib/modules/$kver/modules.builtin" && continue
			grep -q "^module-absent $m " "$R/etc/bootbench-release" || echo "module $m ($f) is not in modules.dep, nor built in, nor named absent"
			continue
		fi
		where=$R; [ -z "$pack" ] || where=$P/$pack
		[ -f "$where/lib/modules/$kver/$path" ] || echo "module $m ($f) is not in its part (${pack:-base}): $path"
	done
done > "$T/modules.bad"
check "every listed module is in modules.dep and its pack, built in, or named absent" [ ! -s "$T/modules.bad" ]
cat "$T/modules.bad"
check "each absent module's reason is in the release file (image/arm64/modules.absent)" sh -c "
	[ \$(grep -c '^module-absent [^ ]* [^ ]' '$R/etc/bootbench-release') = \$(grep -cv '^[[:space:]]*#' image/arm64/modules.absent) ]"
awk -F'\t' '{ print $1, $2, $3, $4 }' dl/arm64/manifest.tsv | while read -r line; do
	grep -qxF "$line" "$R/etc/bootbench-release" || echo "$line"
done > "$T/pins.bad"
check "every package of dl/arm64/manifest.tsv is in the release file" [ ! -s "$T/pins.bad" ]
head -n 3 "$T/pins.bad"

stick=$A/bootbench-usb.img@@1M
check "the stick boots UEFI on arm64: shimaa64 as EFI/BOOT/BOOTAA64.EFI, grubaa64.efi and grub.cfg beside it" sh -c "
	mdir -b -i '$stick' ::/EFI/BOOT | grep -qi '/BOOTAA64.EFI\$' && mdir -b -i '$stick' ::/EFI/BOOT | grep -qi '/grubaa64.efi\$' &&
	mtype -i '$stick' ::/EFI/BOOT/grub.cfg | grep -q 'console=ttyAMA0,115200'"
check "... and carries no x86 boot loader" sh -c "! mdir -b -i '$stick' ::/ | grep -qi syslinux && ! mdir -b -i '$stick' ::/EFI/BOOT | grep -qi x64"
echo "sizes: vmlinuz $(stat -c %s "$A/vmlinuz") bytes, initramfs.img $(stat -c %s "$A/initramfs.img"), stick $(stat -c %s "$A/bootbench-usb.img")"
finish
