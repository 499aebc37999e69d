# SPDX-License-Identifier: MIT
# io_error.sh - a short read or an I/O error is reported with its offset and
# errno, the job ends, the results so far are still printed, exit status 1.
# Short reads: the file is truncated under a running job. I/O errors: a
# device-mapper table whose second half is an "error" target (checked where
# device-mapper exists).
. tests/lib.sh
cd "$T" || exit 1

for e in io_uring psync; do
	head -c 64M /dev/zero > short.dat
	"$BB" run --name=s --filename=short.dat --rw=read --bs=64k --ioengine=$e --time_based --runtime=20 \
		--output-format=json --output=s.json 2>err.txt &
	pid=$!
	sleep 1
	truncate -s 1M short.dat
	wait $pid
	rc=$?
	check "$e: a short read ends the job with exit 1" [ $rc = 1 ]
	check "$e: the short read is named with its offset" grep -qE "short read at offset [0-9]+ on short.dat: 0 of 65536 bytes" err.txt
	check "$e: results still written, error recorded" json s.json "d['jobs'][0]['error']!=0 and d['jobs'][0]['read']['io_bytes']>0"
done

if command -v dmsetup >/dev/null && dmsetup version >/dev/null 2>&1; then
	loopdev dev "$T/disk.img" 8M
	name=bbtest-err-$$
	printf '0 8192 linear %s 0\n8192 8192 error\n' "$dev" | dmsetup create "$name"
	trap 'dmsetup remove "$name" 2>/dev/null; cleanup' EXIT
	for e in io_uring psync; do
		"$BB" run --name=e --filename=/dev/mapper/$name --rw=read --bs=64k --direct=1 --ioengine=$e \
			--output-format=json --output=e.json 2>err.txt
		check "$e: exit status 1 on an I/O error" [ $? = 1 ]
		check "$e: the error names offset and errno" grep -qE "read error at offset 4[0-9]{6} on /dev/mapper/$name: .*errno 5" err.txt
		check "$e: results still written" json e.json "d['jobs'][0]['error']==5 and d['jobs'][0]['read']['io_bytes']>0"
	done
else
	# this host's kernel has no dm-mod (no loadable modules): the case is said to be unchecked
	echo "note: device-mapper unavailable in this kernel: the EIO case is not checked here"
fi
finish
