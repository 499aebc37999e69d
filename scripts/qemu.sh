#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots a bootbench artifact in QEMU, the one way `make run`, the boot tests
# and `make bench-image` all use. KVM when it works (probed once by booting
# the kernel for a few seconds; here /dev/kvm exists but guests hang), TCG
# otherwise.
#
# usage: scripts/qemu.sh [options]
#   --fw bios|uefi|secureboot   firmware: SeaBIOS, OVMF, OVMF with Secure Boot
#                               enforced and Microsoft's keys enrolled
#   --usb IMG                   boot a USB stick image (usb-storage on xHCI;
#                               IMG.qcow2 is a qcow2 image, for snapshots)
#   --cdrom ISO                 boot an ISO as a CD-ROM
#   --pxe DIR [--bootfile F]    boot from QEMU's user-mode TFTP (BIOS: the NIC's iPXE ROM;
#                               UEFI: OVMF's own PXE);
#                               --pxe dhcp: from the servers on --tap's network
#   --http URL|dhcp             UEFI HTTP boot (with --fw uefi or secureboot):
#                               OVMF's own network stack (no iPXE ROM), its PXE
#                               turned off (fw_cfg) so that it goes to HTTP at
#                               once; URL from QEMU's user-mode DHCP, or dhcp:
#                               from the DHCP server on --tap's network
#   --tap IFNAME                the NIC on a tap device (a test's network
#                               namespace, its own DHCP server) instead of
#                               QEMU's user-mode network
#   --kernel K --initrd I [--append "..."]   direct kernel boot (a --usb or
#                               --cdrom given as well is attached, not booted)
#   --boot-disk KIND:FILE       boot an installed system's disk (a --disk that boots)
#   --disk KIND:FILE            a test disk: virtio, nvme, scsi or sata (repeatable);
#                               serials are BB<KIND><n>; KIND+wbps=N holds its
#                               writes to N bytes a second (QEMU's throttling);
#                               KIND+serial=S gives it serial S instead
#   --locked                    the stick's write-protect switch is on (read-only)
#   --forward HOST:GUEST        forward 127.0.0.1:HOST on this machine to the
#                               guest's TCP port GUEST (user-mode networking)
#   --direct                    with --usb and BIOS: the stick's own kernel,
#                               initramfs and command line (its syslinux.cfg's
#                               DEFAULT entry, bootbench, read off the stick)
#                               booted by QEMU, the firmware's and boot
#                               loader's reading of them through USB left out
#                               (15 s a boot under TCG); the stick stays
#                               attached, as it was booted from. With --pxe,
#                               BIOS and pxelinux.0 the same from
#                               pxelinux.cfg/default in the TFTP root. Ignored
#                               for other media and UEFI. The boot tests use
#                               it unless the boot loader is what they test
#                               (FIRMWARE_BOOT=1)
#   --snapshot                  boot media writes go to a temporary overlay
#   --serial FILE               serial console to FILE (default: the terminal)
#   --serial2 PIPE              a second serial port (the guest's ttyS1, as a
#                               BMC's serial-over-LAN line) on the FIFOs
#                               PIPE.in (what the guest reads) and PIPE.out
#   --timeout S                 kill QEMU after S seconds (exit status 124)
#   --mem MIB                   guest memory (default 1024)
#   --smp N                     guest CPUs (default 2, or QEMU_SMP's)
#   --monitor SOCKET            QEMU's monitor on a Unix socket (device_del,
#                               savevm); devices are named: usbstick, disk1..
#   --loadvm NAME               start from the snapshot NAME of a qcow2 stick
#   --throttle BPS              the stick moves at most BPS bytes a second
#   --bmc                       a BMC (QEMU's ipmi-bmc-sim behind an ISA KCS
#                               interface, as a server's: ipmi_si finds it)
#   --nic MODEL[,PROP=V...]     the network card: virtio-net-pci (default),
#                               e1000 or e1000e, with QEMU's properties
#                               (virtio-net-pci,speed=10000,duplex=full); the
#                               monitor's set_link names its netdev n0
#   --net-delay MS              the network card's packets held and let go
#                               every MS milliseconds (QEMU's filter-buffer):
#                               a slow link, so a test can act in the
#                               middle of a transfer
#   --peer-link listen:PORT|connect:PORT
#                               a second NIC (virtio, netdev n1) cabled to
#                               another QEMU's through a socket network on
#                               127.0.0.1:PORT: the one that listens starts
#                               first; MACs 52:54:00:be:00:01 (listen) and
#                               :02 (connect)
#   --smbios SPEC               an SMBIOS field QEMU gives the firmware (repeatable):
#                               type=0,version=..., type=1,manufacturer=...,
#                               product=...,serial=..., type=17,part=...
#   --rtc BASE                  the guest's clock starts at BASE (QEMU's -rtc
#                               base=: 2001-01-01 or 2001-01-01T12:00:00), a
#                               machine whose firmware clock is wrong
#   --cpu MODEL                 the guest CPU (default: the host's with KVM,
#                               QEMU's qemu64 with TCG; "max" under TCG adds
#                               AVX2, for the parity code's other paths)
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
OUT=$ROOT/out
die() { echo "qemu: $*" >&2; exit 2; }

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: apt-get install qemu-system-x86 (or run 'make deps' as root)"

