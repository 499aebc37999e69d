# SPDX-License-Identifier: MIT
# fio_delegate.sh (issue 35) - every fio job file runs: fio's own 86
# examples (its source, dl/src/fio-*/examples) through --parse-only, each
# said to run on bootbench or on the image's fio (out/fio/fio, the build
# the image carries), or refused naming the engine or option and why; the
# refusals are exactly the engines that need a network, a cluster or a
# library the image lacks, programs (exec), and unset ${VARS}. Delegated
# runs: fio's filecreate writes its files, its JSON lands in --output and
# report reads it; --engine-of-record picks. The sandbox holds: a job
# writing a disk not consented to is refused before fio starts, and the
# disk's checksum is unchanged; the consent gate refuses the boot medium
# and a mounted disk; exec_prerun runs nothing; logs go where the job names
# them. Issue 44: fio's stdin is /dev/null and it holds no descriptor of
# bootbench's caller (a disk on stdin or left open is not written through
# /proc/self/fd/N); its stderr reaches the user through bootbench.
. tests/lib.sh
need_commands python3 sha256sum
[ "$(id -u)" = 0 ] || skip "the sandbox needs root"
export BOOTBENCH_FIO=$PWD/out/fio/fio
[ -x "$BOOTBENCH_FIO" ] || { echo "FAILED: $BOOTBENCH_FIO is not built (make all)"; exit 1; }
examples=$(ls -d "$PWD"/dl/src/fio-*/examples 2>/dev/null | head -n 1)
[ -d "$examples" ] || { echo "FAILED: fio's examples are not in dl/src (make all fetches fio's source)"; exit 1; }

