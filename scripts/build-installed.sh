#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds, for the rescue tests, a real Debian 12 (bookworm) installed on a
# virtual disk as the installer lays it out, twice:
# - out/installed/debian-uefi.img for UEFI: GPT, an ESP (vfat) on /boot/efi,
#   a separate ext4 /boot, an ext4 root; GRUB's grub-efi-amd64;
# - out/installed/debian-bios.img for BIOS: GPT with a BIOS boot partition
#   (where GRUB embeds its core) in the ESP's place, the same /boot and
#   root; GRUB's grub-pc.
# ARCH=arm64 (issue 47): out/arm64/installed/debian-uefi.img alone (arm64
# servers boot UEFI), with grub-efi-arm64 and the console on ttyAMA0;
# debootstrap's second stage runs its arm64 programs under qemu-user
# (qemu-user-static's binfmt entry, registered for the build if it is not,
# and removed again after it).
# Each has its kernel, initramfs, systemd and a serial console. The boot
# loader is missing, as on a box whose ESP, boot sector and /boot/grub were
# lost: the tests' rescue installs it. debootstrap fetches
# from the same Debian archive as scripts/fetch.sh (the host's apt source);
# the filesystems are made from the tree with mkfs -d (no loop mounts).
# debootstrap checks the archive's signature itself.
# Cached: rebuilt only when this script changes; the two disks of a script
# are kept in BOOTBENCH_CACHE (default /var/cache/bootbench, outside the
# tree: a fresh clone on the same machine reuses them, sparse, 1.5 GB on
# disk; BOOTBENCH_CACHE= or off turns it off, as for scripts/build-rootfs.sh).
# What the archive serves moves on (security updates): a kept disk is a test
# fixture of the same layout, which is what the tests need of it.
set -eu
die() { echo "installed: $*" >&2; exit 2; }
case ${ARCH:=x86_64} in
x86_64) OUT=${OUT:-out}/installed DEB_ARCH=amd64 CONSOLE=ttyS0 APT_DIR=dl/apt ;;
arm64) OUT=${OUT:-out/arm64}/installed DEB_ARCH=arm64 CONSOLE=ttyAMA0 APT_DIR=dl/arm64/apt ;;
*) die "ARCH=$ARCH: no such ARCH (x86_64, arm64)" ;;
esac
IMG=$OUT/debian-uefi.img BIOS_IMG=$OUT/debian-bios.img
# the disks this machine's rescue tests boot: BIOS is x86's only
DISKS="$IMG"
[ "$ARCH" != x86_64 ] || DISKS="$IMG $BIOS_IMG"
STAMP=$OUT/installed.stamp
# the key: this script and the machine (one script makes both machines' disks)
want="$(sha256sum "$0" | cut -d' ' -f1) $DEB_ARCH"
have_all() { for d in $DISKS; do [ -f "$1/${d##*/}" ] || return 1; done; }
have_all "$OUT" && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ] && exit 0
CACHE=${BOOTBENCH_CACHE-/var/cache/bootbench}
[ "$CACHE" != off ] || CACHE=""	# (the image benches' repro builds say off: never a folder "off")
kept=${CACHE:+$CACHE/installed-$DEB_ARCH-$(echo "$want" | cut -c1-16)}
if [ -n "$kept" ] && [ "$(cat "$kept/installed.stamp" 2>/dev/null)" = "$want" ] && have_all "$kept"; then
	mkdir -p "$OUT"
	for d in $DISKS; do cp --sparse=always "$kept/${d##*/}" "$d.tmp" || break; done &&
		for d in $DISKS; do mv "$d.tmp" "$d"; done && echo "$want" > "$STAMP" &&
		{ echo "  INSTALL debian 12 ($DEB_ARCH) for the rescue tests: kept from $kept (same script)"; exit 0; }
	for d in $DISKS; do rm -f "$d.tmp"; done