fw=bios boot="" usb="" cd="" pxe="" http="" tap="" bootfile=pxelinux.0 kernel="" initrd="" append=""
serial="" serial2="" locked="" timeout="" mem=1024 smp="" snapshot="" disks="" cpu="" forward=""
monitor="" loadvm="" throttle="" bmc="" nic=virtio-net-pci smbios="" peer="" rtc="" netdelay="" direct=""
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
	--direct) direct=1 ;;
	--forward)
		case "$2" in
		[0-9]*:[0-9]*) forward="$forward,hostfwd=tcp:127.0.0.1:${2%%:*}-:${2#*:}" ;;
		*) die "--forward $2: expected HOST-PORT:GUEST-PORT" ;;
		esac
		shift ;;
	--locked) locked=1 ;;
	--serial) serial=$2; shift ;;
	--serial2) serial2=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--mem) mem=$2; shift ;;
	--smp) case "$2" in [1-8]) smp=$2 ;; *) die "--smp $2: expected 1 to 8" ;; esac; shift ;;
	--cpu) cpu=$2; shift ;;
	--bmc) bmc=1 ;;
	--rtc)
		case "$2" in
		[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]) rtc=$2 ;;
		*) die "--rtc $2: expected a date, 2001-01-01 or 2001-01-01T12:00:00" ;;
		esac
		shift ;;
	--nic)
		case "$2" in
		*[!A-Za-z0-9,=.-]*) die "--nic $2: expected MODEL[,PROPERTY=VALUE...]" ;;
		virtio-net-pci|virtio-net-pci,*|e1000|e1000,*|e1000e|e1000e,*) nic=$2 ;;
		*) die "--nic $2: expected virtio-net-pci, e1000 or e1000e" ;;
		esac
		shift ;;
	--net-delay)
		case "$2" in [1-9]|[1-9][0-9]|[1-9][0-9][0-9]|[1-9][0-9][0-9][0-9]) netdelay=$2 ;; *) die "--net-delay $2: expected milliseconds, 1 to 9999" ;; esac
		shift ;;
	--peer-link)
		case "$2" in
		listen:[0-9]*) peer="listen=127.0.0.1:${2#*:} -device virtio-net-pci,netdev=n1,mac=52:54:00:be:00:01" ;;
		connect:[0-9]*) peer="connect=127.0.0.1:${2#*:} -device virtio-net-pci,netdev=n1,mac=52:54:00:be:00:02" ;;
		*) die "--peer-link $2: expected listen:PORT or connect:PORT" ;;
		esac
		case "${2#*:}" in *[!0-9]*) die "--peer-link $2: the port is a number" ;; esac
		shift ;;
	--smbios)
		case "$2" in type=[0-9]*,*=*) smbios="$smbios
