# SPDX-License-Identifier: MIT
# Boot test, negative: an unattended write job without bootbench.destroy
# refuses (bootbench exits 2) and the disk is unchanged, byte for byte; the
# refusal is in the log saved on the stick.
. tests/bootlib.sh
need_artifacts
stick_with_conf "$T/stick.img" run=smoke targets=/dev/nvme0n1 save=usb after=poweroff
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
if boot --fw bios --usb "$T/stick.img" --disk nvme:"$T/nvme.img"; then
	check "the run refused with exit status 2" serial_has 'run: smoke on /dev/nvme0n1: exit status 2'
	check "bootbench named the device and the missing consent" serial_has '/dev/nvme0n1.*--destroy'
	check "the disk is unchanged" [ "$(sum_of "$T/nvme.img")" = "$before" ]
	if fetch_results "$T/stick.img"; then
		check "no result JSON was written" [ ! -e "$T/results/nvme0n1.json" ]
		check "the saved log has the refusal" grep -q 'exit status 2' "$T/results/console.log"
	else
		bad "the log was saved on the stick"
	fi
fi
finish
