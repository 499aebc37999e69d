# SPDX-License-Identifier: MIT
# Boot test (issue 36): memtest86+ from the stick's boot menus, chosen as a
# person at the serial console would: typed at syslinux's boot: prompt
# under SeaBIOS, its hot key in GRUB's menu under OVMF, and typed at
# pxelinux's prompt over BIOS PXE; each time its first screen is seen on
# the serial line. Under Secure Boot GRUB's entry says it is unavailable
# and why, and choosing it starts nothing: usb_secureboot.sh checks that,
# at the menu of its own Secure Boot boot (one firmware boot, not two).
. tests/bootlib.sh
FIRMWARE_BOOT=1	# the boot loader is what is tested here
need_artifacts
need_commands tmux
cp "$OUT/bootbench-usb.img" "$T/stick.img"
BOOT_PROMPT=keep	# the entries are typed at the boot loaders here
stop_vm() {
	pkill -TERM -f "qemu-system.*($T/stick.img|tftp=$T/tftp)" 2>/dev/null
	$TM kill-server 2>/dev/null
}

# Small guests: memtest86+'s first screen comes in 1-2 s under TCG with
# 64 MiB (128 under OVMF, which needs more for itself), 12-14 s with 256
# MiB, 22 s with 1 GiB (issue 49: 35 -> 14 CPU-s for the test)
console_boot 100 30 "--fw bios --usb $T/stick.img --mem 64"
# the prompt waits 2 s for a key: memtest typed as soon as it shows, with
# memtest86+'s own nopause (syslinux hands what follows the label to the
# entry's command line): its first screen then comes without the 3 s it
# spins waiting for a key to configure it (issue 49)
step "SeaBIOS: syslinux shows its boot: prompt" "boot:" 60
type_line "memtest nopause"
step "SeaBIOS: memtest86+ shows its first screen on the serial line" "Memtest86+ v6" 90
screen | grep -v '^ *$' | head -n 12
stop_vm

console_boot 100 30 "--fw uefi --usb $T/stick.img --mem 128"
step "OVMF: GRUB's menu has memtest86+" "memtest86+ (memory test)" 90
keys m
step "OVMF: memtest86+ (EFI) shows its first screen on the serial line" "Memtest86+ v6" 90
screen | grep -v '^ *$' | head -n 12
stop_vm

cp -r "$OUT/pxe" "$T/tftp"
console_boot 100 30 "--fw bios --pxe $T/tftp --bootfile pxelinux.0 --mem 64"
step "BIOS PXE: pxelinux shows its boot: prompt" "boot:" 90
type_line "memtest nopause"
step "BIOS PXE: memtest86+ came over TFTP and shows its first screen" "Memtest86+ v6" 90
stop_vm

finish
