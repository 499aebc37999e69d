# SPDX-License-Identifier: MIT
# Boot test (issue 47): arm64 UEFI network boot under qemu-system-aarch64's
# virt machine with AAVMF, TCG: AAVMF's own PXE client (its virtio-net
# driver) fetches shim (bootaa64.efi) from QEMU's user-mode TFTP, shim
# loads Debian's signed network GRUB for arm64 (grubaa64.efi) from the same
# folder, GRUB reads grub/grub.cfg and loads the signed kernel and the PXE
# parts over TFTP, as pxe_uefi_grub.sh for x86_64. The unattended
# parameters on GRUB's kernel line, as a datacenter would set them: the
# smoke profile on the NVMe disk, results on the console.
# timeout: 600
# tier: arm64 (make test-arm64, which builds its image)
. tests/bootlib.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# boot(): AAVMF from the medium, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/pxe/bootaa64.efi" ] || { echo "out/arm64/pxe is missing: run 'make image ARCH=arm64'"; exit 1; }
need_commands qemu-system-aarch64
cp -r "$OUT/pxe" "$T/tftp"
sed -i '0,/bootbench.boot=net /s//bootbench.boot=net bootbench.run=smoke bootbench.scale='$SMOKE_SCALE' bootbench.targets=all bootbench.destroy=all bootbench.save=console bootbench.after=poweroff /' \
	"$T/tftp/grub/grub.cfg"
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
boot --pxe "$T/tftp" --disk nvme:"$T/nvme.img" || finish
check "the kernel came over the network" serial_has 'media: network boot, no boot medium'
check "the guest's boot log names the arm64 kernel" grep -q 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-arm64' "$T/serial.log"
check "targets=all found the NVMe disk" serial_has 'run: smoke on /dev/nvme0n1: exit status 0'
check_console_results
finish
