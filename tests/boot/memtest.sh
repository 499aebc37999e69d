# SPDX-License-Identifier: MIT
# Boot test (issue 36): memtest86+ from the stick's boot menus, chosen as a
# person at the serial console would: typed at syslinux's boot: prompt
# under SeaBIOS, its hot key in GRUB's menu under OVMF, and typed at
# pxelinux's prompt over BIOS PXE; each time its first screen is seen on
# the serial line. Under Secure Boot (OVMF with
# Microsoft's keys enforced) GRUB's entry says it is unavailable and why,
# and choosing it starts nothing.
. tests/bootlib.sh
FIRMWARE_BOOT=1	# the boot loader is what is tested here
need_artifacts
need_commands tmux
cp "$OUT/bootbench-usb.img" "$T/stick.img"
BOOT_PROMPT=keep	# the entries are typed at the boot loaders here
# screen_lacks TEXT: the screen was read, and does not show TEXT (a screen
# that could not be read is no proof of its absence)
screen_lacks() { _s=$(screen) && [ -n "$_s" ] && ! printf '%s\n' "$_s" | grep -qF -- "$1"; }
stop_vm() {
	pkill -TERM -f "qemu-system.*($T/stick.img|tftp=$T/tftp)" 2>/dev/null
	$TM kill-server 2>/dev/null
}

console_boot 100 30 "--fw bios --usb $T/stick.img"
# the prompt waits 2 s for a key: memtest typed as soon as it shows
step "SeaBIOS: syslinux shows its boot: prompt" "boot:" 60
type_line memtest
step "SeaBIOS: memtest86+ shows its first screen on the serial line" "Memtest86+ v6" 90
screen | grep -v '^ *$' | head -n 12
stop_vm

console_boot 100 30 "--fw uefi --usb $T/stick.img"
step "OVMF: GRUB's menu has memtest86+" "memtest86+ (memory test)" 90
keys m
step "OVMF: memtest86+ (EFI) shows its first screen on the serial line" "Memtest86+ v6" 90
screen | grep -v '^ *$' | head -n 12
stop_vm

cp -r "$OUT/pxe" "$T/tftp"
console_boot 100 30 "--fw bios --pxe $T/tftp --bootfile pxelinux.0"
step "BIOS PXE: pxelinux shows its boot: prompt" "boot:" 90
type_line memtest
step "BIOS PXE: memtest86+ came over TFTP and shows its first screen" "Memtest86+ v6" 90
stop_vm

console_boot 100 30 "--fw secureboot --usb $T/stick.img"
step "Secure Boot: GRUB marks memtest86+ unavailable" "memtest86+: unavailable, Secure Boot is on" 120
check "... and offers no entry that would load it" screen_lacks 'memtest86+ (memory test)'
keys m
step "Secure Boot: choosing it says why, and nothing is loaded" "memtest86+ is not signed, so Secure Boot refuses it" 30
# the entry ends after its 10 s sleep and GRUB draws its menu again: only then is "did not
# start" a finding (read at once, a memtest86+ loaded after the words could not have drawn yet)
menu_back() { _s=$(screen) && printf '%s\n' "$_s" | grep -qF 'memtest86+: unavailable, Secure Boot is on' &&
	! printf '%s\n' "$_s" | grep -qF 'memtest86+ is not signed, so Secure Boot refuses it'; }
i=0; until menu_back || [ $i -ge 80 ]; do sleep 0.5; i=$((i + 1)); done
check "... and GRUB's menu comes back after its words" menu_back
check "memtest86+ did not start" screen_lacks 'Memtest86+ v6'
stop_vm
finish
