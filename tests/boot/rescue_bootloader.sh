# SPDX-License-Identifier: MIT
# timeout: 600
# Boot test (issue 16): two real installed Debian 12 systems (out/installed,
# made by scripts/build-installed.sh), each with its boot loader lost: one
# for UEFI (GPT, ESP, a separate /boot, ext4 root, grub-efi-amd64; an empty
# ESP, no /boot/grub) and one for BIOS (a BIOS boot partition, grub-pc; an
# empty boot sector, no /boot/grub). The appliance, booted under OVMF with
# both disks, lists them from the menu's Rescue entry and reinstalls each
# one's boot loader there (consent by typing its devices): for the first
# grub-install into the ESP and its removable path, for the second into the
# disk's boot sector, which it names too; then update-grub, whose grub.cfg
# is the system's (its console=, none of the appliance's command line).
# Before that, the second one's initramfs is rebuilt by bootbench chroot
# --repair=initramfs on this host (under TCG update-initramfs alone takes
# over 10 minutes; the menu runs the same command as for the boot loader).
# Then each disk alone boots its own system up to its init (systemd's
# welcome): the first under a fresh OVMF (no boot entries: its removable
# path), the second under SeaBIOS with the rebuilt initramfs.
. tests/bootlib.sh
need_artifacts
need_commands tmux debugfs
for f in debian-uefi.img debian-bios.img; do
	[ -f "$OUT/installed/$f" ] || { echo "$OUT/installed/$f is missing: run 'make test' (scripts/build-installed.sh)"; exit 1; }
done
cp --sparse=always "$OUT/installed/debian-uefi.img" "$T/uefi.img"
cp --sparse=always "$OUT/installed/debian-bios.img" "$T/bios.img"
# boot_fs DISK COMMAND: debugfs on the disk's /boot partition (65 MiB in, 256 MiB)
boot_fs() { dd if="$1" of="$T/boot.part" bs=1M skip=65 count=256 status=none && debugfs -R "$2" "$T/boot.part" 2>/dev/null; }
initrd=$(boot_fs "$T/bios.img" "ls -p /" | awk -F/ '$6 ~ /^initrd.img-/ { print $6 }')
check "the BIOS system has one initramfs ($initrd)" [ "$(echo "$initrd" | wc -w)" = 1 ]
initrd_sum() { boot_fs "$T/bios.img" "cat /$initrd" | sha256sum; }
initrd_before=$(initrd_sum)
# the BIOS system's /boot (65 MiB in) and root (321 MiB in) as loop devices of this host
part_loop() { # var offset-MiB size-MiB
	_l=$(losetup -f --show -o $(($2 << 20)) --sizelimit $(($3 << 20)) "$T/bios.img") || skip "loop devices unavailable"
	LOOPS="$LOOPS $_l"
	eval "$1=\$_l"
}
part_loop BOOT 65 256
part_loop ROOT 321 1800
BOOTBENCH_SHARE=$PWD/rootfs/usr/share/bootbench "$BB" chroot --write="$ROOT,$BOOT" --repair=initramfs "$ROOT" > "$T/initramfs.out" 2>&1
rc=$?
tail -n 5 "$T/initramfs.out"
check "the initramfs rebuilt in the installed system: exit 0" [ $rc = 0 ]
check "... by update-initramfs, exit 0" grep -q "repair: update-initramfs -u -k all: exit status 0" "$T/initramfs.out"
check "... with its /boot mounted" grep -q "chroot: $BOOT on .*/boot (read-write)" "$T/initramfs.out"
losetup -d "$BOOT" "$ROOT"
check "the BIOS system's initramfs is a new one" [ "$(initrd_sum)" != "$initrd_before" ]
stick_with_conf "$T/stick.img" ""
console_boot 160 48 "--fw uefi --usb '$T/stick.img' --disk virtio:'$T/uefi.img' --disk virtio:'$T/bios.img'"
step "the menu comes up on the serial console" "Esc goes back" 240
# repair PICK-KEYS WHAT-KEY CONSENT: Rescue -> the system -> the repair -> consent typed
repair() {
	sleep 2
	keys 6 6 Enter
	step "Rescue lists the installed systems" "Which installed system?" 120
	# the rows are drawn after the prompt: waited for, not read at once
	step "... the UEFI one by its os-release name, on its root partition" "/dev/vda3 *Debian GNU/Linux 12 \(bookworm\)" 30 E
	step "... and the BIOS one" "/dev/vdb3 *Debian GNU/Linux 12 \(bookworm\)" 30 E
	keys $1 Enter
	step "... and offers the repairs" "reinstall the boot loader" 30
	keys $2 Enter
	step "consent asks for the system's devices" "Type the device names" 30
	check "... $3" shows "$3"
	keys "$3"
	keys Enter
}
# back_to_menu: the repair's Back, once its button is drawn; the first
# repair of a boot then writes the rescue's record, the system's description
# with it (under TCG on one vCPU on a loaded host, over a minute)
back_to_menu() {
	step "... its Back button is drawn" "< Back >" 60
	sleep 2
	keys Enter
	step "back in the menu" "Esc goes back" 240
}
repair "" b "/dev/vda3 /dev/vda2 /dev/vda1"
step "the UEFI boot loader is reinstalled" "repair: the boot loader is reinstalled" 600
# the box folds the line after --efi-directory=/boot/efi
check "... grub-install for UEFI, into the ESP" shows "repair: grub-install --target=x86_64-efi --efi-directory=/boot/efi"
check "... and its removable path too, exit 0" shows "^ *| --bootloader-id=debian --force-extra-removable: exit status 0"
check "... reporting no error" shows "Installation finished. No error reported."
check "... update-grub, exit 0" shows "repair: update-grub: exit status 0"
back_to_menu
repair Down b "/dev/vdb3 /dev/vdb2 /dev/vdb"
step "the BIOS boot loader is reinstalled" "repair: the boot loader is reinstalled" 600
check "... grub-install for BIOS, on the disk, exit 0" shows "repair: grub-install --target=i386-pc /dev/vdb: exit status 0"
check "... update-grub, exit 0" shows "repair: update-grub: exit status 0"
back_to_menu
menu_power_off
for disk in uefi bios; do
	boot_fs "$T/$disk.img" "cat /grub/grub.cfg" > "$T/$disk.grub.cfg"
	grep -m1 "^[[:space:]]*linux" "$T/$disk.grub.cfg"
done
check "the UEFI system's grub.cfg is its own: its root and serial console" \
	grep -q 'linux.*/vmlinuz-.* root=UUID=1b2c3d4e-0000-4000-8000-000000000001 ro *console=ttyS0,115200' "$T/uefi.grub.cfg"
check "... the BIOS system's too" \
	grep -q 'linux.*/vmlinuz-.* root=UUID=1b2c3d4e-0000-4000-8000-000000000011 ro *console=ttyS0,115200' "$T/bios.grub.cfg"
check "... and nothing of the appliance's command line" sh -c "! grep -q 'bootbench' '$T/uefi.grub.cfg' '$T/bios.grub.cfg'"
# the disks alone: a fresh copy of OVMF's variables (no boot entry, the
# removable path boots); SeaBIOS reads the boot sector grub-install wrote
# (systemd's welcome on the console: the repaired loader booted the system's
# own kernel, whose initramfs mounted the system's root and started its
# init; the services after it are not the loader's)
boot_until "Welcome to .*Debian GNU/Linux 12" 400 0 --fw uefi --boot-disk virtio:"$T/uefi.img"
boot_until "Welcome to .*Debian GNU/Linux 12" 400 0 --fw bios --boot-disk virtio:"$T/bios.img"
finish
