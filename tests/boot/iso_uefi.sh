# SPDX-License-Identifier: MIT
# Boot test: the hybrid ISO as a CD-ROM under OVMF (UEFI): shim and signed
# GRUB from the El Torito EFI image, kernel and initramfs from the ISO itself.
FW=uefi . tests/boot/iso_cdrom.sh
