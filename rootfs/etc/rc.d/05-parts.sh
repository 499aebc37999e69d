# The parts' large files (kernel modules, libraries, firmware, the larger
# programs): one squashfs image a part (the base and each pack the boot
# loader handed over), mounted where the symlinks of the unpacked archives
# point (scripts/build-rootfs.sh says why). Nothing else can run before it.
modprobe -a loop squashfs || rescue "the modules loop and squashfs did not load"
for image in /lib/bootbench/parts/*.sqfs; do
	[ -e "$image" ] || continue
	mount -t squashfs -o ro,loop "$image" "${image%.sqfs}" ||
		rescue "the part ${image##*/} did not mount: its programs, modules and firmware are missing"
done
# The EFI variables (Secure Boot's state, efibootmgr): efivarfs is a module,
# which the kernel asks modprobe for at the mount, so it comes after the
# parts are mounted.
[ -d /sys/firmware/efi/efivars ] && mount -t efivarfs efivarfs /sys/firmware/efi/efivars 2>/dev/null
true
