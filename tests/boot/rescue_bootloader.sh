# SPDX-License-Identifier: MIT
# Boot test (issue 16): a real installed Debian 12 (out/installed, made by
# scripts/build-installed.sh: GPT, ESP, a separate /boot, ext4 root, its
# kernel and GRUB's packages) whose boot loader is lost (no /boot/grub, an
# empty ESP). The appliance, booted under OVMF, lists it from the menu's
# Rescue entry and reinstalls its boot loader there (consent by typing its
# three devices): grub-install into the ESP and its removable path, a boot
# entry, update-grub. grub.cfg is the system's (its console=, none of the
# appliance's command line). Then the disk alone, under a fresh OVMF (no boot
# entries), boots to the installed system's own login prompt.
. tests/bootlib.sh
need_artifacts
need_commands tmux debugfs
INSTALLED=$OUT/installed/debian-uefi.img
[ -f "$INSTALLED" ] || { echo "$INSTALLED is missing: run 'make test' (scripts/build-installed.sh)"; exit 1; }
cp --sparse=always "$INSTALLED" "$T/disk.img"
# the /boot partition (65 MiB in, 256 MiB), read with debugfs
boot_fs() { dd if="$T/disk.img" of="$T/boot.part" bs=1M skip=65 count=256 status=none && debugfs -R "$1" "$T/boot.part" 2>/dev/null; }
stick_with_conf "$T/stick.img" ""
console_boot 160 48 "--fw uefi --usb '$T/stick.img' --disk virtio:'$T/disk.img'"
step "the menu comes up on the serial console" "Esc goes back" 240
keys 6 6 Enter
step "Rescue lists the installed Debian" "Which installed system?" 120
check "... by its os-release name, on the root partition" shows "/dev/vda3 *Debian GNU/Linux 12 (bookworm)"
keys Enter
step "... and offers to reinstall the boot loader" "reinstall the boot loader" 30
keys b Enter
step "consent asks for the system's devices" "Type the device names" 30
check "... the root, /boot and the ESP" shows "/dev/vda3 /dev/vda2 /dev/vda1"
keys "/dev/vda3 /dev/vda2 /dev/vda1"
keys Enter
step "the boot loader is reinstalled" "repair: the boot loader is reinstalled" 600
# the box folds the line after --efi-directory=/boot/efi
check "... grub-install for UEFI, into the ESP" shows "repair: grub-install --target=x86_64-efi --efi-directory=/boot/efi"
check "... and its removable path too, exit 0" shows "^ *| --bootloader-id=debian --force-extra-removable: exit status 0"
check "... reporting no error" shows "Installation finished. No error reported."
check "... update-grub, exit 0" shows "repair: update-grub: exit status 0"
keys Enter
step "back in the menu" "Esc goes back" 60
menu_power_off
boot_fs "cat /grub/grub.cfg" > "$T/grub.cfg"
grep -m2 "^[[:space:]]*linux" "$T/grub.cfg"
check "grub.cfg is the system's: its serial console" grep -q 'linux.*/vmlinuz-.* root=UUID=1b2c3d4e-0000-4000-8000-000000000001 ro *console=ttyS0,115200' "$T/grub.cfg"
check "... and nothing of the appliance's command line" sh -c "! grep -q 'bootbench' '$T/grub.cfg'"
# the disk alone, with a fresh copy of OVMF's variables: no boot entry, the removable path boots
boot_until "bbinstalled login:" 400 0 --fw uefi --boot-disk virtio:"$T/disk.img"
finish
