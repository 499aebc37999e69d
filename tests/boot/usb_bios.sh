# SPDX-License-Identifier: MIT
# Boot test (a): the USB image under SeaBIOS (syslinux). Unattended from
# bootbench.conf on the stick: the smoke profile on the virtual NVMe disk with
# consent, results saved to the stick, power-off. The host reads the results
# back from the image's FAT partition with mtools. It boots as the image
# ships, the programs' addresses randomized (aslr=on; most of the suite's
# guests boot with it off: tests/bootlib.sh), and says so in system.txt.
. tests/bootlib.sh
FIRMWARE_BOOT=1	# the boot loader is what is tested here
USB_ASLR=on
usb_unattended bios
finish
