#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 4 of the image chain: wrap out/vmlinuz and out/initramfs.img (from
# build-rootfs.sh) with the fetched boot loaders into the three artifacts:
#   out/bootbench-usb.img  raw disk for dd: MBR, one FAT16 partition BOOTBENCH
#                          with syslinux (BIOS), shim + signed GRUB (UEFI,
#                          Secure Boot), kernel, initramfs, the packs
#                          (image/packs.table), results/
#   out/bootbench.iso      hybrid ISO: isolinux (BIOS CD), El Torito EFI image
#                          (UEFI CD), MBR/GPT for dd
#   out/pxe/               pxelinux.0 + pxelinux.cfg/default, boot.ipxe and
#                          boot-all.ipxe, bootx64.efi + grubx64.efi +
#                          grub/grub.cfg; memtest.ipxe and memtest86+
# Every medium carries Debian's memtest86+ (BIOS and EFI builds) beside the
# kernel, an entry of each boot menu.
# Boot loader configs are the templates in image/boot. No root: the FAT
# images are made and filled with mtools, the partition table with sfdisk on
# a file. Equal inputs give equal bytes: every time in the FAT and ISO file
# systems is SOURCE_DATE_EPOCH (the last commit's), their serials fixed.
# ARCH=arm64 (make's, issue 47): the stick and pxe/, for UEFI only (arm64
# servers boot UEFI): shim's and GRUB's arm64 builds (EFI/BOOT/BOOTAA64.EFI
# and grubaa64.efi on the stick; bootaa64.efi and GRUB's netboot build in
# pxe/; the ISO's El Torito EFI image), the serial console on the PL011
# (ttyAMA0); no syslinux or isolinux, no memtest86+ (x86's only).
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
OUT=${OUT:-$ROOT/out}
SOURCE_DATE_EPOCH=$("$ROOT/scripts/source-date.sh")
export SOURCE_DATE_EPOCH
PKGS=$OUT/pkgs
TPL=$ROOT/image/boot
# The kernel command line every boot entry starts from: kernel messages on
# the serial line and the screen, the screen last so /dev/console is the one
# a person looks at; quiet keeps the kernel's chatter off both.
case ${ARCH:=x86_64} in
x86_64) CMDLINE=${BOOTBENCH_CMDLINE:-"console=ttyS0,115200 console=tty0 quiet"} ;;
arm64) CMDLINE=${BOOTBENCH_CMDLINE:-"console=ttyAMA0,115200 console=tty0 quiet"} ;;
*) echo "image: ARCH=$ARCH: no such ARCH (x86_64, arm64)" >&2; exit 2 ;;
esac
# The stick's partition: FAT16 with 2 KiB clusters. FAT32 needs 65525
# clusters at least, so a stick this small would have 512-byte ones and
# FATs of 4 bytes each, twice: 0.7 MB of a 48 MB image; FAT16's are 0.1 MB.
# syslinux, shim and GRUB, and UEFI firmware on removable media, read both
# (the ISO's EFI image is FAT16 too), and 65524 clusters of 2 KiB hold
# 128 MiB. Its size: what it carries (each file rounded up to a cluster),
# the FATs (2 bytes a cluster, twice), the root directory, and RESULTS_MIB
# free for results: what keeps the image under 48 MB with every pack on it
# (a run's summary, JSON and report are 0.1-1 MiB; a save that does not fit
# goes to the console, and to a network share when one is named).
RESULTS_MIB=${RESULTS_MIB:-2}
CLUSTER_KIB=2
die() { echo "image: $*" >&2; exit 2; }
say() { echo "  IMAGE   $*"; }