# --- fio's examples, parsed: who runs each, and why the rest are refused
native=0 delegated=0 refused=0 total=0
: > "$T/table"
for f in "$examples"/*.fio; do
	n=$(basename "$f")
	(cd "$examples" && "$BB" run --parse-only "$n") > "$T/p.out" 2> "$T/p.err" < /dev/null
	rc=$?
	total=$((total + 1))
	if [ $rc = 0 ] && grep -qx 'bootbench runs it' "$T/p.out"; then
		native=$((native + 1)); echo "$n bootbench" >> "$T/table"
	elif [ $rc = 0 ] && grep -q '^fio runs it: ' "$T/p.out"; then
		delegated=$((delegated + 1)); echo "$n fio" >> "$T/table"
	else
		refused=$((refused + 1)); echo "$n refused: $(cat "$T/p.err")" >> "$T/table"
		# each refusal: one line, exit 2, naming an engine nothing here runs, or an unset variable
		if [ $rc = 2 ] && [ "$(wc -l < "$T/p.err")" = 1 ] &&
		   grep -qE "ioengine=[a-z_0-9:-]+: (a network engine|an object store|a network block device|iSCSI|an NFS server|a Ceph cluster|a GlusterFS cluster|an HDFS cluster|a DAOS cluster|a DDN IME cluster|persistent memory|GPU storage|xNVMe|it runs programs|an example of an engine)|environment variable '[A-Za-z_]+' is not set" "$T/p.err"; then
			:
		else
			bad "$n: refused without naming an engine nothing here runs (exit $rc): $(head -c 200 "$T/p.err")"
		fi
	fi
done
sed 's/^/    /' "$T/table"
echo "fio's examples: $total; bootbench runs $native, the image's fio $delegated, refused $refused"
check "all of fio's examples were read ($total)" [ "$total" -ge 80 ]
check "bootbench runs at least 25 of them itself ($native)" [ "$native" -ge 25 ]
check "together with the image's fio, at least 53 run ($((native + delegated)))" [ $((native + delegated)) -ge 53 ]
for n in filecreate-ioengine filestat-ioengine filedelete-ioengine falloc ftruncate e4defrag cpuio sg_verify \
	 zbd-seq-read cross-stripe-verify latency-profile flow enospc-pressure dedupe-global; do
	check "$n.fio: the image's fio runs it" grep -qx "$n.fio fio" "$T/table"
done
for n in 1mbs_clients jesd219 numa rand-zones fixed-rate-submission fio-rand-RW poisson-rate-submission disk-zone-profile exitwhat waitfor; do
	check "$n.fio: bootbench runs it" grep -qx "$n.fio bootbench" "$T/table"
done
for n in netio rbd http-s3 exec nfs; do
	check "$n.fio: refused" grep -q "^$n.fio refused: " "$T/table"
done

# --- a delegated run: fio's filecreate makes its files; its JSON goes where run's does
mkdir -p "$T/run/files"
cat > "$T/run/fc.fio" <<EOF
[global]
ioengine=filecreate
create_on_open=1
nrfiles=50
fallocate=none
filesize=4k
openfiles=1
directory=$T/run/files
[create]
EOF
(cd "$T/run" && "$BB" run --output-format=json --output=fc.json --summary=fc.txt fc.fio) > "$T/fc.out" 2> "$T/fc.err"
rc=$?
check "filecreate: runs (exit $rc)" [ $rc = 0 ]
check "... the first line says fio runs it, and why" \
	sh -c "head -n 1 '$T/fc.err' | grep -q 'fio runs this job, in the sandbox .*ioengine=filecreate is fio.s'"
check "... fio made its 50 files ($(ls "$T/run/files" | wc -l))" [ "$(ls "$T/run/files" | wc -l)" = 50 ]
check "... fio's JSON in --output" json "$T/run/fc.json" "d['fio version'] == 'fio-3.33' and d['jobs'][0]['jobname'] == 'create'"
check "... fio's summary in --summary" grep -q 'Run status group 0' "$T/run/fc.txt"
"$BB" report --output="$T/run/fc.html" "$T/run/fc.json" 2> "$T/rep.err"
check "... report reads it (exit $?)" grep -q 'create' "$T/run/fc.html"
# --engine-of-record
(cd "$T/run" && "$BB" run --engine-of-record=fio --name=nul --ioengine=null --size=1m --output-format=json) > "$T/eor.json" 2> "$T/eor.err"
check "--engine-of-record=fio: fio runs a job bootbench could" json "$T/eor.json" "d['fio version'] == 'fio-3.33'"
# from / (the appliance's shell starts there): the working folder, writable to fio, holds fio itself
(cd / && "$BB" run --engine-of-record=fio --name=nul --ioengine=null --size=1m --output-format=json) > "$T/root.json" 2> "$T/root.err"
check "run from / : fio still starts, below its writable working folder" json "$T/root.json" "d['fio version'] == 'fio-3.33'"
"$BB" compare --format=json "$T/run/fc.json" "$T/eor.json" > "$T/cmp.json" 2> "$T/cmp.err"
check "compare reads delegated runs' JSON with the rest (exit $?)" json "$T/cmp.json" "d['files'] == 2 and d['unreadable_files'] == 0 and len(d['tests']) >= 2"
refuses "--engine-of-record=bootbench: a job only fio runs is refused, naming the engine" "ioengine=filecreate" \
	sh -c "cd '$T/run' && '$BB' run --engine-of-record=bootbench fc.fio"
refuses "a typo is refused by both, with bootbench's words" "unsupported option 'blocksizee'" \
	"$BB" run --name=x --blocksizee=4k --ioengine=filecreate
refuses "an engine that needs a network: refused, with why" "ioengine=net: a network engine" \
	"$BB" run --name=x --ioengine=net --hostname=127.0.0.1 --port=9 --size=1m
refuses "exec: refused, with why" "ioengine=exec: it runs programs" \
	"$BB" run --name=x --ioengine=exec --program=/bin/true

# --- the sandbox: disks written only with consent, folders only as named
loopdev dev "$T/disk.img" 32M
dd if=/dev/urandom of="$dev" bs=1M count=32 oflag=direct status=none
before=$(sha256sum < "$dev")
cat > "$T/run/w.fio" <<EOF
[w]
ioengine=sync
rw=write
bs=64k
size=4m
verify=crc32c
verify_backlog=16
filename=$dev
EOF
refuses "a delegated job writing a disk not consented to: refused before fio starts" "refusing to write $dev" \
	sh -c "cd '$T/run' && '$BB' run w.fio"
check "... the disk is as it was" [ "$(sha256sum < "$dev")" = "$before" ]
# a disk only read needs no consent: its node in the sandbox is read-only
cat > "$T/run/r.fio" <<EOF
[r]
ioengine=sync
rw=read
bs=64k
size=4m
verify_backlog=16
filename=$dev
EOF
(cd "$T/run" && "$BB" run r.fio) > "$T/r.out" 2>&1
check "a delegated job reading a disk it names: runs (exit $?)" grep -q 'READ: bw=' "$T/r.out"
printf 'boot %s\n' "$dev" > "$T/media"
refuses "the boot medium: refused by the consent gate, even with --destroy" "boot medium" \
	sh -c "cd '$T/run' && BOOTBENCH_MEDIA_FILE='$T/media' '$BB' run --destroy=$dev w.fio"
check "... the disk is as it was" [ "$(sha256sum < "$dev")" = "$before" ]
mkfs.ext4 -q -F "$dev" && before=$(sha256sum < "$dev") && mkdir -p "$T/mnt" && mount -o ro "$dev" "$T/mnt"
refuses "a mounted disk: refused by the consent gate" "mounted" \
	sh -c "cd '$T/run' && '$BB' run --destroy=$dev w.fio"
umount "$T/mnt"
check "... the disk is as it was" [ "$(sha256sum < "$dev")" = "$before" ]
(cd "$T/run" && "$BB" run --destroy="$dev" --output-format=json --output=w.json w.fio) > "$T/w.out" 2>&1
check "with --destroy: fio writes it and verifies (exit $?)" json "$T/run/w.json" "d['jobs'][0]['write']['io_bytes'] == 4194304 and d['jobs'][0]['error'] == 0"
check "... the disk changed" [ "$(sha256sum < "$dev")" != "$before" ]
# no program runs: exec_prerun would make a file
cat > "$T/run/pre.fio" <<EOF
[pre]
ioengine=filecreate
nrfiles=1
filesize=4k
directory=$T/run/files
exec_prerun=/bin/touch $T/run/ran
EOF
(cd "$T/run" && "$BB" run pre.fio) > "$T/pre.out" 2>&1
check "exec_prerun: refused in the sandbox, nothing ran" sh -c "[ ! -e '$T/run/ran' ] && grep -q 'refused to run a program' '$T/pre.out'"
# the logs go where the job names them, as bootbench's own runs write them
mkdir -p "$T/logs"
cat > "$T/run/log.fio" <<EOF
[log]
ioengine=filecreate
nrfiles=1
filesize=4k
directory=$T/run/files
write_lat_log=$T/logs/lat
EOF
(cd "$T/run" && "$BB" run log.fio) > "$T/log.out" 2>&1
check "a log in a folder the job names is written ($(ls "$T/logs" | tr '\n' ' '))" [ -e "$T/logs/lat_lat.1.log" ]

# --- issue 44: fio gets /dev/null as stdin and no other descriptor of
# bootbench's caller: a disk on bootbench's stdin, or left open as fd 5, is
# not fio's to write through /proc/self/fd/N (filename_format: a name
# bootbench passes on to fio as it is)
loopdev sdev "$T/stdin.img" 16M
dd if=/dev/urandom of="$sdev" bs=1M count=16 oflag=direct status=none
s_before=$(sha256sum < "$T/stdin.img")
for fd in 0 5; do
	cat > "$T/run/fd$fd.fio" <<EOF
[fd$fd]
rw=write
bs=64k
size=1m
filename_format=/proc/self/fd/$fd
EOF
done
(cd "$T/run" && "$BB" run --engine-of-record=fio fd0.fio) < "$sdev" > "$T/fd0.out" 2>&1
check "a job writing /proc/self/fd/0, a disk not consented on bootbench's stdin: the disk is as it was" \
	[ "$(sha256sum < "$T/stdin.img")" = "$s_before" ]
(cd "$T/run" && "$BB" run --engine-of-record=fio fd5.fio) 5<> "$sdev" < /dev/null > "$T/fd5.out" 2>&1
check "a job writing /proc/self/fd/5, the disk left open as fd 5: the disk is as it was" \
	[ "$(sha256sum < "$T/stdin.img")" = "$s_before" ]
check "... fio could not open it ($(grep -m1 'err=' "$T/fd5.out"))" \
	grep -q 'fio: pid=.*err=.*file:filesetup.c' "$T/fd5.out"
# fio's descriptors while it runs: stdin /dev/null, stdout and stderr bootbench's, nothing of the caller's
cat > "$T/run/slow.fio" <<EOF
[slow]
ioengine=null
size=1m
time_based
runtime=3
EOF
echo "left open" > "$T/open-file"
(cd "$T/run" && exec "$BB" run --engine-of-record=fio slow.fio) < "$sdev" 7< "$T/open-file" > "$T/slow.out" 2> "$T/slow.err" &
slow=$!
descendants() { for _c in $(pgrep -P "$1"); do echo "$_c"; descendants "$_c"; done; }
# the run's fio and its job's process, both (a first fio, --parse-only, runs alone and briefly)
fios=""
i=0
while [ "$(echo $fios | wc -w)" -lt 2 ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
	fios=""
	for p in $(descendants $slow); do
		# by name: the sandbox's mount namespace may show its exe under another path (a chroot's reader sees it so)
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = fio ] && fios="$fios $p"
	done
done
: > "$T/fio-fds"
for p in $fios; do ls -l "/proc/$p/fd" 2>/dev/null | awk -v p="$p" 'NR > 1 { print p ": " $9, $10, $11 }' >> "$T/fio-fds"; done
wait $slow
sed 's/^/    /' "$T/fio-fds"
listed=$(cut -d: -f1 "$T/fio-fds" | sort -u | wc -l)
check "fio and its job's process, listed while they ran ($listed)" [ "$listed" -ge 2 ]
check "... every fio's stdin is /dev/null" sh -c "[ \$(grep -c ': 0 -> /dev/null\$' '$T/fio-fds') = $listed ]"
check "... its stderr a pipe bootbench reads, not bootbench's own" sh -c "! grep -q ': 2 -> $T/slow.err' '$T/fio-fds' && grep -q ': 2 -> pipe:' '$T/fio-fds'"
check "... no descriptor of the disk or of the file bootbench's caller left open" \
	sh -c "! grep -qE ' -> ($sdev|$T/open-file)\$' '$T/fio-fds'"
check "... what fio says still reaches bootbench's stdout and stderr" sh -c "grep -q 'fio runs this job' '$T/slow.err' && grep -q 'Run status group 0' '$T/slow.out'"
finish
