# SPDX-License-Identifier: MIT
# Boot test (issue 17): a rack machine booted with bootbench.fio_server=on
# and bootbench.destroy naming its NVMe disk; this host is the controller:
# Debian's fio --client reaches the guest's fio server through a QEMU
# user-mode port forward. A job on the NVMe disk runs there and its JSON
# comes back, the guest's hostname on its lines; a job writing the boot
# stick, or using ioengine=exec, fails, and the stick is unchanged.
. tests/bootlib.sh
need_artifacts
command -v fio >/dev/null || skip "fio is not installed"
# the host end of the forward to the guest's fio server (8765 there: the guest's own network)
free_port PORT || { bad "a free port for the forward"; finish; }
truncate -s 64M "$T/nvme.img"
stick_with_conf "$T/stick.img" "fio_server=on" "destroy=/dev/nvme0n1" "save=none"
# the stick's first MiB (its MBR, before the FAT partition): nothing of the appliance writes there
head_sum() { dd if="$T/stick.img" bs=1M count=1 status=none | sha256sum; }
before=$(head_sum)
: > "$T/serial.log"
scripts/qemu.sh $(direct) --serial "$T/serial.log" --timeout "$BOOT_LIMIT" --usb "$T/stick.img" --disk nvme:"$T/nvme.img" \
	--forward $PORT:8765 > "$T/qemu.out" 2>&1 &
qpid=$!
i=0
# its port listening (said once fio listens in its sandbox: the forward's
# word; a client that came on the start's word, beside stress-ng --cpu 2,
# found nobody)
while ! serial_has "port 8765: listening" && kill -0 $qpid 2>/dev/null && [ $i -lt 240 ]; do
	sleep 1; i=$((i + 1))
done
check "the guest starts fio's server, confined" serial_has "confined: writes 1 disk(s)"
check "... its port listening (${i}s)" serial_has "port 8765: listening, carried to the program in its sandbox"
# client NAME JOB-TEXT: the job run on the guest; NAME.json, NAME.out, NAME.rc
client() {
	printf '%s\n' "$2" > "$T/$1.fio"
	timeout 120 fio --client=127.0.0.1,$PORT --output-format=json "$T/$1.fio" > "$T/$1.out" 2> "$T/$1.err"
	echo $? > "$T/$1.rc"
	sed -n '/^{/,$p' "$T/$1.out" > "$T/$1.json"
}
client nvme "[nvme]
filename=/dev/nvme0n1
rw=randrw
bs=4k
size=8m
direct=1
ioengine=libaio
iodepth=8"
check "a client's libaio job on the guest's NVMe disk: exit 0" [ "$(cat "$T/nvme.rc")" = 0 ] ||
	{ echo "--- fio's client said (exit $(cat "$T/nvme.rc")):"; tail -n 20 "$T/nvme.out" "$T/nvme.err"; tail -n 20 "$T/serial.log"; }
bytes=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['client_stats'][0]; print(c['read']['io_bytes'] + c['write']['io_bytes'])" "$T/nvme.json" 2>/dev/null)
check "... its JSON comes back: 8 MiB moved ($bytes)" [ "$bytes" = 8388608 ]
check "... from the guest (its hostname on fio's lines)" grep -q "^<$(cat rootfs/etc/hostname)> " "$T/nvme.out"
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
# (check returns 0 either way: the lines below come after its failure by if)
if grep -q 'got signal=9' "$T/exec.out" "$T/exec.err"; then
	ok "... and fails: killed, the client told so"
else
	bad "... and fails: killed, the client told so"
	echo "    exit status $(cat "$T/exec.rc")"; sed 's/^/    out: /' "$T/exec.out" | tail -n 15; sed 's/^/    err: /' "$T/exec.err" | tail -n 15
fi
check "... the guest says it refused it" serial_has "fio-server: refused to run a program"
pkill -TERM -f "qemu-system.*file:$T/serial.log"
wait $qpid 2>/dev/null
check "the stick is unchanged where the job would have written (its first MiB)" [ "$(head_sum)" = "$before" ]
finish
