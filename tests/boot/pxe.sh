# SPDX-License-Identifier: MIT
# Boot test (e): BIOS PXE through QEMU's user-mode network: its iPXE ROM gets
# an address by DHCP and pxelinux.0 by TFTP; pxelinux.cfg/default carries the
# unattended parameters. Results go to the serial console.
. tests/bootlib.sh
FIRMWARE_BOOT=1	# the PXE boot itself is what is tested here: iPXE, TFTP and pxelinux
pxe_unattended bios pxelinux.0 pxelinux.cfg/default
finish