for t in mformat:mtools mcopy:mtools mmd:mtools mlabel:mtools minfo:mtools sfdisk:fdisk xorriso:xorriso mkfs.fat:dosfstools; do
	c=${t%%:*} p=${t#*:}
	command -v "$c" >/dev/null 2>&1 || die "$c is missing: apt-get install $p (or run 'make deps' as root)"
done
SYSLINUX=$PKGS/syslinux-common/usr/lib/syslinux
MEMTEST=$PKGS/memtest86+/boot
case $ARCH in
x86_64)
	SHIM=$PKGS/shim-signed/usr/lib/shim/shimx64.efi.signed
	GRUB=$PKGS/grub-efi-amd64-signed/usr/lib/grub/x86_64-efi-signed
	EFI_LOADER=BOOTX64.EFI GRUB_EFI=grubx64.efi
	NEEDED="$SYSLINUX/mbr/mbr.bin $SYSLINUX/modules/bios/ldlinux.c32 $SHIM $GRUB/grubx64.efi.signed
		$GRUB/grubnetx64.efi.signed $PKGS/isolinux/usr/lib/ISOLINUX/isolinux.bin
		$PKGS/isolinux/usr/lib/ISOLINUX/isohdpfx.bin $PKGS/pxelinux/usr/lib/PXELINUX/pxelinux.0
		$PKGS/syslinux/usr/bin/syslinux $MEMTEST/memtest86+x64.bin $MEMTEST/memtest86+x64.efi" ;;
arm64)
	SHIM=$PKGS/shim-signed/usr/lib/shim/shimaa64.efi.signed
	GRUB=$PKGS/grub-efi-arm64-signed/usr/lib/grub/arm64-efi-signed
	EFI_LOADER=BOOTAA64.EFI GRUB_EFI=grubaa64.efi
	NEEDED="$SHIM $GRUB/grubaa64.efi.signed $GRUB/grubnetaa64.efi.signed" ;;
esac
# The parts, in the order the kernel unpacks them: all of them (the stick,
# the ISO, the PXE "all packs" entries) and the PXE default's.
PACKS_TABLE=$ROOT/image/packs.table
parts() { # column (stick|pxe|all)
	awk -v c="$1" '!/^[[:space:]]*#/ && NF { if (c == "all" || (c == "stick" && $3 == "yes") || (c == "pxe" && $4 == "yes")) print $2 }' "$PACKS_TABLE"
}
ALL_PARTS=$(parts all)
# an entry loads each pack after the packs it needs (packs.table's "needs")
check_entry() { # what parts...
	what=$1; shift
	awk -v list=" $* " -v what="$what" '!/^[[:space:]]*#/ && NF { file[$1] = $2; needs[$1] = $5; order[$2] = ++n }
		END { for (p in file) if (index(list, " " file[p] " ") && needs[p] != "-") {
			k = split(needs[p], a, ","); for (i = 1; i <= k; i++)
				if (!index(list, " " file[a[i]] " ")) { printf "image/packs.table: the %s entries load %s without %s, which it needs\n", what, file[p], file[a[i]]; exit 1 } } }' "$PACKS_TABLE" >&2 ||
		exit 2
}
check_entry stick $(parts stick)
check_entry "PXE default" $(parts pxe)
for f in vmlinuz $ALL_PARTS rootfs/etc/bootbench-release; do
	[ -e "$OUT/$f" ] || die "out/$f is missing: run scripts/build-rootfs.sh"
done

for f in $NEEDED; do
	[ -e "$f" ] || die "${f#$OUT/} is missing: run scripts/fetch.sh and scripts/build-rootfs.sh"
done

