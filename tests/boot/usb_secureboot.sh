# SPDX-License-Identifier: MIT
# Boot test (c): the USB image under OVMF with Secure Boot enforced and
# Microsoft's keys enrolled (Debian's OVMF_CODE_4M.ms.fd): only Debian's
# signed shim, GRUB, kernel and modules can run. The kernel must say Secure
# Boot is on and be locked down, and the modules must still load. Then
# bootbench.zfs under Secure Boot: ZFS's modules are not Debian's, so the
# comparison is refused up front (exit 2) with the reason, nothing written.
. tests/bootlib.sh
usb_unattended secureboot
check "the kernel saw Secure Boot enabled" grep -q '^secure boot (kernel): enabled' "$T/results/system.txt"
check "sysinfo reads Secure Boot from the EFI variable" grep -q 'UEFI, Secure Boot enabled' "$T/results/system.txt"
check "the kernel is locked down (integrity)" grep -q '^lockdown: integrity' "$T/results/system.txt"

stick_with_conf "$T/zfs-stick.img" run=ars zfs=mirror targets=vda,vdb destroy=vda,vdb scale=0.01 save=usb after=poweroff
virtio_disks 2 96M
for i in 1 2; do test_disk "$T/d$i.img"; done
before=$(cat "$T/d1.img" "$T/d2.img" | sha256sum)
if boot --fw secureboot --usb "$T/zfs-stick.img" $disks; then
	check "bootbench.zfs under Secure Boot: the comparison exits 2" serial_has 'raid: exit status 2'
	check "and says why" serial_has 'ZFS cannot be loaded: Secure Boot is on (kernel lockdown: integrity)'
	check "no disk was written" [ "$(cat "$T/d1.img" "$T/d2.img" | sha256sum)" = "$before" ]
fi
finish