$2" ;; *) die "--smbios $2: expected type=N,FIELD=VALUE,..." ;; esac
		shift ;;
	--monitor) monitor=$2; shift ;;
	--loadvm) loadvm=$2; shift ;;
	--throttle) throttle=$2; shift ;;
	*) die "unknown option '$1' (see the head of scripts/qemu.sh)" ;;
	esac
	shift
done
[ -n "$boot" ] || die "nothing to boot: give --usb, --cdrom, --pxe, --http, --kernel or --boot-disk"
case "$fw" in bios|uefi|secureboot) ;; *) die "--fw $fw: expected bios, uefi or secureboot" ;; esac

# KVM: probed once (the answer is kept in out/qemu-accel for this machine).
accel() {
	if [ ! -f "$OUT/qemu-accel" ] || [ "$OUT/qemu-accel" -ot /proc/1 ]; then
		a=tcg
		if [ -w /dev/kvm ] && [ -f "$OUT/vmlinuz" ]; then
			if timeout 8 qemu-system-x86_64 -accel kvm -M pc -m 256 -nodefaults -display none \
				-no-reboot -serial stdio -kernel "$OUT/vmlinuz" -append "console=ttyS0 panic=-1" \
				2>/dev/null | grep -q 'Linux version'; then
				a=kvm
			fi
		fi
		mkdir -p "$OUT"
		echo $a > "$OUT/qemu-accel"
	fi
	cat "$OUT/qemu-accel"
}
ACCEL=$(accel)
# Two CPUs unless asked (make run): with one, an installed Debian's systemd
# boots slower and a guest leaves a core idle while its neighbour waits.
# The boot tests ask for one (QEMU_SMP=1, tests/bootlib.sh), for the host
# CPU a second costs under TCG.
[ -n "$smp" ] || smp=${QEMU_SMP:-2}
# NVMe with one vCPU: room for a second. QEMU's TCG translates a guest's
# memory barriers only where the machine may have more than one vCPU
# (CF_PARALLEL), and NVMe's shadow doorbells (the guest stores the queue's
# tail, then loads the controller's event index; QEMU the reverse) need
# them: without, under load, QEMU misses a tail, the guest skips the
# doorbell it would ring, and the queue stalls until the kernel's timeout,
# abort and reset (fio at QD32 beside stress-ng --cpu 4: 66-806 timeouts in
# 240 s in 3 of 3 runs; with room for a second vCPU, none). QEMU after 7.2
# (Debian 12's) emits the barriers always ("tcg: Always emit barrier in
# system mode").
case " $disks " in *" nvme"*) [ "$smp" != 1 ] || smp=1,maxcpus=2 ;; esac
# A hardware RNG, as a server's CPU has one (RDRAND; qemu64 under TCG has
# none): a Debian guest's early getrandom() callers need not wait on the
# kernel's jitter entropy, which a loaded host's TCG makes slow.
. "$ROOT/scripts/qemu-netdev.sh"
# UEFI HTTP boot: OVMF's own virtio-net driver and HTTP client, not iPXE's
# ROM (which would answer the DHCP offer itself), the NIC first
if [ "$boot" = http ]; then
	case "$fw" in uefi|secureboot) ;; *) die "--http: UEFI HTTP boot needs --fw uefi or secureboot" ;; esac
	nic="$nic,romfile=,bootindex=0"