# A file only this build has, for GRUB to find its own root.
ID=bootbench-$(cd "$OUT" && cat vmlinuz $ALL_PARTS | sha256sum | cut -c1-16).id
# every boot loader passes it as bootbench.id; tests booting the kernel directly read it here
echo "$ID" > "$OUT/boot-id"
WORK=$OUT/image.work
rm -rf "$WORK"; mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# Templates: @NAME@ placeholders, nothing else. @INITRDS@ is the list of
# parts in the loader's own syntax: comma-separated for syslinux, spaces for
# GRUB; for iPXE the kernel line's initrd= words (@INITRD_ARGS@) and a line
# "initrd FILE" each (@INITRD_LINES@, a line of its own).
render() { # template boot kernel dir parts... > out
	t=$1 boot=$2 kernel=$3 dir=$4
	shift 4
	sep=" "
	case $t in syslinux*) sep="," ;; esac
	list="" args="" lines=""
	for f in "$@"; do
		list="${list:+$list$sep}$dir$f"
		args="${args:+$args }initrd=$f"
		lines="${lines:+$lines\n}initrd $f"
	done
	sed -e "s|@CMDLINE@|$CMDLINE|g" -e "s|@BOOT@|$boot|g" -e "s|@KERNEL@|$kernel|g" \
	    -e "s|@INITRDS@|$list|g" -e "s|@INITRD_ARGS@|$args|g" -e "s|^@INITRD_LINES@\$|$lines|" \
	    -e "s|@ID@|$ID|g" -e "s|@DIR@|$dir|g" "$TPL/$t"
}

# grub.cfg as the arch's GRUB reads it: arm64's signed GRUB has no serial
# driver of its own (no com0: "serial port `com0' isn't found" on every
# boot), and needs none, as AAVMF's console, which GRUB's is, is the
# PL011 serial port already
grub_for_arch() {
	case $ARCH in
	x86_64) cat ;;
	arm64) sed -e '/^serial /d' -e '/^terminal_input /d' -e '/^terminal_output /d' ;;
	esac
}

# The tree every medium carries: kernel, initramfs, id, release, EFI loaders.
tree() { # dir boot
	mkdir -p "$1/boot" "$1/EFI/BOOT" "$1/EFI/debian"
	(cd "$OUT" && cp vmlinuz $ALL_PARTS "$1/boot/")
	[ "$ARCH" != x86_64 ] || cp "$MEMTEST/memtest86+x64.bin" "$MEMTEST/memtest86+x64.efi" "$1/boot/"
	cp "$OUT/rootfs/etc/bootbench-release" "$1/boot/bootbench-release.txt"
	: > "$1/boot/$ID"
	cp "$SHIM" "$1/EFI/BOOT/$EFI_LOADER"
	cp "$GRUB/$GRUB_EFI.signed" "$1/EFI/BOOT/$GRUB_EFI"
	# Signed GRUB reads grub.cfg from the folder it was loaded from; shim's
	# fallback path (EFI/debian) gets the same file.
	{
		render grub.cfg.in "$2" /boot/vmlinuz /boot/ $(parts stick) | grub_for_arch
		[ "$ARCH" != x86_64 ] || render grub-memtest.cfg.in "$2" /boot/vmlinuz /boot/
	} > "$1/EFI/BOOT/grub.cfg"
	cp "$1/EFI/BOOT/grub.cfg" "$1/EFI/debian/grub.cfg"
}

# Every file and folder of a tree at the commit's time (mcopy -m and
# xorriso keep them).
stamp_tree() { find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; }

# A FAT file system image filled from a directory, with mtools.
fat_image() { # file size_kib label dir fat_bits [sectors_per_cluster]
	rm -f "$1"
	stamp_tree "$4"
	mkfs.fat -C -F "$5" -S 512 -s "${6:-1}" -i 0b0b0b0b "$1" "$2" >/dev/null ||
		die "mkfs.fat failed on ${1#$OUT/}"
	# the label by mtools, which dates its entry SOURCE_DATE_EPOCH (mkfs.fat's
	# -n dates it now)
	mlabel -i "$1" ::"$3" || die "mlabel failed on ${1#$OUT/}"
	(cd "$4" && for e in *; do mcopy -i "$1" -s -p -Q -m "$e" ::/ || exit 1; done) ||
		die "mcopy into ${1#$OUT/} failed"
}

