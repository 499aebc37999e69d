#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots an arm64 bootbench artifact (make image ARCH=arm64, issue 47) in
# qemu-system-aarch64's virt machine with AAVMF, Debian's build of EDK2 for
# it (qemu-efi-aarch64): UEFI, as arm64 servers boot. scripts/qemu.sh's
# options where they mean the same, so that `make run ARCH=arm64` and the
# arm64 boot tests read as the x86 ones; x86's own (SeaBIOS, PXE, the BMC,
# KVM) are not here. TCG always: this machine is x86_64.
#
# usage: scripts/qemu-arm64.sh [options]
#   --fw uefi|secureboot        AAVMF, or AAVMF with Microsoft's keys
#                               enrolled (AAVMF_CODE.ms.fd, AAVMF_VARS.ms.fd)
#   --usb IMG                   boot a USB stick image (usb-storage on xHCI)
#   --cdrom ISO                 boot an ISO as a CD-ROM (on virtio-scsi: the
#                               virt machine has no IDE or AHCI of its own)
#   --pxe DIR [--bootfile F]    boot from QEMU's user-mode TFTP (AAVMF's own
#                               network boot; F: bootaa64.efi, shim)
#   --pxe dhcp                  AAVMF's network boot from the DHCP and TFTP
#                               servers on --tap's network
#   --http URL|dhcp             UEFI HTTP boot, AAVMF's PXE turned off (its
#                               fw_cfg knobs) so that it goes to HTTP at once:
#                               URL from QEMU's user-mode DHCP, or dhcp: from
#                               the DHCP server on --tap's network
#   --tap IFNAME                the NIC on a tap device (a test's network
#                               namespace, its own DHCP server) instead of
#                               QEMU's user-mode network
#   --kernel K --initrd I [--append "..."]   direct kernel boot (a --usb
#                               given as well is attached, not booted)
#   --boot-disk KIND:FILE       boot an installed system's disk (a --disk that
#                               boots: AAVMF's fresh variables have no boot
#                               entry, so its removable path, BOOTAA64.EFI)
#   --disk KIND:FILE            a test disk: virtio, nvme or scsi (repeatable);
#                               serials are BB<KIND><n>, as scripts/qemu.sh's
#   --snapshot                  the stick's writes go to a temporary overlay
#   --serial FILE               serial console (the PL011, ttyAMA0) to FILE
#                               (default: the terminal)
#   --timeout S                 kill QEMU after S seconds (exit status 124)
#   --mem MIB                   guest memory (default 1024)
#   --smp N                     guest CPUs (default 2, or QEMU_SMP's)
#   --cpu MODEL                 the guest CPU (default cortex-a57: "max"
#                               emulates pointer authentication and SVE too,
#                               which under TCG costs time a boot does not need)
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
die() { echo "qemu-arm64: $*" >&2; exit 2; }

command -v qemu-system-aarch64 >/dev/null ||
	die "qemu-system-aarch64 is missing: apt-get install qemu-system-arm (or run 'make deps ARCH=arm64' as root)"

fw=uefi boot="" bootdisk="" usb="" cd="" pxe="" http="" tap="" bootfile=bootaa64.efi kernel="" initrd="" append="" disks="" snapshot="" serial="" timeout=""
mem=1024 smp="" cpu=cortex-a57
while [ $# -gt 0 ]; do
	case "$1" in
	--fw) fw=$2; shift ;;
	--usb) [ -n "$boot" ] || boot=usb; usb=$2; shift ;;
	--cdrom) [ -n "$boot" ] || boot=cdrom; cd=$2; shift ;;
	--pxe) boot=pxe pxe=$2; shift ;;
	--bootfile) bootfile=$2; shift ;;
	--http) boot=http http=$2; shift ;;
	--tap) tap=$2; shift ;;
	--kernel) boot=kernel kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--append) append=$2; shift ;;
	--disk) disks="$disks $2"; shift ;;
	--boot-disk) boot=disk bootdisk=$2 disks="$2 $disks"; shift ;;
	--snapshot) snapshot=1 ;;
	--serial) serial=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--mem) mem=$2; shift ;;
	--smp) case "$2" in [1-8]) smp=$2 ;; *) die "--smp $2: expected 1 to 8" ;; esac; shift ;;
	--cpu) cpu=$2; shift ;;
	*) die "unknown option '$1' (see the head of scripts/qemu-arm64.sh)" ;;
	esac
	shift
