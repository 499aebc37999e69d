# SPDX-License-Identifier: MIT
# Boot test (issue 47): the arm64 ISO as a CD-ROM (virtio-scsi) under
# qemu-system-aarch64's virt machine with AAVMF, TCG: shim and signed GRUB
# from its El Torito EFI image, the signed kernel and the parts from the
# ISO itself, as iso_uefi.sh for x86_64. The ISO is read-only, so a copy
# gets a bootbench.conf by xorriso; the results go to the serial console.
# timeout: 600
# tier: arm64 (make test-arm64, which builds its image)
. tests/bootlib.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# boot(): AAVMF from the medium, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/bootbench.iso" ] || { echo "out/arm64/bootbench.iso is missing: run 'make image ARCH=arm64'"; exit 1; }
need_commands qemu-system-aarch64 xorriso
printf '%s\n' run=smoke targets=nvme0n1 destroy=nvme0n1 save=console after=poweroff > "$T/bootbench.conf"
xorriso -indev "$OUT/bootbench.iso" -outdev "$T/test.iso" -boot_image any replay \
	-map "$T/bootbench.conf" /bootbench.conf >/dev/null 2>&1 || { bad "xorriso could add bootbench.conf"; finish; }
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
boot --cdrom "$T/test.iso" --disk nvme:"$T/nvme.img" || finish
check "the boot medium is the CD" serial_has 'media: /dev/sr0 (iso9660), read-only'
check "the guest's boot log names the arm64 kernel" grep -q 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-arm64' "$T/serial.log"
check_console_results
finish