# --- USB stick ---------------------------------------------------------------
usb=$WORK/usb
tree "$usb" usb
mkdir -p "$usb/results"
if [ "$ARCH" = x86_64 ]; then
	mkdir -p "$usb/syslinux"
	render syslinux.cfg.in usb /boot/vmlinuz /boot/ $(parts stick) > "$usb/syslinux/syslinux.cfg"
fi
cat > "$usb/bootbench.conf" <<'CONF'
# bootbench.conf: boot parameters for unattended runs, one NAME=VALUE a line,
# the same names as bootbench.* on the kernel command line (which wins).
# Uncomment to run the smoke profile on the first NVMe disk and power off:
#run=smoke
#targets=/dev/nvme0n1
#destroy=/dev/nvme0n1
#save=usb
#after=poweroff
CONF
# every file and directory in whole clusters
used_kib=$(find "$usb" -mindepth 1 -printf '%s\n' | awk -v c=$((CLUSTER_KIB * 1024)) '{ k += int(($1 + c - 1) / c) } END { print k * c / 1024 }')
part_kib=$(( used_kib + RESULTS_MIB * 1024 ))
part_kib=$(( (part_kib + part_kib / 512 + 64 + 63) / 64 * 64 ))
fat_image "$WORK/part.img" $part_kib BOOTBENCH "$usb" 16 $((CLUSTER_KIB * 2))
# syslinux's installer works on the file through mtools: no loop device.
[ "$ARCH" != x86_64 ] || "$PKGS/syslinux/usr/bin/syslinux" --install --directory /syslinux "$WORK/part.img" ||
	die "syslinux could not install its boot sector"
img=$WORK/bootbench-usb.img
truncate -s $(( (part_kib + 1024) * 1024 )) "$img"
printf 'label: dos\nlabel-id: 0xb007b0b0\nstart=2048, type=e, bootable\n' |
	sfdisk -q --no-reread --no-tell-kernel "$img" >/dev/null || die "sfdisk failed on the USB image"
# arm64's UEFI firmware reads the partition table only: no boot code
[ "$ARCH" != x86_64 ] || dd if="$SYSLINUX/mbr/mbr.bin" of="$img" bs=440 count=1 conv=notrunc status=none
dd if="$WORK/part.img" of="$img" bs=1M seek=1 conv=notrunc status=none
mv "$img" "$OUT/bootbench-usb.img"
say "${OUT#$ROOT/}/bootbench-usb.img $(( $(stat -c %s "$OUT/bootbench-usb.img") / 1000 )) kB, $(( $(mdir -i "$OUT/bootbench-usb.img@@1M" :: | sed -n 's/ *\([0-9 ]*\) bytes free/\1/p' | tr -d ' ') / 1024 )) KiB free for results"

# --- ISO -----------------------------------------------------------------------
iso=$WORK/iso
tree "$iso" cd
# BIOS: isolinux (x86_64's), its El Torito entry first; arm64's ISO boots
# UEFI only. xorriso's options for it: the positional parameters.
if [ "$ARCH" = x86_64 ]; then
	mkdir -p "$iso/isolinux"
	cp "$PKGS/isolinux/usr/lib/ISOLINUX/isolinux.bin" "$SYSLINUX/modules/bios/ldlinux.c32" "$iso/isolinux/"
	render syslinux.cfg.in cd /boot/vmlinuz /boot/ $(parts stick) > "$iso/isolinux/isolinux.cfg"
	set -- -eltorito-boot isolinux/isolinux.bin -eltorito-catalog isolinux/boot.cat \
		-no-emul-boot -boot-load-size 4 -boot-info-table \
		-isohybrid-mbr "$PKGS/isolinux/usr/lib/ISOLINUX/isohdpfx.bin" -eltorito-alt-boot
else
	set -- -eltorito-catalog boot/boot.cat
