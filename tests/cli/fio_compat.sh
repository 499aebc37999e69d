# SPDX-License-Identifier: MIT
# fio_compat.sh - Debian's fio and bootbench run the same job files on the
# same target: the JSON key sets must match (ours adds only "bootbench"),
# IOPS must agree within a wide band (x8 either way, on the 2 s time-based
# job: this is not a benchmark),
# and fio's own fio_jsonplus_clat2csv must read and validate our json+.
. tests/lib.sh
command -v fio >/dev/null || skip "fio is not installed"
compare=$PWD/tests/fio_json_compare.py
cd "$T" || exit 1
dir=/dev/shm/bbtest.$$
mkdir -p "$dir" && trap 'rm -rf "$dir"; cleanup' EXIT

cat > mixed.fio <<JOB
[global]
directory=$dir
size=8m
iodepth=8
group_reporting=1

[randrw]
rw=randrw
rwmixread=70
bs=4k
numjobs=2

[seqread]
stonewall
rw=read
bs=128k
ioengine=psync

[fsync]
stonewall
rw=write
bs=4k
size=512k
fsync=4
JOB
cat > direct.fio <<JOB
[global]
filename=$dir/direct.dat
size=16m
direct=1
ioengine=io_uring
runtime=2
time_based

[qd32]
rw=randread
iodepth=32
# fio submits one I/O per call unless told (bootbench batches by default):
# the same batching on both sides compares the same work
iodepth_batch_submit=32
# and bootbench registers its buffers and files by default, fio not: the
# same here too
fixedbufs=1
registerfiles=1
JOB
# tmpfs refuses O_DIRECT: use a loop device over it for the direct job
if [ "$(id -u)" = 0 ] && truncate -s 16M "$dir/backing" && dev=$(losetup -f --show --direct-io=on "$dir/backing" 2>/dev/null); then
	LOOPS="$LOOPS $dev"
	sed -i "s|filename=.*|filename=$dev|" direct.fio
	jobs="mixed direct"
else
	jobs="mixed"
	echo "note: no loop device over tmpfs (needs root): the IOPS band is not compared"
fi

for j in $jobs; do
	fio --output-format=json+ --output=fio-$j.json $j.fio >/dev/null 2>fio-$j.err
	check "fio runs $j.fio" [ $? = 0 ]
	rm -f "$dir"/randrw.* "$dir"/seqread.* "$dir"/fsync.*
	[ $j = direct ] && before=$(awk '{ print $1 }' "/sys/class/block/${dev#/dev/}/stat")
	"$BB" run --output-format=json+ --output=bb-$j.json $j.fio 2>bb-$j.err
	check "bootbench runs $j.fio" [ $? = 0 ]
	if [ $j = direct ]; then
		# the device's own count of reads it completed: the I/Os were real
		done_ios=$(( $(awk '{ print $1 }' "/sys/class/block/${dev#/dev/}/stat") - before ))
		check "direct: the loop device completed the reads bootbench counts ($done_ios)" \
			json bb-$j.json "0.95 * d['jobs'][0]['read']['total_ios'] <= $done_ios <= 1.05 * d['jobs'][0]['read']['total_ios'] + 64"
	fi
	rm -f "$dir"/randrw.* "$dir"/seqread.* "$dir"/fsync.*
	python3 "$compare" fio-$j.json bb-$j.json $([ $j = direct ] && echo --timed)
	check "$j: same JSON keys, job options and sync counts; IOPS within x8" [ $? = 0 ]
	if command -v fio_jsonplus_clat2csv >/dev/null; then
		fio_jsonplus_clat2csv bb-$j.json csv-$j.csv >clat2csv.out 2>&1 &&
			fio_jsonplus_clat2csv --validate bb-$j.json csv-$j.csv >>clat2csv.out 2>&1
		rc=$?
		check "fio_jsonplus_clat2csv validates our $j json+" eval '[ $rc = 0 ] && [ -s csv-${j}_job0.csv ]'
		[ $failures = 0 ] || cat clat2csv.out
	fi
done
finish
