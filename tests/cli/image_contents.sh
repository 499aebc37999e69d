# SPDX-License-Identifier: MIT
# The image's root filesystem (out/rootfs, as build-rootfs.sh left it) holds
# what the image issue lists, and each program can run: busybox and bootbench
# static; every dynamically linked program starts with the image's own loader
# and libraries alone (run here in a chroot of out/rootfs, so the build
# host's libraries cannot stand in for a missing one);
# every module listed in image/modules is there with its dependencies; every
# package of dl/manifest.tsv is recorded in /etc/bootbench-release.
. tests/lib.sh
R=out/rootfs
[ -d "$R" ] || { echo "out/rootfs is missing: run 'make image'"; exit 1; }
static() { ! readelf -l "$1" 2>/dev/null | grep -q 'program interpreter'; }
check "busybox is static" static "$R/bin/busybox"
check "bootbench is static" static "$R/usr/bin/bootbench"
[ "$(id -u)" = 0 ] || skip "needs root (the programs run in a chroot of out/rootfs)"
run_in_image() { f=$1; shift; chroot "$R" "${f#$R}" "$@"; }
check "dialog runs with the image's libraries" sh -c "chroot '$R' /usr/bin/dialog --version >/dev/null"
check "fio (static, built from Debian's source) runs, with its libaio and io_uring engines" \
	sh -c "chroot '$R' /usr/bin/fio --version | grep -q '^fio-3' && chroot '$R' /usr/bin/fio --enghelp | grep -qx '.*libaio' && chroot '$R' /usr/bin/fio --enghelp | grep -qx '.*io_uring'"
check "... and its source packages are recorded in the release file" \
	sh -c "grep -q '^src fio 3' '$R/etc/bootbench-release' && grep -q '^src libaio ' '$R/etc/bootbench-release'"
for t in mdadm:--version smartctl:--version nvme:version sgdisk:--version sfdisk:--version lsblk:--version \
	blkid:--version wipefs:--version mke2fs:-V e2fsck:-V mkfs.xfs:-V mkfs.fat:--help hdparm:-V \
	cryptsetup:--version lvm:--help dmsetup:--help ntfs-3g:--help btrfs:--version efibootmgr:--version \
	mkfs.btrfs:--version parted:--version ddrescue:--version testdisk:/version photorec:/version vgchange:--version fsck.ext4:-V; do
	name=${t%%:*} arg=${t#*:}
	f=$(ls "$R/usr/sbin/$name" "$R/usr/bin/$name" 2>/dev/null | head -n1)
	if [ -z "$f" ]; then bad "$name is in the image"; continue; fi
	out=$(run_in_image "$f" $arg 2>&1)
	rc=$?
	# 126/127: chroot could not run it (no loader, not executable, a dangling link)
	if [ $rc = 126 ] || [ $rc = 127 ] || echo "$out" | grep -q 'error while loading shared libraries'; then
		bad "$name runs with the image's libraries: $out"
	else
		ok "$name runs with the image's libraries"
	fi
done
kver=$(ls "$R/lib/modules")
for f in image/modules/*.modules; do
	for m in $(grep -v '^[[:space:]]*#' "$f"); do
		n=$(echo "$m" | tr '-' '_')
		awk -F: '{ print $1 }' "$R/lib/modules/$kver/modules.dep" | sed 's|.*/||; s|\.ko.*||' | tr '-' '_' | grep -qx "$n" ||
			bad "module $m ($f) is in the image"
	done
done
ok "every listed module is in modules.dep"
missing=$(awk -F'\t' '{ print $2 }' dl/manifest.tsv | while read -r p; do
	grep -q " $p " "$R/etc/bootbench-release" || echo "$p"; done)
check "every fetched package is in /etc/bootbench-release" [ -z "$missing" ]
check "the release names the kernel and busybox" sh -c "grep -q '^kernel 6\.' '$R/etc/bootbench-release' && grep -q '^src busybox 1:1\.35' '$R/etc/bootbench-release'"
# The ZFS part: its tools run with the base's libraries plus its own (the two
# archives unpacked over each other, as the kernel does), its module index
# covers base and ZFS, and the release file names what it was built from.
Z=out/rootfs-zfs
if [ -d "$Z" ]; then
	both=$T/both
	cp -a "$R" "$both" && cp -a "$Z/." "$both/"
	for t in zpool:version zfs:version zdb:--help; do
		out=$(chroot "$both" /usr/sbin/${t%%:*} ${t#*:} 2>&1)
		case "$out" in
		*'error while loading shared libraries'*|*'not found'*) bad "${t%%:*} runs with the image's libraries: $out" ;;
		*) ok "${t%%:*} (the ZFS part) runs with the image's libraries" ;;
		esac
	done
	check "the ZFS part's module index has zfs and spl, and the base's modules" sh -c "
		grep -q '^extra/zfs/zfs.ko: .*extra/zfs/spl.ko' '$Z/lib/modules/$kver/modules.dep' &&
		[ \$(wc -l < '$Z/lib/modules/$kver/modules.dep') -gt \$(wc -l < '$R/lib/modules/$kver/modules.dep') ]"
	check "the ZFS modules are built for the image's kernel" sh -c "modinfo -F vermagic '$Z/lib/modules/$kver/extra/zfs/zfs.ko' | grep -q '^$kver '"
	check "the release file names the ZFS part's source and modules" sh -c "
		grep -q '^part zfs-dkms 2\.1\.' '$R/etc/bootbench-release' && grep -q '^part zfs-modules .*spl.* zfs ' '$R/etc/bootbench-release'"
	check "the boot loaders load the ZFS part" sh -c "
		mtype -i out/bootbench-usb.img@@1M ::/syslinux/syslinux.cfg | grep -q 'INITRD /boot/initramfs.img,/boot/zfs.img' &&
		mtype -i out/bootbench-usb.img@@1M ::/EFI/BOOT/grub.cfg | grep -q 'initrd /boot/initramfs.img /boot/zfs.img' &&
		mdir -i out/bootbench-usb.img@@1M ::/boot/zfs.img >/dev/null && grep -q '^initrd zfs.img' out/pxe/boot.ipxe &&
		grep -q 'initramfs.img,zfs.img' out/pxe/pxelinux.cfg/default"
else
	bad "the ZFS part (out/rootfs-zfs) was built"
fi
for t in $(grep -v '^#' image/terminfo.list); do
	[ -f "$R/usr/share/terminfo/$t" ] || bad "terminfo $t is in the image"
done
ok "the terminfo entries are there"
finish