fi
# The El Torito EFI image holds only the loaders and grub.cfg; GRUB finds
# the kernel on the ISO itself by the id file.
efi=$WORK/efi
mkdir -p "$efi"
cp -r "$iso/EFI" "$efi/"
efi_kib=$(( $(du -sk "$efi" | cut -f1) + 1024 ))
fat_image "$iso/boot/efi.img" $efi_kib BBEFI "$efi" 16
stamp_tree "$iso"
xorriso -as mkisofs -quiet -iso-level 3 -full-iso9660-filenames -volid BOOTBENCH \
	-joliet -rational-rock \
	"$@" -e boot/efi.img -no-emul-boot -isohybrid-gpt-basdat \
	-output "$WORK/bootbench.iso" "$iso" 2>"$WORK/xorriso.log" ||
	{ cat "$WORK/xorriso.log" >&2; die "xorriso failed"; }
mv "$WORK/bootbench.iso" "$OUT/bootbench.iso"
say "${OUT#$ROOT/}/bootbench.iso $(du -m --apparent-size "$OUT/bootbench.iso" | cut -f1) MiB"

# arm64: pxe/ for UEFI network boot (DHCP client-arch 11): shim as
# bootaa64.efi, which loads grubaa64.efi (GRUB's signed netboot build) from
# the same TFTP folder, and its grub/grub.cfg, as x86_64's UEFI entries
if [ "$ARCH" = arm64 ]; then
	pxe=$OUT/pxe
	rm -rf "$pxe"; mkdir -p "$pxe/grub"
	(cd "$OUT" && cp vmlinuz $ALL_PARTS "$pxe/")
	cp "$SHIM" "$pxe/bootaa64.efi"
	cp "$GRUB/grubnetaa64.efi.signed" "$pxe/grubaa64.efi"
	{
		render grub-net.cfg.in net "(\$root)/vmlinuz" "(\$root)/" $(parts pxe)
		render grub-net-all.cfg.in net "(\$root)/vmlinuz" "(\$root)/" $ALL_PARTS
	} | grub_for_arch > "$pxe/grub/grub.cfg"
	say "${OUT#$ROOT/}/pxe/ ($(ls "$pxe" | wc -l) entries)"
	exit 0
fi

# --- PXE -----------------------------------------------------------------------
pxe=$OUT/pxe
rm -rf "$pxe"; mkdir -p "$pxe/pxelinux.cfg" "$pxe/grub"
(cd "$OUT" && cp vmlinuz $ALL_PARTS "$pxe/")
cp "$MEMTEST/memtest86+x64.bin" "$MEMTEST/memtest86+x64.efi" "$pxe/"
cp "$PKGS/pxelinux/usr/lib/PXELINUX/pxelinux.0" "$SYSLINUX/modules/bios/ldlinux.c32" "$pxe/"
# the default entries load the PXE parts; "all packs" entries load every one
{
	render syslinux.cfg.in net vmlinuz "" $(parts pxe)
	render syslinux-all.cfg.in net vmlinuz "" $ALL_PARTS
} > "$pxe/pxelinux.cfg/default"
render boot.ipxe.in net vmlinuz "" $(parts pxe) > "$pxe/boot.ipxe"
render boot.ipxe.in net vmlinuz "" $ALL_PARTS > "$pxe/boot-all.ipxe"
render memtest.ipxe.in net vmlinuz "" > "$pxe/memtest.ipxe"
cp "$SHIM" "$pxe/bootx64.efi"
cp "$GRUB/grubnetx64.efi.signed" "$pxe/grubx64.efi"
{
	render grub-net.cfg.in net "(\$root)/vmlinuz" "(\$root)/" $(parts pxe)
	render grub-net-all.cfg.in net "(\$root)/vmlinuz" "(\$root)/" $ALL_PARTS
	render grub-memtest.cfg.in net "(\$root)/vmlinuz" "(\$root)/"
} > "$pxe/grub/grub.cfg"
say "out/pxe/ ($(ls "$pxe" | wc -l) entries)"
