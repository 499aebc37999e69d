# SPDX-License-Identifier: MIT
# Boot test (issue 14 A.7): results are never lost to a stick that cannot
# take them. 1) A full stick: the unattended run's save says how much room
# is missing, the results are shown whole on the console, and
# bootbench.after=poweroff is not done (the machine keeps running with them
# on screen). 2) A write-protected stick: the kernel mounts it read-only, the
# log says so (not "read-write"), and the same follows. Before the fix, the
# log said read-write, the save stopped at the first error and the machine
# powered off with the results only in RAM.
# alone
# (the JSON is cut out of the serial line byte for byte: twice, with another
# guest beside it, something landed inside it)
. tests/bootlib.sh
need_artifacts
need_commands mcopy mdir

# the smoke run's results on the console are the same JSON a stick gets
console_results_whole() {
	if console_file vda.json; then
		check "... the run's JSON is on the console, whole" json "$T/console-vda.json" \
			'len(d["jobs"]) == 2 and all(j["error"] == 0 for j in d["jobs"])'
	else
		bad "... the run's JSON is on the console"
	fi
	check "... and its console log" console_file console.log
}

stick_with_conf "$T/stick.img" run=smoke scale=$SMOKE_SCALE targets=all destroy=all save=usb after=poweroff
# mdir groups the digits with spaces: "  17 302 336 bytes free"
free=$(mdir -i "$T/stick.img@@1M" :: | sed -n 's/ bytes free.*//p' | tr -dc 0-9)
[ "${free:-0}" -gt 65536 ] && [ "$free" -lt $((64 << 20)) ] || { bad "the stick's free space is known (mdir said '$free')"; finish; }
head -c $((free - 16384)) /dev/zero > "$T/filler"
mcopy -i "$T/stick.img@@1M" "$T/filler" ::/filler && rm "$T/filler"
truncate -s 64M "$T/d1.img"
if boot_until 'not doing bootbench.after=poweroff' 240 10 --usb "$T/stick.img" --disk virtio:"$T/d1.img"; then
	check "full stick: the save failed, saying how much room is missing" \
		serial_has 'saving results FAILED: the stick has [0-9]* KiB free, the results need [0-9]* KiB'
	console_results_whole
	check "... no half-written results folder on the stick" \
		sh -c "! mdir -b -i '$T/stick.img@@1M' ::/results/ 2>/dev/null | grep -q '[^.]\$'"
fi

stick_with_conf "$T/stick.img" run=smoke scale=$SMOKE_SCALE targets=all destroy=all save=usb after=poweroff
before=$(sum_of "$T/stick.img")
if boot_until 'not doing bootbench.after=poweroff' 240 10 --locked --usb "$T/stick.img" --disk virtio:"$T/d1.img"; then
	check "write-protected stick: the log says read-only" serial_has 'media: /dev/sd[a-z]1 (vfat), read-only'
	check "... never read-write" sh -c "! grep -q 'read-write for results' '$T/serial.log'"
	check "... the save failed, saying why" serial_has 'saving results FAILED: the stick is not mounted read-write'
	console_results_whole
	check "... the stick is unchanged" [ "$(sum_of "$T/stick.img")" = "$before" ]
fi
finish
