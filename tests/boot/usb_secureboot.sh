# SPDX-License-Identifier: MIT
# Boot test (c): the USB image under OVMF with Secure Boot enforced and
# Microsoft's keys enrolled (Debian's OVMF_CODE_4M.ms.fd): only Debian's
# signed shim, GRUB, kernel and modules can run. The kernel must say Secure
# Boot is on and be locked down, and the modules must still load.
. tests/bootlib.sh
usb_unattended secureboot
check "the kernel saw Secure Boot enabled" grep -q '^secure boot (kernel): enabled' "$T/results/system.txt"
check "sysinfo reads Secure Boot from the EFI variable" grep -q 'UEFI, Secure Boot enabled' "$T/results/system.txt"
check "the kernel is locked down (integrity)" grep -q '^lockdown: integrity' "$T/results/system.txt"
finish
