# SPDX-License-Identifier: MIT
# The image's root filesystem (the base, out/rootfs, and the packs,
# out/packs/NAME, as build-rootfs.sh left them) holds what the image issue
# lists, and each program can run: busybox, bootbench, fio and curl static;
# every dynamically linked program starts with the image's own loader and
# libraries alone, the base's and its pack's (run here in a chroot of the
# base with that one pack unpacked over it, as the kernel does, so neither
# the build host's libraries nor another pack's can stand in for a missing
# one); every module listed in image/modules is in the index with its
# dependencies, in its pack; every firmware file a module names is in the
# firmware pack or listed as in no Debian package; every package of
# dl/manifest.tsv is recorded in /etc/bootbench-release; the man pages are
# there.
# tier: image (not in make check: it reads the built image)
. tests/lib.sh
R=out/rootfs
[ -d "$R" ] || { echo "out/rootfs is missing: run 'make image'"; exit 1; }
P=out/packs
static() { ! readelf -l "$1" 2>/dev/null | grep -q 'program interpreter'; }
check "busybox is static" static "$R/bin/busybox"
check "bootbench is static" static "$R/usr/bin/bootbench"
check "curl is static (built from Debian's source with wolfssl)" static "$R/usr/bin/curl"
check "... and speaks HTTP and HTTPS alone" sh -c "'$R/usr/bin/curl' --version | grep -qx 'Protocols: http https'"
check "bootbench in the image is stripped, its debug file beside it in out/" sh -c "
	! readelf -S '$R/usr/bin/bootbench' | grep -q '\.debug_info' && readelf -S out/bootbench.debug | grep -q '\.debug_info' &&
	readelf -x .gnu_debuglink '$R/usr/bin/bootbench' | grep -q 'bootbench.debug'"
man_pages_in_image() {
	cmp -s docs/man/bootbench.1 "$R/usr/share/man/man1/bootbench.1" || return 1
	for c in $("$R/usr/bin/bootbench" help | awk '/^  [a-z]/ { print $1 }'); do
		cmp -s "docs/man/bootbench-$c.1" "$R/usr/share/man/man1/bootbench-$c.1" || return 1
	done
}
check "the man pages are in the image, bootbench(1) and one per command, as make docs wrote them" man_pages_in_image
[ "$(id -u)" = 0 ] || skip "needs root (the programs run in a chroot of out/rootfs)"
# the tree a boot with pack $1 (after the base and the packs it needs) unpacks, made once a
# pack (issue 49: it was made again for each program, 29 copies of the 67 MiB base). The
# programs only print their versions and help; what they leave (below) is removed after each
with_pack() {
	if [ ! -d "$T/with-$1" ]; then
		rm -rf "$T/with-$1.tmp"
		cp -a "$R" "$T/with-$1.tmp"
		for n in $(awk -v p="$1" '!/^[[:space:]]*#/ && $1 == p && $5 != "-" { gsub(/,/, " ", $5); print $5 }' image/packs.table) "$1"; do
			[ "$n" = base ] || cp -a "$P/$n/." "$T/with-$1.tmp/"
		done
		mv "$T/with-$1.tmp" "$T/with-$1"
	fi
	echo "$T/with-$1"
}
pack_of() { awk -v t="$1" '!/^[[:space:]]*#/ && $1 == t { print ($2 == "" ? "base" : $2) }' image/tools.list; }
check "dialog runs with the image's libraries" sh -c "chroot '$R' /usr/bin/dialog --version >/dev/null"
check "fio (static, built from Debian's source) runs, with its libaio and io_uring engines" \
	sh -c "chroot '$R' /usr/bin/fio --version | grep -q '^fio-3' && chroot '$R' /usr/bin/fio --enghelp | grep -qx '.*libaio' && chroot '$R' /usr/bin/fio --enghelp | grep -qx '.*io_uring'"
check "... and its source packages are recorded in the release file" \
	sh -c "grep -q '^src fio 3' '$R/etc/bootbench-release' && grep -q '^src libaio ' '$R/etc/bootbench-release'"