fi
# UEFI PXE: OVMF's own driver and PXE client too, as a server's UEFI
# firmware has. With QEMU's iPXE ROM first, iPXE fetched shim, shim could
# not start GRUB through iPXE ("start_image() returned Invalid Parameter",
# twice), and OVMF's own PXE booted it 10 s later (issue 49).
[ "$boot" != pxe ] || [ "$fw" = bios ] || nic="$nic,romfile="
set -- -accel "$ACCEL" -m "$mem" -smp "$smp" -nodefaults -no-reboot -display none -vga std \
	-netdev "$netdev" -device "$nic,netdev=n0" \
	-object rng-random,id=rng0,filename=/dev/urandom -device virtio-rng-pci,rng=rng0
if [ -n "$cpu" ]; then
	set -- "$@" -cpu "$cpu"
elif [ "$ACCEL" = kvm ]; then
	set -- "$@" -cpu host
fi
[ -z "$peer" ] || set -- "$@" -netdev socket,id=n1,$peer
[ -z "$netdelay" ] || set -- "$@" -object "filter-buffer,id=slow0,netdev=n0,queue=all,interval=$((netdelay * 1000))"
[ -z "$bmc" ] || set -- "$@" -device ipmi-bmc-sim,id=bmc0 -device isa-ipmi-kcs,bmc=bmc0
[ -z "$rtc" ] || set -- "$@" -rtc "base=$rtc"
# a line each: a field's value may hold blanks ("Acme Corp")
while IFS= read -r spec; do
	[ -z "$spec" ] || set -- "$@" -smbios "$spec"
done <<EOF
$smbios
EOF

# Firmware. OVMF's variables are a per-boot copy: the guest may write them.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
case "$fw" in
bios) set -- "$@" -M pc ;;
uefi|secureboot)
	ovmf=/usr/share/OVMF
	code=$ovmf/OVMF_CODE_4M.fd vars=$ovmf/OVMF_VARS_4M.fd
	if [ "$fw" = secureboot ]; then
		code=$ovmf/OVMF_CODE_4M.ms.fd vars=$ovmf/OVMF_VARS_4M.ms.fd
		set -- "$@" -M q35,smm=on -global driver=cfi.pflash01,property=secure,value=on
	else
		set -- "$@" -M q35
	fi
	[ -r "$code" ] || die "$code is missing: apt-get install ovmf"
	cp "$vars" "$tmp/vars.fd"
	set -- "$@" -drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" \
		-drive "if=pflash,format=raw,unit=1,file=$tmp/vars.fd" ;;
esac

# --direct: what the BIOS boot loader would load, handed to QEMU: syslinux's
# from the stick's FAT (at 1 MiB, read with mtools), or pxelinux's over
# TFTP (its pxelinux.cfg/default, the files relative to the TFTP root; the
# NIC stays on the same network with the same root: iPXE's transfer of the
# kernel, base and two packs, 29 MB, was 35 s and 15 CPU-s a boot under TCG,
# issue 49). The initrds one after the other, as the boot loader puts them
# in memory (the kernel unpacks each archive in turn).
direct_from=""
if [ -n "$direct" ] && [ "$fw" = bios ]; then
	case "$boot" in
	usb)
		fat=$usb
		# a qcow2 stick (power_cut.sh's snapshots) read through a raw copy;
		# with --loadvm the stick as it was at that snapshot (the guest
		# resumes there: the same kernel, initrds and option ROMs as then)
		case "$usb" in *.qcow2)
			qemu-img convert ${loadvm:+-l "snapshot.name=$loadvm"} -f qcow2 -O raw "$usb" "$tmp/stick.raw" ||
				die "--direct: cannot read $usb (qemu-img)"
			fat=$tmp/stick.raw ;;
		esac
		direct_from="$usb's syslinux.cfg"
		fetch() { mcopy -n -i "$fat@@1M" "::$1" "$2"; }
		mtype -i "$fat@@1M" ::/syslinux/syslinux.cfg > "$tmp/loader.cfg" 2>/dev/null ||
			die "--direct: $usb has no /syslinux/syslinux.cfg (mtools installed?)" ;;
	pxe)
		[ "$pxe" != dhcp ] || die "--direct: --pxe dhcp has no TFTP root here to read the loader's config from"
		if [ "$bootfile" = pxelinux.0 ]; then
			direct_from=$pxe/pxelinux.cfg/default
			fetch() { cp "$pxe/$1" "$2"; }
			cp "$direct_from" "$tmp/loader.cfg" 2>/dev/null || die "--direct: $direct_from is missing"
			# pxelinux reads a machine's own file (by UUID, MAC or IP) before default
			[ "$(ls "$pxe/pxelinux.cfg")" = default ] ||
				die "--direct: $pxe/pxelinux.cfg holds more than default (pxelinux would read a machine's own file first): boot it without --direct"
		fi ;;
	esac
