#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds out/installed/debian-uefi.img for the rescue tests: a real Debian 12
# (bookworm) installed on a virtual disk as the installer lays it out for
# UEFI: GPT, an ESP (vfat) on /boot/efi, a separate ext4 /boot, an ext4 root;
# its kernel, initramfs, systemd, and GRUB's packages, with a serial
# console. Its boot loader is missing, as on a box whose ESP and
# /boot/grub were lost: the test's rescue installs it. debootstrap fetches
# from the same Debian archive as scripts/fetch.sh (the host's apt source);
# the filesystems are made from the tree with mkfs -d (no loop mounts).
# debootstrap checks the archive's signature itself.
# Cached: rebuilt only when this script changes.
set -eu
OUT=${OUT:-out}/installed
IMG=$OUT/debian-uefi.img
STAMP=$OUT/debian-uefi.stamp
die() { echo "installed: $*" >&2; exit 2; }
want=$(sha256sum "$0" | cut -d' ' -f1)
[ -f "$IMG" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ] && exit 0
[ "$(id -u)" = 0 ] || die "needs root (debootstrap)"
for c in debootstrap mkfs.ext4 mkfs.vfat sfdisk; do command -v $c >/dev/null || die "$c is missing: run 'make deps'"; done
# the archive scripts/fetch.sh found in the host's apt sources (the stage before)
MIRROR=${DEBIAN_MIRROR:-$(awk '$1 == "deb" { print $3; exit }' dl/apt/sources.list 2>/dev/null)}
[ -n "$MIRROR" ] || die "dl/apt/sources.list names no archive: run 'make image' first (or set DEBIAN_MIRROR)"
echo "  INSTALL debian 12 for the rescue tests (debootstrap from $MIRROR)"
rm -rf "$OUT/tree" "$OUT"/*.part
mkdir -p "$OUT"
debootstrap --variant=minbase \
	--include=linux-image-amd64,grub-efi-amd64,efibootmgr,systemd-sysv,udev,initramfs-tools,e2fsprogs,dosfstools \
	bookworm "$OUT/tree" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 || { tail -n 20 "$OUT/debootstrap.log"; die "debootstrap failed"; }
T=$OUT/tree
ROOT_UUID=1b2c3d4e-0000-4000-8000-000000000001 BOOT_UUID=1b2c3d4e-0000-4000-8000-000000000002
ESP_ID=1B2C-3D4E
cat > "$T/etc/fstab" <<FSTAB
UUID=$ROOT_UUID / ext4 errors=remount-ro 0 1
UUID=$BOOT_UUID /boot ext4 defaults 0 2
UUID=$ESP_ID /boot/efi vfat umask=0077 0 1
FSTAB
echo bbinstalled > "$T/etc/hostname"
# the serial console: GRUB's and the kernel's, and a getty on it (systemd starts one for console=ttyS0)
sed -i 's/^GRUB_CMDLINE_LINUX_DEFAULT=.*/GRUB_CMDLINE_LINUX_DEFAULT=""/; s/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX="console=ttyS0,115200"/' "$T/etc/default/grub"
printf 'GRUB_TERMINAL=serial\nGRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"\nGRUB_TIMEOUT=1\n' >> "$T/etc/default/grub"
# what the lost boot loader leaves: no /boot/grub, an empty ESP
rm -rf "$T/boot/grub" "$T/var/cache/apt/archives"/*.deb
mkdir -p "$OUT/boot.tree" "$OUT/esp.tree"
mv "$T/boot"/* "$OUT/boot.tree/"
mkdir -p "$OUT/boot.tree/efi"
truncate -s 256M "$OUT/boot.part" && mkfs.ext4 -q -U "$BOOT_UUID" -d "$OUT/boot.tree" "$OUT/boot.part"
truncate -s 64M "$OUT/esp.part" && mkfs.vfat -i "$(echo $ESP_ID | tr -d -)" "$OUT/esp.part" > /dev/null
truncate -s 1800M "$OUT/root.part" && mkfs.ext4 -q -U "$ROOT_UUID" -d "$T" "$OUT/root.part"
rm -f "$IMG"
truncate -s 2200M "$IMG.tmp"
sfdisk -q "$IMG.tmp" <<TABLE
label: gpt
start=1MiB, size=64MiB, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B
start=65MiB, size=256MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
start=321MiB, size=1800MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
TABLE
dd if="$OUT/esp.part" of="$IMG.tmp" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$OUT/boot.part" of="$IMG.tmp" bs=1M seek=65 conv=notrunc,sparse status=none
dd if="$OUT/root.part" of="$IMG.tmp" bs=1M seek=321 conv=notrunc,sparse status=none
mv "$IMG.tmp" "$IMG"
rm -rf "$T" "$OUT/boot.tree" "$OUT/esp.tree" "$OUT"/*.part
echo "$want" > "$STAMP"
