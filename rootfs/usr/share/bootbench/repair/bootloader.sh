# Reinstall the boot loader: run inside the installed system by bootbench
# chroot --repair=bootloader (its /boot and ESP mounted read-write with
# consent). GRUB as the system has it: for UEFI when its grub-efi files and
# an ESP on /boot/efi (or /efi) are there, also into the ESP's removable
# path (EFI/BOOT/BOOTX64.EFI, BOOTAA64.EFI: firmware that lost its boot entries still
# finds it), and with a boot entry when the firmware's variables are
# writable; else for BIOS on the disk holding /boot. Then its grub.cfg
# from the system's own /etc/default/grub. Each step prints what it runs
# and its exit status.
run() {
	echo "repair: running $*"
	"$@"
	rc=$?
	echo "repair: $*: exit status $rc"
	return $rc
}
mounted_on() { awk -v m="$1" '$2 == m { print $1 }' /proc/mounts | tail -n 1; }
command -v grub-install > /dev/null || { echo "repair: this system has no grub-install (its GRUB packages are missing)"; exit 1; }
esp=""
for d in /boot/efi /efi; do [ -n "$(mounted_on $d)" ] && { esp=$d; break; }; done
# GRUB's UEFI platform for this machine's firmware (the system runs here,
# so it is this machine's): a 64-bit x86 CPU under 32-bit UEFI (tablets,
# some Atom boards) boots only GRUB for i386-efi (BOOTIA32.EFI)
case $(uname -m) in
x86_64)
	efi=x86_64-efi
	[ "$(cat /sys/firmware/efi/fw_platform_size 2>/dev/null)" != 32 ] || efi=i386-efi ;;
aarch64) efi=arm64-efi ;;
*) efi=$(uname -m)-efi ;;
esac
if [ -n "$esp" ] && [ -d /usr/lib/grub/$efi ]; then
	id=$(. /etc/os-release 2>/dev/null; echo "${ID:-linux}")
	nvram=""
	# booted by BIOS, or no writable variables: the removable path only
	[ -w /sys/firmware/efi/efivars ] || nvram=--no-nvram
	extra=--force-extra-removable
	grub-install --help 2>&1 | grep -q -- --force-extra-removable || extra=--removable
	run grub-install --target=$efi --efi-directory="$esp" --bootloader-id="$id" $extra $nvram || exit 1
elif [ -n "$esp" ] && [ -d /sys/firmware/efi ]; then
	# booted by UEFI, the system has an ESP: GRUB for BIOS in its boot
	# sector would not be what this firmware starts
	case $efi in
	x86_64-efi) pkg=grub-efi-amd64-bin ;;
	i386-efi) pkg=grub-efi-ia32-bin ;;
	arm64-efi) pkg=grub-efi-arm64-bin ;;
	*) pkg="GRUB for $efi" ;;
	esac
	echo "repair: this machine boots by UEFI ($efi) and the system has no GRUB for it (/usr/lib/grub/$efi): install $pkg in it first"
	exit 1
elif [ -d /usr/lib/grub/i386-pc ]; then
	part=$(mounted_on /boot)
	[ -n "$part" ] || part=$(mounted_on /)
	disk=/dev/$(basename "$(readlink -f "/sys/class/block/$(basename "$part")/..")")
	[ -b "$disk" ] || { echo "repair: no disk found for $part"; exit 1; }
	# the boot sector is written on the disk itself: consent for it too
	case ",${BB_WRITE:-}," in
	*",$disk,"*) ;;
	*) echo "repair: GRUB for BIOS writes the boot sector of $disk: name it in --write= too"; exit 1 ;;
	esac
	run grub-install --target=i386-pc "$disk" || exit 1
else
	echo "repair: neither GRUB for UEFI (an ESP and /usr/lib/grub/$efi) nor for BIOS (/usr/lib/grub/i386-pc) is here"
	exit 1
fi
if command -v update-grub > /dev/null; then
	run update-grub || exit 1
elif command -v grub2-mkconfig > /dev/null; then
	run grub2-mkconfig -o /boot/grub2/grub.cfg || exit 1
else
	run grub-mkconfig -o /boot/grub/grub.cfg || exit 1
fi
echo "repair: the boot loader is reinstalled"
