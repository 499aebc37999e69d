# SPDX-License-Identifier: MIT
# Boot test (issues 35 and 17): one rack machine, booted from a stick.
# First an unattended run of a job file on the stick that bootbench's
# engine does not run (verify=md5): on the image, its fio runs it in the
# sandbox, on the disk consented to (bootbench.destroy), and verifies what
# it wrote; the other target, not consented to, is refused before fio
# starts and is unchanged, byte for byte; the JSON saved on the stick is
# fio's, where bootbench's own would be. Then, as bootbench.fio_server=on
# asks, fio's server (issue 17), with this host as the controller: Debian's
# fio --client reaches it through a QEMU user-mode port forward. A job on
# the consented disk runs there and its JSON comes back, the guest's
# hostname on its lines; a job writing the boot stick, or using
# ioengine=exec, fails, and the stick's first MiB is unchanged.
# (fio_server_rack.sh's own boot before issue 49.)
. tests/bootlib.sh
need_artifacts
# Debian's fio is the controller (make deps installs it): without it the test fails, not skips
need_commands fio python3
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
stick_with_conf "$T/stick.img" run=deleg.fio targets=vda,vdb destroy=vda save=usb after=menu fio_server=on
mcopy -o -i "$T/stick.img@@1M" "$T/deleg.fio" ::/deleg.fio
test_disk "$T/a.img"
test_disk "$T/b.img"
# the unattended run writes the consented disk's first 8 MiB, the fio server's client job 8 MiB
# from 32 MiB on: each is checked where it alone writes
first8() { dd if="$1" bs=1M count=8 status=none | cksum; }
a0=$(first8 "$T/a.img") b0=$(sum_of "$T/b.img")
# the stick's first MiB (its MBR, before the FAT partition): nothing of the appliance writes there
head_sum() { dd if="$T/stick.img" bs=1M count=1 status=none | sha256sum; }
before=$(head_sum)
# the host end of the forward to the guest's fio server (8765 there: the guest's own network)
free_port PORT || { bad "a free port for the forward"; finish; }
: > "$T/serial.log"
scripts/qemu.sh $(direct) --fw bios --serial "$T/serial.log" --timeout "$BOOT_LIMIT" --usb "$T/stick.img" \
	--disk virtio:"$T/a.img" --disk virtio:"$T/b.img" --forward $PORT:8765 > "$T/qemu.out" 2>&1 &
qpid=$!
i=0
# its port listening (said once fio listens in its sandbox: the forward's
# word; a client that came on the start's word, beside stress-ng --cpu 2,
# found nobody)
while ! serial_has "port 8765: listening" && kill -0 $qpid 2>/dev/null && [ $i -lt 240 ]; do
	sleep 1; i=$((i + 1))
done
check "the first line says fio runs the job file, and why" serial_has "fio runs this job, in the sandbox (/usr/bin/fio): invalid value 'md5' for option 'verify'"
check "on the consented disk it ran (exit 0)" serial_has 'run: deleg.fio on /dev/vda: exit status 0'
check "the other was refused before fio started (exit 2)" serial_has 'run: deleg.fio on /dev/vdb: exit status 2'
check "... naming it and the consent it lacks" serial_has 'refusing to write /dev/vdb: the job writes, name it in --destroy=/dev/vdb'
check "the results are saved before the menu" serial_has 'results saved to results/.* on the stick'
check "then the guest starts fio's server, confined" serial_has "confined: writes 1 disk(s)"
check "... its port listening (${i}s)" serial_has "port 8765: listening, carried to the program in its sandbox"
# client NAME JOB-TEXT: the job run on the guest; NAME.json, NAME.out, NAME.rc
client() {
	printf '%s\n' "$2" > "$T/$1.fio"
	timeout 120 fio --client=127.0.0.1,$PORT --output-format=json "$T/$1.fio" > "$T/$1.out" 2> "$T/$1.err"
	echo $? > "$T/$1.rc"
	sed -n '/^{/,$p' "$T/$1.out" > "$T/$1.json"
}
client disk "[disk]
filename=/dev/vda
offset=32m
rw=randrw
bs=4k
size=8m
direct=1
ioengine=libaio
iodepth=8"
check "a client's libaio job on the guest's consented disk: exit 0" [ "$(cat "$T/disk.rc")" = 0 ] ||
	{ echo "--- fio's client said (exit $(cat "$T/disk.rc")):"; tail -n 20 "$T/disk.out" "$T/disk.err"; tail -n 20 "$T/serial.log"; }
bytes=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['client_stats'][0]; print(c['read']['io_bytes'] + c['write']['io_bytes'])" "$T/disk.json" 2>/dev/null)
check "... its JSON comes back: 8 MiB moved ($bytes)" [ "$bytes" = 8388608 ]
check "... from the guest (its hostname on fio's lines)" grep -q "^<$(cat rootfs/etc/hostname)> " "$T/disk.out"
client stick "[stick]
filename=/dev/sda
rw=write
bs=64k
size=1m"
check "a job writing the boot stick fails" sh -c "[ \"\$(cat '$T/stick.rc')\" != 0 ] && grep -q 'Read-only file system' '$T/stick.out' '$T/stick.err'"
client exec "[exec]
ioengine=exec
program=/bin/sh
arguments=-c 'echo RAN > /dev/ttyS0'
time_based
runtime=2"
check "a job with ioengine=exec runs nothing" sh -c "! grep -q '^RAN' '$T/serial.log'"
# (what the client said, and where, printed when it is not that: a fresh root's load once hid it)
if grep -q 'got signal=9' "$T/exec.out" "$T/exec.err"; then
	ok "... and fails: killed, the client told so"
else
	bad "... and fails: killed, the client told so"
	echo "    exit status $(cat "$T/exec.rc")"; sed 's/^/    out: /' "$T/exec.out" | tail -n 15; sed 's/^/    err: /' "$T/exec.err" | tail -n 15
fi
check "... the guest says it refused it" serial_has "fio-server: refused to run a program"
pkill -TERM -f "qemu-system.*file:$T/serial.log"
wait $qpid 2>/dev/null
keep_serial
check "the stick is unchanged where the job would have written (its first MiB)" [ "$(head_sum)" = "$before" ]
check "the consented disk was written by the unattended run (its first 8 MiB)" [ "$(first8 "$T/a.img")" != "$a0" ]
check "the other is unchanged" [ "$(sum_of "$T/b.img")" = "$b0" ]
if fetch_results "$T/stick.img"; then
	check "the saved JSON is fio's: 8 MiB written and verified, no error" json "$T/results/vda.json" \
		"d['fio version'] == 'fio-3.33' and d['jobs'][0]['write']['io_bytes'] == 8388608 and d['jobs'][0]['error'] == 0"
	check "... with fio's summary beside it" grep -q 'Run status group 0' "$T/results/vda.txt"
	check "nothing was saved for the refused disk" [ ! -s "$T/results/vdb.json" ]
else
	bad "the results were saved on the stick"
fi
finish