fi
if [ -n "$direct_from" ]; then
	entry() { awk -v key="$1" 'tolower($1) == "label" { in_entry = ($2 == "bootbench") }
		in_entry && tolower($1) == key { $1 = ""; sub(/^ /, ""); print; exit }' "$tmp/loader.cfg"; }
	[ "$(awk 'tolower($1) == "default" { print $2; exit }' "$tmp/loader.cfg")" = bootbench ] ||
		die "--direct: $direct_from's DEFAULT is not the bootbench entry: boot it without --direct"
	k=$(entry kernel) rds=$(entry initrd) append=$(entry append)
	[ -n "$k" ] && [ -n "$rds" ] || die "--direct: no bootbench entry with KERNEL and INITRD in $direct_from"
	fetch "$k" "$tmp/vmlinuz" || die "--direct: cannot read $k ($direct_from)"
	: > "$tmp/initrd"
	for rd in $(echo "$rds" | tr ',' ' '); do
		fetch "$rd" "$tmp/rd" && cat "$tmp/rd" >> "$tmp/initrd" || die "--direct: cannot read $rd ($direct_from)"
	done
	boot=kernel kernel=$tmp/vmlinuz initrd=$tmp/initrd
fi

# Media attach whatever boots (a direct kernel boot may have the stick too);
# the one that boots is first in the boot order.
if [ -n "$usb" ]; then
	set -- "$@" -device qemu-xhci,id=xhci \
		-drive "if=none,id=stick,format=$(case "$usb" in *.qcow2) echo qcow2 ;; *) echo raw ;; esac),file=$usb${snapshot:+,snapshot=on}${locked:+,readonly=on}${throttle:+,throttling.bps-total=$throttle}" \
		-device "usb-storage,id=usbstick,bus=xhci.0,drive=stick$([ "$boot" = usb ] && echo ,bootindex=0)"
fi
if [ -n "$cd" ]; then
	set -- "$@" -drive "if=none,id=cd,format=raw,media=cdrom,readonly=on,file=$cd"
	if [ "$fw" = bios ]; then
		set -- "$@" -device "ide-cd,drive=cd$([ "$boot" = cdrom ] && echo ,bootindex=0)"
	else
		set -- "$@" -device ahci,id=ahci -device "ide-cd,bus=ahci.0,drive=cd$([ "$boot" = cdrom ] && echo ,bootindex=0)"
	fi
fi
# A direct boot under SeaBIOS loads the kernel's own vmlinux through its PVH
# entry (scripts/pvh-kernel.sh: the bzImage's stub costs 3-9 s under TCG on
# every boot); QEMU_BZIMAGE=1 boots the bzImage as it is. Entered that way
# the kernel's fast TSC calibration always fails, and its check that the
# timer ticks through the IO-APIC, timed by that TSC, failed on a loaded
# host ("MP-BIOS bug: 8254 timer not connected to IO-APIC"), then every
# fallback, and it panicked: no_timer_check skips the check, as the kernel
# does itself under KVM. panic=-1 ends a guest that panics at once (QEMU
# runs with -no-reboot) instead of at its test's timeout.
# cryptomgr.notests: the kernel's self-tests of its crypto algorithms (hmac,
# sha256, crc32c, ...) as each registers take 0.35 s to /init under TCG and
# 0.5-0.8 CPU-s a boot to the menu (issue 49, 4 boots each way); the image
# uses the kernel's crypto for nothing the suite measures, and the boots
# through the firmware (usb_*, iso_*, pxe*) keep them.
if [ "$boot" = kernel ] && [ "$fw" = bios ] && [ -z "${QEMU_BZIMAGE:-}" ]; then
	elf=$(OUT=$OUT "$ROOT/scripts/pvh-kernel.sh" "$kernel")
	[ "$elf" = "$kernel" ] || { kernel=$elf; append="$append no_timer_check panic=-1 cryptomgr.notests"; }
fi
case "$boot" in
pxe) set -- "$@" -boot n ;;
# HTTP boot: OVMF's PXE off (scripts/qemu-netdev.sh)
http) set -- "$@" $fwcfg ;;
kernel) set -- "$@" -kernel "$kernel" ${initrd:+-initrd "$initrd"} -append "$append" ;;
esac

