# SPDX-License-Identifier: MIT
# Boot test (issue 14 A.4): the boot stick is known by this build's id file,
# not by its label. 1) A decoy volume also labelled BOOTBENCH (an old stick
# without this build's id) is attached first, as a virtio disk: the unattended
# run with targets=all destroy=all must take the decoy as a target, never the
# real stick, and save its results on the real stick. Before the fix, the
# first BOOTBENCH volume found was taken as the stick. 2) Two sticks holding
# this build's id make the boot medium ambiguous: the unattended run is
# refused, both disks are unchanged.
. tests/bootlib.sh
need_artifacts
need_commands mcopy mdel
stick_with_conf "$T/stick.img" run=smoke scale=$SMOKE_SCALE targets=all destroy=all save=usb after=poweroff
cp "$OUT/bootbench-usb.img" "$T/decoy.img"
mdel -i "$T/decoy.img@@1M" "::/boot/$BOOT_ID"
if boot --usb "$T/stick.img" --disk virtio:"$T/decoy.img"; then
	check "the stick is found by its id" serial_has "media: /dev/sd[a-z]1 (vfat) on /media/bootbench, read-write"
	check "the decoy is a target, the stick is not" sh -c "grep -q 'run: smoke on /dev/vda: exit status 0' '$T/serial.log' && ! grep -q 'run: smoke on /dev/sd' '$T/serial.log'"
	if fetch_results "$T/stick.img"; then
		check "the results are on the real stick" grep -q 'unattended run finished, exit status 0' "$T/results/console.log"
	else
		bad "the results are on the real stick"
	fi
fi

stick_with_conf "$T/stick.img" run=smoke scale=$SMOKE_SCALE targets=all destroy=all save=console after=poweroff
cp "$T/stick.img" "$T/twin.img"
before=$(sum_of "$T/twin.img")
if boot --usb "$T/stick.img" --disk virtio:"$T/twin.img"; then
	check "two volumes with this build's id: ambiguous, said so" serial_has 'the boot medium is ambiguous'
	check "... the unattended run is refused" serial_has 'unattended run cancelled: the boot medium is ambiguous'
	check "... the twin is unchanged" [ "$(sum_of "$T/twin.img")" = "$before" ]
fi
finish
