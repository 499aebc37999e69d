# SPDX-License-Identifier: MIT
# Boot test (c): the USB image under OVMF with Secure Boot enforced and
# Microsoft's keys enrolled (Debian's OVMF_CODE_4M.ms.fd): only Debian's
# signed shim, GRUB, kernel and modules can run. GRUB's menu under Secure
# Boot marks memtest86+ (not signed) unavailable, and choosing it starts
# nothing. Then bootbench's entry: the unattended smoke run on the NVMe
# disk, its results on the stick; the kernel must say Secure Boot is on and
# be locked down, and the modules must still load. At the shell that
# follows (bootbench.after=shell), a ZFS comparison is refused up front
# (exit 2) with the reason (ZFS's modules are not Debian's), nothing
# written. One firmware boot for what were two (issue 49: 45 CPU-s).
. tests/bootlib.sh
need_artifacts
need_commands tmux
usb_smoke_stick after=shell
virtio_disks 2 96M
for i in 1 2; do test_disk "$T/d$i.img"; done
zfs_before=$(cat "$T/d1.img" "$T/d2.img" | sha256sum)
# At GRUB's menu first (this boot is memtest.sh's Secure Boot check too: one boot of the
# firmware, not two, issue 49): memtest86+ marked unavailable, and choosing it starts nothing.
BOOT_PROMPT=keep	# GRUB's countdown is stopped by the hot key below, not answered
console_boot 100 30 "--fw secureboot --usb '$T/stick.img' --disk nvme:'$T/nvme.img' --disk scsi:'$T/scsi.img' $disks"
# screen_lacks TEXT: the screen was read, and does not show TEXT (a screen
# that could not be read is no proof of its absence)
screen_lacks() { _s=$(screen) && [ -n "$_s" ] && ! printf '%s\n' "$_s" | grep -qF -- "$1"; }
# menu_lacks TEXT: GRUB's menu was read (its unavailable memtest86+ entry on
# the screen), and does not show TEXT: a screen that could not be read, or
# one caught while GRUB redraws it (blank on a loaded host), is no proof of
# its absence, so it is read again, for up to 10 s
menu_lacks() {
	_i=0
	while [ $_i -lt 20 ]; do
		_s=$(screen) && printf '%s\n' "$_s" | grep -qF 'memtest86+: unavailable' && {
			printf '%s\n' "$_s" | grep -qF -- "$1" && { echo "--- the menu shows '$1':"; printf '%s\n' "$_s" | grep -v '^ *$'; return 1; }
			return 0
		}
		sleep 0.5; _i=$((_i + 1))
	done
	echo "--- GRUB's menu not read in 10 s:"; screen | grep -v '^ *$' | tail -n 20
	return 1
}
step "GRUB marks memtest86+ unavailable" "memtest86+: unavailable, Secure Boot is on" 120
check "... and offers no entry that would load it" menu_lacks 'memtest86+ (memory test)'
keys m
step "choosing it says why, and nothing is loaded" "memtest86+ is not signed, so Secure Boot refuses it" 30
# Esc ends its wait (10 s of a spinning GRUB otherwise, issue 49), and GRUB draws its menu again:
# only then is "did not start" a finding (read at once, a memtest86+ loaded after the words
# could not have drawn yet)
step "... and says Esc goes back" "Esc goes back to the menu (it comes back by itself in 10 s)." 30
esc_at=$(date +%s)
keys Escape
menu_back() { _s=$(screen) && printf '%s\n' "$_s" | grep -qF 'memtest86+: unavailable, Secure Boot is on' &&
	! printf '%s\n' "$_s" | grep -qF 'memtest86+ is not signed, so Secure Boot refuses it'; }
i=0; until menu_back || [ $i -ge 80 ]; do sleep 0.5; i=$((i + 1)); done
back_s=$(($(date +%s) - esc_at))
check "... and GRUB's menu comes back after its words" menu_back
# the wait is 10 s from the words: back within 6 s of Esc (keys' own second included) is Esc's doing
check "... Esc ended the wait (the menu back ${back_s} s after it)" [ $back_s -le 6 ]
check "memtest86+ did not start" screen_lacks 'Memtest86+ v6'
# then bootbench's entry (its hot key): the unattended run, then the shell
keys b
step "the unattended smoke run ends" "unattended run finished, exit status" 300
# the shell's prompt, not "clear" (its lines stay on the screen for serial.log)
step "... then a shell (bootbench.after=shell)" '^bootbench:[^ ]*# *$' 120 E
type_line "bootbench raid --zfs=mirror --profile=ars --destroy=/dev/vda,/dev/vdb /dev/vda /dev/vdb; echo ZFS-RC=\$?"
step_result "a ZFS comparison under Secure Boot exits 2" ZFS-RC "ZFS-RC=2" 120
type_line "poweroff"
step "the machine powers off" "QEMU-EXITED" 120
$TM capture-pane -p -J -S - -t vm | tr -d '\r' > "$T/serial.log"
check "... and says why" serial_has 'ZFS cannot be loaded: Secure Boot is on (kernel lockdown: integrity)'
check "... nothing written to its disks" [ "$(cat "$T/d1.img" "$T/d2.img" | sha256sum)" = "$zfs_before" ]
usb_smoke_checks
check "the kernel saw Secure Boot enabled" grep -q '^secure boot (kernel): enabled' "$T/results/system.txt"
check "sysinfo reads Secure Boot from the EFI variable" grep -q 'UEFI, Secure Boot enabled' "$T/results/system.txt"
check "the kernel is locked down (integrity)" grep -q '^lockdown: integrity' "$T/results/system.txt"
finish
