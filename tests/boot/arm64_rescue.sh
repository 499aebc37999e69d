# SPDX-License-Identifier: MIT
# timeout: 900
# tier: arm64 (make test-arm64, which builds its image and installed disk)
# Boot test (issue 47): the rescue on an installed arm64 Debian 12
# (out/arm64/installed/debian-uefi.img, made by scripts/build-installed.sh
# with ARCH=arm64: GPT, an ESP on /boot/efi, a separate /boot, an ext4 root,
# grub-efi-arm64; its ESP empty and no /boot/grub, as after a lost boot
# loader). The arm64 stick, booted under AAVMF (UEFI, Secure Boot off: the
# repaired system's GRUB is Debian's unsigned arm64-efi build) with that
# disk, lists it from the menu's Rescue entry and reinstalls its boot
# loader there (consent by typing its devices): grub-install
# --target=arm64-efi into the ESP and its removable path (BOOTAA64.EFI),
# then update-grub, whose grub.cfg is the system's own (console=ttyAMA0,
# none of the appliance's command line). Then the disk alone, under a fresh
# AAVMF (no boot entries: its removable path), boots its own system up to
# its init (systemd's welcome).
. tests/bootlib.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# AAVMF from the medium, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/bootbench-usb.img" ] || { echo "out/arm64/bootbench-usb.img is missing: run 'make image ARCH=arm64'"; exit 1; }
[ -f "$OUT/installed/debian-uefi.img" ] || { echo "out/arm64/installed/debian-uefi.img is missing: run 'make test-arm64' (scripts/build-installed.sh)"; exit 1; }
need_commands qemu-system-aarch64 tmux mcopy debugfs
cp --sparse=always "$OUT/installed/debian-uefi.img" "$T/uefi.img"
# boot_fs COMMAND: debugfs on the disk's /boot partition (65 MiB in, 256 MiB)
boot_fs() { dd if="$T/uefi.img" of="$T/boot.part" bs=1M skip=65 count=256 status=none && debugfs -R "$1" "$T/boot.part" 2>/dev/null; }
boot_fs "ls -p /" > "$T/boot.ls"
check "the installed system has an arm64 kernel in /boot" grep -q '/vmlinuz-[0-9.]*-[0-9]*-arm64/' "$T/boot.ls"
check "... and no /boot/grub (its boot loader lost)" sh -c "! grep -q '/grub/' '$T/boot.ls'"
check "... and an empty ESP (a FAT file system mdir reads)" sh -c "esp=\$(mdir -b -i '$T/uefi.img@@1M' ::) && [ -z \"\$esp\" ]"
stick_with_conf "$T/stick.img" ""
console_boot 160 48 "--usb '$T/stick.img' --disk virtio:'$T/uefi.img'"
step "the menu comes up on the serial console" "Esc goes back" 300
sleep 2
keys 6 6 Enter
step "Rescue lists the installed systems" "Which installed system?" 120
step "... the arm64 Debian by its os-release name, on its root partition" "/dev/vda3 *Debian GNU/Linux 12 \(bookworm\)" 30 E
keys Enter
step "... and offers the repairs" "reinstall the boot loader" 30
keys b Enter
step "consent asks for the system's devices" "Type the device names" 30
check "... its root, /boot and ESP" shows "/dev/vda3 /dev/vda2 /dev/vda1"
keys "/dev/vda3 /dev/vda2 /dev/vda1"
keys Enter
step "the boot loader is reinstalled" "repair: the boot loader is reinstalled" 900
check "... grub-install for arm64's UEFI, into the ESP" shows "repair: grub-install --target=arm64-efi --efi-directory=/boot/efi"
check "... and its removable path too, exit 0" shows "^ *| --bootloader-id=debian --force-extra-removable: exit status 0"
check "... reporting no error" shows "Installation finished. No error reported."
check "... update-grub, exit 0" shows "repair: update-grub: exit status 0"
step "... its Back button is drawn" "< Back >" 60
sleep 2
keys Enter
step "back in the menu" "Esc goes back" 240
menu_power_off
boot_fs "cat /grub/grub.cfg" > "$T/grub.cfg"
grep -m1 "^[[:space:]]*linux" "$T/grub.cfg"
check "the system's grub.cfg is its own: its root and its serial console" \
	grep -q 'linux.*/vmlinuz-.*-arm64 root=UUID=1b2c3d4e-0000-4000-8000-000000000001 ro *console=ttyAMA0,115200' "$T/grub.cfg"
check "... and nothing of the appliance's command line" sh -c "! grep -q 'bootbench' '$T/grub.cfg'"
check "the ESP has the removable path's loader (EFI/BOOT/BOOTAA64.EFI) and debian's" sh -c \
	"mdir -b -i '$T/uefi.img@@1M' ::/EFI/BOOT 2>/dev/null | grep -qi 'BOOTAA64.EFI' && mdir -b -i '$T/uefi.img@@1M' ::/EFI/debian 2>/dev/null | grep -qi 'grubaa64.efi'"
# the disk alone under a fresh AAVMF: the removable path boots the
# system's own GRUB, kernel and initramfs, which mount its root and start
# its init
boot_until "Welcome to .*Debian GNU/Linux 12" 600 0 --boot-disk virtio:"$T/uefi.img"
finish
