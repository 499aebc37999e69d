# SPDX-License-Identifier: MIT
# Boot test (issue 16): a real installed Debian 12 (out/installed, made by
# scripts/build-installed.sh: GPT, ESP, a separate /boot, ext4 root, its
# kernel and GRUB's packages) whose boot loader is lost (no /boot/grub, an
# empty ESP). The appliance, booted under OVMF, lists it from the menu's
# Rescue entry and reinstalls its boot loader there (consent by typing its
# three devices): grub-install into the ESP and its removable path, a boot
# entry, update-grub. Then the disk alone, under a fresh OVMF (no boot
# entries), boots to the installed system's own login prompt.
. tests/bootlib.sh
need_artifacts
need_commands tmux
INSTALLED=$OUT/installed/debian-uefi.img
[ -f "$INSTALLED" ] || { echo "$INSTALLED is missing: run 'make test' (scripts/build-installed.sh)"; exit 1; }
cp --sparse=always "$INSTALLED" "$T/disk.img"
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
keys "/dev/vda3 /dev/vda2 /dev/vda1" Enter
step "the boot loader is reinstalled" "repair: the boot loader is reinstalled" 600
# the box folds the line after --efi-directory=/boot/efi
check "... grub-install for UEFI, into the ESP" shows "repair: grub-install --target=x86_64-efi --efi-directory=/boot/efi"
check "... and its removable path too, exit 0" shows "^ *| --bootloader-id=debian --force-extra-removable: exit status 0"
check "... reporting no error" shows "Installation finished. No error reported."
check "... update-grub, exit 0" shows "repair: update-grub: exit status 0"
keys Enter
step "back in the menu" "Esc goes back" 60
menu_power_off
# the disk alone, with a fresh copy of OVMF's variables: no boot entry, the removable path boots
boot_until "bbinstalled login:" 400 0 --fw uefi --boot-disk virtio:"$T/disk.img"
finish