done
[ -n "$boot" ] || die "nothing to boot: give --usb, --cdrom, --pxe, --http, --kernel or --boot-disk"
[ -n "$smp" ] || smp=${QEMU_SMP:-2}
# NVMe with one vCPU: room for a second, so that TCG keeps the guest's
# barriers that NVMe's shadow doorbells need (scripts/qemu.sh says why)
case " $disks " in *" nvme"*) [ "$smp" != 1 ] || smp=1,maxcpus=2 ;; esac

# The firmware: its code read-only, its variables a copy, so that one
# boot's boot entries are not the next one's.
aavmf=/usr/share/AAVMF
case "$fw" in
uefi) code=$aavmf/AAVMF_CODE.fd vars=$aavmf/AAVMF_VARS.fd ;;
secureboot) code=$aavmf/AAVMF_CODE.ms.fd vars=$aavmf/AAVMF_VARS.ms.fd ;;
*) die "--fw $fw: expected uefi or secureboot" ;;
esac
[ -r "$code" ] || die "$code is missing: apt-get install qemu-efi-aarch64"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$vars" "$tmp/vars.fd"

. "$ROOT/scripts/qemu-netdev.sh"

# virt's PCIe: the NIC without its option ROM (QEMU's iPXE ROMs are x86
# code, which AAVMF cannot run); a random source, so the guest's first
# reads of /dev/random do not wait
set -- -M virt -accel tcg -cpu "$cpu" -m "$mem" -smp "$smp" -nodefaults -no-reboot -display none \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" \
	-drive "if=pflash,format=raw,unit=1,file=$tmp/vars.fd" \
	-netdev "$netdev" \
	-device "virtio-net-pci,netdev=n0,romfile=$(case $boot in pxe|http) echo ,bootindex=0 ;; esac)" \
	-object rng-random,id=rng0,filename=/dev/urandom -device virtio-rng-pci,rng=rng0
if [ -n "$usb" ]; then
	set -- "$@" -device qemu-xhci,id=xhci \
		-drive "if=none,id=stick,format=raw,file=$usb,cache=unsafe${snapshot:+,snapshot=on}" \
		-device "usb-storage,id=usbstick,bus=xhci.0,drive=stick$([ "$boot" = usb ] && echo ,bootindex=0)"
fi
if [ -n "$cd" ]; then
	set -- "$@" -device virtio-scsi-pci,id=scsicd \
		-drive "if=none,id=cd,format=raw,media=cdrom,readonly=on,file=$cd" \
		-device "scsi-cd,bus=scsicd.0,drive=cd$([ "$boot" = cdrom ] && echo ,bootindex=0)"
fi
# HTTP boot: AAVMF's PXE off (scripts/qemu-netdev.sh)
set -- "$@" $fwcfg
[ "$boot" != kernel ] || set -- "$@" -kernel "$kernel" ${initrd:+-initrd "$initrd"} -append "$append"

n=0
for d in $disks; do
	kind=${d%%:*} file=${d#*:}
	[ -e "$file" ] || die "--disk $d: no such file"
	n=$((n + 1))
	first=""
	[ "$d" != "$bootdisk" ] || first=,bootindex=0
	set -- "$@" -drive "if=none,id=d$n,format=raw,file=$file,cache=unsafe"
	case "$kind" in
	virtio) set -- "$@" -device "virtio-blk-pci,id=disk$n,drive=d$n,serial=BBVIRTIO$n$first" ;;
	nvme) set -- "$@" -device "nvme,id=disk$n,drive=d$n,serial=BBNVME$n$first" ;;
	scsi) [ -n "${scsi_hba:-}" ] || { set -- "$@" -device virtio-scsi-pci,id=scsi0; scsi_hba=1; }
	      set -- "$@" -device "scsi-hd,id=disk$n,bus=scsi0.0,drive=d$n,serial=BBSCSI$n$first" ;;
	*) die "--disk $d: kind must be virtio, nvme or scsi" ;;
	esac
done

if [ -n "$serial" ]; then
	set -- "$@" -serial "file:$serial" -monitor none
else
	set -- "$@" -serial mon:stdio
fi
if [ -n "$timeout" ] && [ -n "$serial" ]; then
	timeout --foreground "$timeout" qemu-system-aarch64 "$@" </dev/null
elif [ -n "$timeout" ]; then
	timeout --foreground "$timeout" qemu-system-aarch64 "$@"
else
	qemu-system-aarch64 "$@"
fi