n=0
for d in $disks; do
	kind=${d%%:*} file=${d#*:} throttle="" sn=""
	case "$kind" in
	*+wbps=*) throttle=",throttling.bps-write=${kind#*+wbps=}" kind=${kind%%+*} ;;
	*+serial=*) sn=${kind#*+serial=} kind=${kind%%+*}
		    case "$sn" in ""|*[!A-Za-z0-9-]*) die "--disk $d: a serial is letters, digits and -" ;; esac ;;
	esac
	[ -e "$file" ] || die "--disk $d: no such file"
	n=$((n + 1))
	[ -n "$sn" ] || sn=BB$(echo "$kind" | tr a-z A-Z)$n
	set -- "$@" -drive "if=none,id=d$n,format=raw,file=$file,cache=unsafe$throttle"
	first=""
	[ "$d" = "${bootdisk:-}" ] && first=,bootindex=0
	case "$kind" in
	virtio) set -- "$@" -device "virtio-blk-pci,id=disk$n,drive=d$n,serial=$sn$first" ;;
	nvme) set -- "$@" -device "nvme,id=disk$n,drive=d$n,serial=$sn" ;;
	scsi) [ -n "${scsi_hba:-}" ] || { set -- "$@" -device virtio-scsi-pci,id=scsi0; scsi_hba=1; }
	      set -- "$@" -device "scsi-hd,id=disk$n,bus=scsi0.0,drive=d$n,serial=$sn" ;;
	# an ATA disk on an AHCI controller (six ports): QEMU's ide-hd answers
	# SMART, its self-tests included, as a SATA drive does
	sata) [ -n "${ahci:-}" ] || { set -- "$@" -device ahci,id=ahci0; ahci=0; }
	      [ "$ahci" -lt 6 ] || die "--disk $d: an AHCI controller has six ports"
	      set -- "$@" -device "ide-hd,id=disk$n,bus=ahci0.$ahci,drive=d$n,serial=$sn"; ahci=$((ahci + 1)) ;;
	*) die "--disk $d: kind must be virtio, nvme, scsi or sata" ;;
	esac
done

if [ -n "$serial" ]; then
	set -- "$@" -serial "file:$serial"
	[ -n "$monitor" ] || set -- "$@" -monitor none
else
	set -- "$@" -serial mon:stdio
fi
[ -z "$serial2" ] || set -- "$@" -serial "pipe:$serial2"
[ -z "$monitor" ] || set -- "$@" -monitor "unix:$monitor,server=on,wait=off"
[ -z "$loadvm" ] || set -- "$@" -loadvm "$loadvm"
if [ -n "$timeout" ] && [ -n "$serial" ]; then
	timeout --foreground "$timeout" qemu-system-x86_64 "$@" </dev/null
elif [ -n "$timeout" ]; then
	# the console is this terminal: keys go to the guest
	timeout --foreground "$timeout" qemu-system-x86_64 "$@"
else
	qemu-system-x86_64 "$@"
fi