for t in mdadm:--version smartctl:--version nvme:version sgdisk:--version sfdisk:--version lsblk:--version \
	blkid:--version wipefs:--version mke2fs:-V e2fsck:-V mkfs.xfs:-V mkfs.fat:--help hdparm:-V \
	cryptsetup:--version lvm:--help dmsetup:--help ntfs-3g:--help btrfs:--version efibootmgr:--version \
	mkfs.btrfs:--version parted:--version ddrescue:--version testdisk:/version photorec:/version vgchange:--version fsck.ext4:-V \
	dropbear:-V dropbearkey:-h; do
	name=${t%%:*} arg=${t#*:}
	case $name in vgchange) pack=rescue ;; fsck.ext4) pack=base ;; *) pack=$(pack_of "$name") ;; esac
	W=$(with_pack "$pack")
	f=$(ls "$W/usr/sbin/$name" "$W/usr/bin/$name" 2>/dev/null | head -n1)
	if [ -z "$f" ]; then bad "$name is in the image ($pack)"; continue; fi
	if [ "$pack" != base ] && ls "$R/usr/sbin/$name" "$R/usr/bin/$name" >/dev/null 2>&1; then
		bad "$name is in its pack ($pack) only, not in the base"; continue
	fi
	out=$(chroot "$W" "${f#$W}" $arg 2>&1)
	rc=$?
	# the next program in this tree finds it as the kernel unpacks it: parted leaves a /dev/null
	# and dropbearkey a /dev/urandom, regular files, in the base's empty /dev
	rm -rf "$W/dev" && cp -a "$R/dev" "$W/dev"
	# 126/127: chroot could not run it (no loader, not executable, a dangling link)
	if [ $rc = 126 ] || [ $rc = 127 ] || echo "$out" | grep -q 'error while loading shared libraries'; then
		bad "$name runs with the image's libraries ($pack): $out"
	else
		ok "$name runs with the base's libraries and its pack's ($pack)"
	fi
done
kver=$(ls "$R/lib/modules")
dep=$R/lib/modules/$kver/modules.dep
for f in image/modules/*.modules; do
	grep -v '^[[:space:]]*#' "$f" | while read -r m pack; do
		[ -n "$m" ] || continue
		n=$(echo "$m" | tr '-' '_')
		path=$(awk -F: '{ print $1 }' "$dep" | awk -v n="$n" '{ b=$0; sub(/.*\//,"",b); sub(/\.ko.*/,"",b); gsub(/-/,"_",b); if (b == n) print }')
		if [ -z "$path" ]; then
			grep -q "/$m.ko\$\|/$n.ko\$" "$R/lib/modules/$kver/modules.builtin" || echo "module $m ($f) is not in modules.dep"
			continue
		fi
		where=$R; [ -z "$pack" ] || where=$P/$pack
		[ -f "$where/lib/modules/$kver/$path" ] || echo "module $m ($f) is not in its part (${pack:-base}): $path"
	done
done > "$T/modules.bad"
check "every listed module is in modules.dep, its file in its pack" [ ! -s "$T/modules.bad" ]
cat "$T/modules.bad"
mc=$(sed -n 's/^compression modules //p' "$R/etc/bootbench-release")
case $mc in
xz) check "the modules are xz-compressed, each on its own (the release file says so)" sh -c "
	[ \$(grep -c '\.ko\.xz:' '$dep') -gt 100 ] && ! grep -q '\.ko:' '$dep' &&
	xz -t \$(find '$R/lib/modules' -name '*.ko.xz' | head -n 5)" ;;
*) check "the modules are plain .ko files (the release file says '$mc')" sh -c "
	[ '$mc' = none ] && [ \$(grep -c '\.ko:' '$dep') -gt 100 ] && ! grep -q '\.ko\.xz:' '$dep'" ;;
