# SPDX-License-Identifier: MIT
# Boot test: the iPXE script (boot.ipxe) as the DHCP boot file; iPXE runs it
# and fetches the kernel and initramfs by TFTP, no pxelinux involved.
. tests/bootlib.sh
FIRMWARE_BOOT=1	# iPXE and its script are what is tested here
pxe_unattended bios boot.ipxe boot.ipxe
finish
