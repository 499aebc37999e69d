# SPDX-License-Identifier: MIT
# Boot test (b): the USB image under OVMF (UEFI; shim, signed GRUB, signed
# kernel), Secure Boot off. Same unattended run and checks as usb_bios.sh.
. tests/bootlib.sh
usb_unattended uefi
check "the guest booted through UEFI" grep -q '^firmware: UEFI' "$T/results/system.txt"
finish