esac
# Firmware: every file the image's modules name is in the firmware pack, or
# recorded as in no Debian package; the release file names each one's package
find "$R/lib/modules" "$P"/*/lib/modules -name '*.ko' -o -name '*.ko.xz' | while read -r ko; do
	case $ko in *.xz) xz -dc "$ko" > "$T/m.ko"; ko=$T/m.ko ;; esac
	modinfo -F firmware "$ko"
done | sort -u > "$T/firmware.named"
missing_fw=""
while read -r fw; do
	[ -f "$P/firmware/lib/firmware/$fw" ] && grep -q "^firmware $fw .* firmware-" "$R/etc/bootbench-release" && continue
	grep -q "^firmware-missing $fw " "$R/etc/bootbench-release" && continue
	missing_fw="$missing_fw $fw"
done < "$T/firmware.named"
check "every firmware file the modules name ($(wc -l < "$T/firmware.named")) is in the firmware pack or recorded as missing" [ -z "$missing_fw" ]
[ -z "$missing_fw" ] || echo "not accounted for:$missing_fw"
for fw in bnx2x/bnx2x-e2-7.13.21.0.fw intel/ice/ddp/ice.pkg rtl_nic/rtl8168h-2.fw; do
	check "the firmware pack has $fw" [ -s "$P/firmware/lib/firmware/$fw" ]
done
check "... and qed's and qla2xxx's" sh -c "ls $P/firmware/lib/firmware/qed/qed_init_values_zipped-*.bin >/dev/null && [ -f $P/firmware/lib/firmware/ql2500_fw.bin ]"
check "the release file names the firmware packages with their versions" sh -c "
	grep -q '^firmware bnx2x/bnx2x-e2-7.13.21.0.fw bnx2x firmware-bnx2x 2' '$R/etc/bootbench-release' &&
	grep -q '^firmware intel/ice/ddp/ice.pkg ice firmware-misc-nonfree 2' '$R/etc/bootbench-release'"
# The packs: their checksums in the base's release file, the registry that
# names a missing program's pack
for pk in $(awk '!/^[[:space:]]*#/ && NF && $1 != "base" { print $2 }' image/packs.table); do
	sum=$(sha256sum "out/$pk" | cut -d' ' -f1)
	check "the release file has $pk's checksum" grep -q "^pack [a-z]* $pk $sum\$" "$R/etc/bootbench-release"
done
check "the base's registry names cryptsetup's and zpool's packs" sh -c "
	grep -qx 'cryptsetup rescue rescue.img' '$R/etc/bootbench/packs' && grep -qx 'zpool zfs zfs.img' '$R/etc/bootbench/packs'"
check "the release file names the host's compiler, musl, liburing and kernel headers" \
	grep -q '^host gcc [0-9].* musl [0-9].* liburing [0-9].* linux-libc-dev [0-9]' "$R/etc/bootbench-release"
check "... and the autotools that make wolfssl's configure script" \
	grep -q '^host autoconf [0-9].* automake [0-9].* libtool [0-9]' "$R/etc/bootbench-release"
missing=$(awk -F'\t' '{ print $2 }' dl/manifest.tsv | while read -r p; do
	grep -q " $p " "$R/etc/bootbench-release" || echo "$p"; done)
check "every fetched package is in /etc/bootbench-release" [ -z "$missing" ]
check "the release names the kernel and busybox" sh -c "grep -q '^kernel 6\.' '$R/etc/bootbench-release' && grep -q '^src busybox 1:1\.35' '$R/etc/bootbench-release'"
# The ZFS pack: its tools run with the base's libraries plus its own (the two
# archives unpacked over each other, as the kernel does), the base's module
# index covers its modules, and the release file names what it was built from.
Z=$P/zfs
if [ -d "$Z" ]; then
	both=$(with_pack zfs)
	for t in zpool:version zfs:version zdb:--help; do
		out=$(chroot "$both" /usr/sbin/${t%%:*} ${t#*:} 2>&1)
		case "$out" in
		*'error while loading shared libraries'*|*'not found'*) bad "${t%%:*} runs with the image's libraries: $out" ;;
		*) ok "${t%%:*} (the ZFS part) runs with the image's libraries" ;;
		esac
	done
	check "the base's module index has zfs and spl, their files in the ZFS pack" sh -c "
		grep -q '^extra/zfs/zfs.ko\(.xz\)\?: .*extra/zfs/spl.ko' '$dep' && ls '$Z/lib/modules/$kver/extra/zfs/'zfs.ko* >/dev/null &&
		[ ! -e '$R/lib/modules/$kver/extra/zfs' ]"
	check "the ZFS modules are built for the image's kernel" sh -c "
		f=\$(ls '$Z/lib/modules/$kver/extra/zfs/'zfs.ko*); case \$f in *.xz) xz -dc \$f > '$T/zfs.ko'; f='$T/zfs.ko' ;; esac
		modinfo -F vermagic \$f | grep -q '^$kver '"
	check "the release file names the ZFS part's source and modules" sh -c "
		grep -q '^part zfs-dkms 2\.1\.' '$R/etc/bootbench-release' && grep -q '^part zfs-modules .*spl.* zfs ' '$R/etc/bootbench-release'"
	check "the stick's boot loaders load every pack, in packs.table's order" sh -c "
		mtype -i out/bootbench-usb.img@@1M ::/syslinux/syslinux.cfg | grep -q 'INITRD /boot/initramfs.img,/boot/firmware.img,/boot/rescue.img,/boot/burnin.img,/boot/zfs.img\$' &&
		mtype -i out/bootbench-usb.img@@1M ::/EFI/BOOT/grub.cfg | grep -q 'initrd /boot/initramfs.img /boot/firmware.img /boot/rescue.img /boot/burnin.img /boot/zfs.img\$' &&
		mdir -i out/bootbench-usb.img@@1M ::/boot/zfs.img >/dev/null && mdir -i out/bootbench-usb.img@@1M ::/boot/rescue.img >/dev/null"
	check "PXE's default entries load the base, the firmware and the burn-in pack; the 'all packs' ones every pack" sh -c "
		grep -q '^initrd firmware.img\$' out/pxe/boot.ipxe && grep -q '^initrd burnin.img\$' out/pxe/boot.ipxe && ! grep -q 'rescue.img' out/pxe/boot.ipxe &&
		grep -q '^initrd zfs.img\$' out/pxe/boot-all.ipxe && grep -q 'initrd=initramfs.img initrd=firmware.img initrd=rescue.img initrd=burnin.img initrd=zfs.img' out/pxe/boot-all.ipxe &&
		grep -q 'INITRD initramfs.img,firmware.img,burnin.img\$' out/pxe/pxelinux.cfg/default &&
		grep -q 'INITRD initramfs.img,firmware.img,rescue.img,burnin.img,zfs.img\$' out/pxe/pxelinux.cfg/default &&
		grep -q 'initrd (\$root)/initramfs.img (\$root)/firmware.img (\$root)/burnin.img\$' out/pxe/grub/grub.cfg &&
		grep -q 'initrd (\$root)/initramfs.img (\$root)/firmware.img (\$root)/rescue.img (\$root)/burnin.img (\$root)/zfs.img\$' out/pxe/grub/grub.cfg"
else
	bad "the ZFS pack (out/packs/zfs) was built"
fi
# issue 36: keyboard layouts, memtest86+ on every medium
layouts=$(grep -v '^[[:space:]]*#' image/keymaps.table | awk 'NF { print $1 }')
bad_maps=""
for k in $layouts; do
	[ "$(head -c 7 "$R/usr/share/bootbench/keymaps/$k.bmap" 2>/dev/null)" = bkeymap ] || bad_maps="$bad_maps $k"
done
check "every layout of image/keymaps.table ($(echo $layouts | wc -w)) is in the image in loadkmap's format${bad_maps:+: not$bad_maps}" [ -z "$bad_maps" ]
check "... and listed for the menu and bootbench.keymap" [ "$(cut -d' ' -f1 "$R/usr/share/bootbench/keymaps/list" | paste -sd' ' -)" = "$(echo $layouts)" ]
check "de and us differ (y and z)" sh -c "! cmp -s '$R/usr/share/bootbench/keymaps/de.bmap' '$R/usr/share/bootbench/keymaps/us.bmap'"
if [ -e out/bootbench-usb.img ]; then
	check "the stick has memtest86+'s BIOS and EFI builds beside the kernel" sh -c \
		"mdir -b -i out/bootbench-usb.img@@1M ::/boot/ | grep -q memtest86+x64.bin && mdir -b -i out/bootbench-usb.img@@1M ::/boot/ | grep -q memtest86+x64.efi"
	check "its syslinux menu has memtest, loaded as a Linux kernel" sh -c \
		"mtype -i out/bootbench-usb.img@@1M ::/syslinux/syslinux.cfg | tr -d '\r' | grep -A1 '^LABEL memtest' | grep -q 'LINUX /boot/memtest86+x64.bin'"
	check "its GRUB menu has memtest86+, refused under lockdown" sh -c \
		"mtype -i out/bootbench-usb.img@@1M ::/EFI/BOOT/grub.cfg | grep -q 'if \[ \"\$lockdown\" = y \]' &&
		 mtype -i out/bootbench-usb.img@@1M ::/EFI/BOOT/grub.cfg | grep -q 'linux /boot/memtest86+x64.efi'"
	check "PXE serves memtest86+ to pxelinux, GRUB and iPXE" sh -c \
		"[ -s out/pxe/memtest86+x64.bin ] && [ -s out/pxe/memtest86+x64.efi ] && grep -q '^LABEL memtest' out/pxe/pxelinux.cfg/default &&
		 grep -q 'memtest86+x64.efi' out/pxe/grub/grub.cfg && grep -q 'kernel memtest86+x64.bin' out/pxe/memtest.ipxe"
fi

for t in $(grep -v '^#' image/terminfo.list); do
	[ -f "$R/usr/share/terminfo/$t" ] || bad "terminfo $t is in the image"
done
ok "the terminfo entries are there"
finish
