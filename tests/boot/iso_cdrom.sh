# SPDX-License-Identifier: MIT
# Boot test (d): the hybrid ISO as a CD-ROM under SeaBIOS (isolinux), and
# with FW=uefi (iso_uefi.sh) under OVMF through its El Torito EFI image. The
# ISO is read-only, so the test adds a bootbench.conf to a copy with xorriso;
# the results go to the serial console between marker lines.
. tests/bootlib.sh
need_artifacts
FW=${FW:-bios}
printf '%s\n' "${ASLR_OFF#bootbench.}" run=smoke scale=$SMOKE_SCALE targets=nvme0n1 destroy=nvme0n1 save=console after=poweroff > "$T/bootbench.conf"
xorriso -indev "$OUT/bootbench.iso" -outdev "$T/test.iso" -boot_image any replay \
	-map "$T/bootbench.conf" /bootbench.conf >/dev/null 2>&1 || { bad "xorriso could add bootbench.conf"; finish; }
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
if boot --fw "$FW" --cdrom "$T/test.iso" --disk nvme:"$T/nvme.img"; then
	check "the boot medium is the CD" serial_has 'media: /dev/sr0 (iso9660), read-only'
	check_console_results
fi
finish
