# SPDX-License-Identifier: MIT
# Boot test: UEFI PXE under OVMF: the boot file is shim (bootx64.efi), which
# loads Debian's signed network GRUB (grubx64.efi) from the same TFTP folder;
# GRUB reads grub/grub.cfg and loads the signed kernel over TFTP.
. tests/bootlib.sh
FIRMWARE_BOOT=1	# OVMF, shim and GRUB over TFTP are what is tested here
# nobody answers GRUB's countdown, as in a rack: the default entry boots by itself
BOOT_PROMPT=keep
pxe_unattended uefi bootx64.efi grub/grub.cfg
finish
