# SPDX-License-Identifier: MIT
# Boot test (issue 35): an unattended run of a job file on the stick that
# bootbench's engine does not run (verify=md5): on the image, its fio
# runs it in the sandbox, on the disk consented to (bootbench.destroy), and
# verifies what it wrote; the other target, not consented to, is refused
# before fio starts and is unchanged, byte for byte; the JSON saved on the
# stick is fio's, where bootbench's own would be.
. tests/bootlib.sh
need_artifacts
cat > "$T/deleg.fio" <<'JOB'
[w]
filename=${TARGET}
ioengine=psync
rw=write
bs=64k
size=8m
verify=md5
verify_backlog=16
JOB
stick_with_conf "$T/stick.img" run=deleg.fio targets=vda,vdb destroy=vda save=usb after=poweroff
mcopy -o -i "$T/stick.img@@1M" "$T/deleg.fio" ::/deleg.fio
test_disk "$T/a.img"
test_disk "$T/b.img"
a0=$(sum_of "$T/a.img") b0=$(sum_of "$T/b.img")
if boot --fw bios --usb "$T/stick.img" --disk virtio:"$T/a.img" --disk virtio:"$T/b.img"; then
	check "the first line says fio runs it, and why" serial_has "fio runs this job, in the sandbox (/usr/bin/fio): invalid value 'md5' for option 'verify'"
	check "on the consented disk it ran (exit 0)" serial_has 'run: deleg.fio on /dev/vda: exit status 0'
	check "... and wrote it" [ "$(sum_of "$T/a.img")" != "$a0" ]
	check "the other was refused before fio started (exit 2)" serial_has 'run: deleg.fio on /dev/vdb: exit status 2'
	check "... naming it and the consent it lacks" serial_has 'refusing to write /dev/vdb: the job writes, name it in --destroy=/dev/vdb'
	check "... and it is unchanged" [ "$(sum_of "$T/b.img")" = "$b0" ]
	if fetch_results "$T/stick.img"; then
		check "the saved JSON is fio's: 8 MiB written and verified, no error" json "$T/results/vda.json" \
			"d['fio version'] == 'fio-3.33' and d['jobs'][0]['write']['io_bytes'] == 8388608 and d['jobs'][0]['error'] == 0"
		check "... with fio's summary beside it" grep -q 'Run status group 0' "$T/results/vda.txt"
		check "nothing was saved for the refused disk" [ ! -s "$T/results/vdb.json" ]
	else
		bad "the results were saved on the stick"
	fi
fi
finish