fi
[ "$(id -u)" = 0 ] || die "needs root (debootstrap)"
for c in debootstrap mkfs.ext4 mkfs.vfat sfdisk; do command -v $c >/dev/null || die "$c is missing: run 'make deps'"; done
# the archive scripts/fetch.sh found in the host's apt sources (the stage before)
MIRROR=${DEBIAN_MIRROR:-$(awk '$1 == "deb" { print $3; exit }' $APT_DIR/sources.list 2>/dev/null)}
[ -n "$MIRROR" ] || die "$APT_DIR/sources.list names no archive: run 'make image' first (or set DEBIAN_MIRROR)"
echo "  INSTALL debian 12 ($DEB_ARCH) for the rescue tests (debootstrap from $MIRROR)"
T=$OUT/tree
# unmount_tree: what debootstrap mounted in the tree (/proc, /sys) and left there, unmounted,
# deepest first. debootstrap ignores a failed umount: a process with a file open under the
# tree's /proc (a `grep -r` over out/ was one) keeps it mounted, and mkfs -d then copies the
# host's /proc into the disk, or rm -rf walks into it. A mount that stays is said, and nothing
# goes on.
unmount_tree() {
	# /proc/self/mounts writes a space, tab, newline or backslash in a path as \040, \011, \012, \134
	awk -v t="$(realpath -m "$T")" '{ m = $2; gsub(/\\040/, " ", m); gsub(/\\011/, "\t", m); gsub(/\\012/, "\n", m)
		gsub(/\\134/, "\\", m); if (m == t || index(m, t "/") == 1) print m }' /proc/self/mounts | sort -r |
	while IFS= read -r m; do
		i=0
		until umount "$m" 2>/dev/null; do
			i=$((i + 1))
			[ $i -lt 10 ] || die "$m stays mounted (busy: $(fuser -m "$m" 2>/dev/null || echo 'a process')); nothing was written"
			sleep 1
		done
	done || exit 2
	for d in proc sys dev/pts dev; do
		! mountpoint -q "$T/$d" 2>/dev/null || die "$T/$d stays mounted; nothing was written"
	done
}
unmount_tree
rm -rf "$T" "$OUT"/*.part
mkdir -p "$OUT"
include=linux-image-$DEB_ARCH,grub-efi-$DEB_ARCH,efibootmgr,systemd-sysv,udev,initramfs-tools,zstd,e2fsprogs,dosfstools
if [ "$ARCH" = x86_64 ]; then
	debootstrap --variant=minbase --include=$include \
		bookworm "$T" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 || { tail -n 20 "$OUT/debootstrap.log"; die "debootstrap failed"; }
else
	# the second stage and every chroot below run arm64 programs: the kernel
	# hands them to qemu-aarch64 by its binfmt entry, whose F flag opens the
	# interpreter now, so that it runs inside the tree too
	binfmt=/proc/sys/fs/binfmt_misc
	conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	[ -r $conf ] || die "$conf is missing: apt-get install qemu-user-static (or run 'make ARCH=arm64 deps')"
	[ -w $binfmt/register ] || mount -t binfmt_misc binfmt_misc $binfmt 2>/dev/null || die "binfmt_misc cannot be mounted on $binfmt"
	# The host's own entry is used as it is. Else one of ours, by a name of
	# its own (its being there says a build of ours registered it), shared
	# by builds running at once (two checkouts): binfmt_misc's folder is the
	# lock for registering and removing (the kernel's one registry, whatever
	# the chroot), its status file held shared while a build runs; the last
	# one out, the only one that can then take that exclusively, removes it.
	ours=qemu-aarch64-bootbench
	exec 8< $binfmt 9< $binfmt/status
	flock -w 600 8 || die "another build has held $binfmt's lock for 10 minutes"
	if [ ! -e $binfmt/qemu-aarch64 ] && [ ! -e $binfmt/$ours ]; then
		sed "s/^:qemu-aarch64:/:$ours:/" $conf > $binfmt/register || die "qemu-aarch64 cannot be registered with binfmt_misc"
	fi
	flock -s 9
	flock -u 8
	trap 'flock -w 600 8; flock -u 9; if [ -e '$binfmt/$ours' ] && flock -x -n 9; then echo -1 > '$binfmt/$ours'; fi; flock -u 8' EXIT
	trap 'exit 130' HUP INT TERM
	debootstrap --arch=arm64 --foreign --variant=minbase --include=$include \
		bookworm "$T" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 8<&- 9<&- || { tail -n 20 "$OUT/debootstrap.log"; die "debootstrap failed"; }
	# the small initramfs below from the start: under qemu-user, each of the
	# second stage's full ones (MODULES=most) took minutes
	mkdir -p "$T/etc/initramfs-tools/conf.d"
	printf 'MODULES=list\nCOMPRESS=zstd\n' > "$T/etc/initramfs-tools/conf.d/bbinstalled.conf"
	chroot "$T" /debootstrap/debootstrap --second-stage >> "$OUT/debootstrap.log" 2>&1 8<&- 9<&- ||
		{ tail -n 20 "$OUT/debootstrap.log"; die "debootstrap's second stage failed (under qemu-aarch64)"; }
fi
unmount_tree
ROOT_UUID=1b2c3d4e-0000-4000-8000-000000000001 BOOT_UUID=1b2c3d4e-0000-4000-8000-000000000002
ESP_ID=1B2C-3D4E
cat > "$T/etc/fstab" <<FSTAB
UUID=$ROOT_UUID / ext4 errors=remount-ro 0 1
UUID=$BOOT_UUID /boot ext4 defaults 0 2
UUID=$ESP_ID /boot/efi vfat umask=0077 0 1
FSTAB
echo bbinstalled > "$T/etc/hostname"
# a small initramfs, as on a VM: the virtio disk and ext4 only (MODULES=list),
# zstd as bookworm's default wants. A full one takes minutes to rebuild in
# the rescue test and to unpack under TCG; this one seconds.
printf 'MODULES=list\nCOMPRESS=zstd\n' > "$T/etc/initramfs-tools/conf.d/bbinstalled.conf"
printf 'virtio_pci\nvirtio_blk\next4\n' >> "$T/etc/initramfs-tools/modules"
chroot "$T" update-initramfs -u -k all > "$OUT/initramfs.log" 2>&1 8<&- 9<&- || { tail -n 20 "$OUT/initramfs.log"; die "update-initramfs failed"; }
# the serial console: GRUB's and the kernel's, and a getty on it (systemd
# starts one for console=); arm64's GRUB talks through the firmware's
# console, which AAVMF puts on the PL011 already
sed -i 's/^GRUB_CMDLINE_LINUX_DEFAULT=.*/GRUB_CMDLINE_LINUX_DEFAULT=""/; s/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX="console='$CONSOLE',115200"/' "$T/etc/default/grub"
[ "$ARCH" != x86_64 ] || printf 'GRUB_TERMINAL=serial\nGRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"\n' >> "$T/etc/default/grub"
echo GRUB_TIMEOUT=1 >> "$T/etc/default/grub"
# what the lost boot loader leaves: no /boot/grub, an empty ESP (or an empty
# BIOS boot partition and boot sector)
rm -rf "$T/boot/grub" "$T/var/cache/apt/archives"/*.deb
mkdir -p "$OUT/boot.tree"
mv "$T/boot"/* "$OUT/boot.tree/"
mkdir -p "$OUT/boot.tree/efi"
truncate -s 64M "$OUT/esp.part" && mkfs.vfat -i "$(echo $ESP_ID | tr -d -)" "$OUT/esp.part" > /dev/null
# disk IMAGE ROOT-UUID BOOT-UUID PART1-TYPE [PART1-FILE]: the GPT disk of the
# filesystems made here from the trees
disk() {
	rm -f "$1"
	truncate -s 256M "$OUT/boot.part" && mkfs.ext4 -q -U "$3" -d "$OUT/boot.tree" "$OUT/boot.part"
	truncate -s 1800M "$OUT/root.part" && mkfs.ext4 -q -U "$2" -d "$T" "$OUT/root.part"
	truncate -s 2200M "$1.tmp"
	sfdisk -q "$1.tmp" <<TABLE
label: gpt
start=1MiB, size=64MiB, type=$4
start=65MiB, size=256MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
start=321MiB, size=1800MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
TABLE
	[ -z "${5:-}" ] || dd if="$5" of="$1.tmp" bs=1M seek=1 conv=notrunc,sparse status=none
	dd if="$OUT/boot.part" of="$1.tmp" bs=1M seek=65 conv=notrunc,sparse status=none
	dd if="$OUT/root.part" of="$1.tmp" bs=1M seek=321 conv=notrunc,sparse status=none
	mv "$1.tmp" "$1"
}
disk "$IMG" $ROOT_UUID $BOOT_UUID C12A7328-F81F-11D2-BA4B-00A0C93EC93B "$OUT/esp.part"
if [ "$ARCH" = x86_64 ]; then
# BIOS: grub-pc in grub-efi-amd64's place, and no ESP. Its postinst must
# install nowhere: no install devices, and no /proc or disks in the tree
# for grub-probe to find the host's.
echo "  INSTALL grub-pc for the BIOS variant"
printf 'grub-pc grub-pc/install_devices multiselect\ngrub-pc grub-pc/install_devices_empty boolean true\n' |
	chroot "$T" debconf-set-selections
DEBIAN_FRONTEND=noninteractive chroot "$T" apt-get install -y -q grub-pc > "$OUT/grub-pc.log" 2>&1 ||
	{ tail -n 20 "$OUT/grub-pc.log"; die "apt-get install grub-pc failed"; }
chroot "$T" dpkg-query -W -f '${Status}' grub-efi-amd64 2>/dev/null | grep -q ' installed' && die "grub-efi-amd64 is still installed"
rm -rf "$T/boot/grub" "$T/var/cache/apt/archives"/*.deb
[ -z "$(ls -A "$T/boot")" ] || die "grub-pc wrote into /boot: $(ls "$T/boot")"
# UUIDs of its own: both disks are attached to one machine in the tests
BIOS_ROOT_UUID=1b2c3d4e-0000-4000-8000-000000000011 BIOS_BOOT_UUID=1b2c3d4e-0000-4000-8000-000000000012
printf 'UUID=%s / ext4 errors=remount-ro 0 1\nUUID=%s /boot ext4 defaults 0 2\n' $BIOS_ROOT_UUID $BIOS_BOOT_UUID > "$T/etc/fstab"
disk "$BIOS_IMG" $BIOS_ROOT_UUID $BIOS_BOOT_UUID 21686148-6449-6E6F-744E-656564454649
fi
rm -rf "$T" "$OUT/boot.tree" "$OUT"/*.part
echo "$want" > "$STAMP"
# kept for the next clone on this machine; whole or not at all
if [ -n "$kept" ] && mkdir -p "$CACHE" 2>/dev/null; then
	rm -rf "$kept.tmp" && mkdir -p "$kept.tmp" &&
		cp --sparse=always $DISKS "$STAMP" "$kept.tmp/" && rm -rf "$kept" && mv "$kept.tmp" "$kept" ||
		rm -rf "$kept.tmp"
fi
