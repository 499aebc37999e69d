# SPDX-License-Identifier: MIT
# Boot test (b): the USB image under OVMF (UEFI; shim, signed GRUB, signed
# kernel), Secure Boot off. Same unattended run and checks as usb_bios.sh.
. tests/bootlib.sh
usb_unattended uefi
check "the guest booted through UEFI, Secure Boot off" grep -q 'UEFI, Secure Boot disabled' "$T/results/system.txt"
finish
