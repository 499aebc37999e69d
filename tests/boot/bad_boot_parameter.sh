# SPDX-License-Identifier: MIT
# Boot test, negative: a boot parameter with a wrong value (here on the
# kernel command line, direct kernel boot with the stick attached) is
# reported on the console and in the log saved on the stick, the unattended
# run is cancelled, and the test disk is unchanged although consent was given.
. tests/bootlib.sh
need_artifacts
cp "$OUT/bootbench-usb.img" "$T/stick.img"
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
if boot --kernel "$OUT/vmlinuz" --initrd "$OUT/initramfs.img" --usb "$T/stick.img" --disk nvme:"$T/nvme.img" \
	--append "console=ttyS0,115200 bootbench.boot=usb bootbench.id=$BOOT_ID $ASLR_OFF bootbench.run=smoke bootbench.targets=nvme0n1 bootbench.destroy=nvme0n1 bootbench.save=floppy bootbench.after=poweroff"; then
	check "the console names the parameter and its values" serial_has "bootbench.save: destination 'floppy': expected usb, console, or a URL"
	check "the run was cancelled" serial_has 'unattended run cancelled: wrong boot parameters'
	check "the disk is unchanged" [ "$(sum_of "$T/nvme.img")" = "$before" ]
	if fetch_results "$T/stick.img"; then
		check "the saved log names the wrong parameter" grep -q "bootbench.save: destination 'floppy'" "$T/results/console.log"
		check "no result JSON was written" [ ! -e "$T/results/nvme0n1.json" ]
	else
		bad "the log was saved on the stick"
	fi
fi
finish
