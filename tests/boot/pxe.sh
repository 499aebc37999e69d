# SPDX-License-Identifier: MIT
# Boot test (e): PXE through QEMU's user-mode network: its iPXE ROM gets an
# address by DHCP and pxelinux.0 by TFTP from a copy of out/pxe, whose
# pxelinux.cfg/default gets the unattended parameters on the kernel command
# line, as a datacenter would set them. Results go to the serial console.
. tests/bootlib.sh
need_artifacts
cp -r "$OUT/pxe" "$T/tftp"
sed -i '0,/bootbench.boot=net$/s//bootbench.boot=net bootbench.run=smoke bootbench.targets=all bootbench.destroy=all bootbench.save=console bootbench.after=poweroff/' \
	"$T/tftp/pxelinux.cfg/default"
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
if boot --fw bios --pxe "$T/tftp" --disk nvme:"$T/nvme.img"; then
	check "the kernel came over PXE" serial_has 'media: network boot, no boot medium'
	check "targets=all found the NVMe disk" serial_has 'run: smoke on /dev/nvme0n1: exit status 0'
	check "the disk was written (consent given)" [ "$(sum_of "$T/nvme.img")" != "$before" ]
	if console_file nvme0n1.json; then
		check_smoke_json "$T/console-nvme0n1.json"
	else
		bad "the result JSON is on the console"
	fi
fi
finish
