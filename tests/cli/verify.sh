# SPDX-License-Identifier: MIT
# verify=crc32c: what is written comes back intact (0 bad blocks); a block
# corrupted, and a block zeroed (a lost write), between writing and a later
# verify_only run are each named with their LBA and offset, the job fails
# (exit 1) and the JSON counts them. Bad combinations exit 2. verify_backlog
# reads back while writing, and a block zeroed meanwhile fails the job then.
. tests/lib.sh
f=$T/v.img
run() { "$BB" run --name=v --filename="$f" --bs=1m --size=16m --verify=crc32c "$@"; }
run --rw=randwrite --output-format=json > "$T/w.json"
check "write + read-back: exit 0" [ $? = 0 ]
check "write + read-back: 16 blocks, none bad" json "$T/w.json" \
	'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 16, "bad": 0}'
run --rw=randwrite --verify_only=1 --output-format=json > "$T/v.json" 2> "$T/err"
check "verify_only on intact data: exit 0" [ $? = 0 ]
printf 'XXXX' | dd of="$f" bs=1 seek=$((3 * 1048576 + 100)) conv=notrunc status=none
dd if=/dev/zero of="$f" bs=1M seek=7 count=1 conv=notrunc status=none
run --rw=randwrite --verify_only=1 --output-format=json > "$T/v.json" 2> "$T/err"
check "corruption found: exit 1" [ $? = 1 ]
check "the corrupted block is named with offset and CRC" grep -q 'LBA 6144-8191 (offset 3145728, 1048576 bytes): CRC-32C mismatch' "$T/err"
check "the zeroed block is named as never written" grep -q 'LBA 14336-16383 (offset 7340032, 1048576 bytes): no verify header' "$T/err"
check "the JSON counts 2 bad of 16" json "$T/v.json" 'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 16, "bad": 2} and d["jobs"][0]["error"] != 0'
mkdir -p "$T/dump"
(cd "$T/dump" && run --rw=randwrite --verify_only=1 --verify_dump=1) > /dev/null 2> "$T/err"
# (the dumps only: a sanitizer's run may leave its own files in the working folder)
dumps=$(cd "$T/dump" && ls -- *.received 2>/dev/null | tr '\n' ' ')
check "verify_dump: the two bad blocks as read, named as fio names them ($dumps)" \
	[ "$dumps" = "v.img.3145728.received v.img.7340032.received " ]
check "... the corrupted one holds what was read (XXXX at byte 100)" \
	[ "$(dd if="$T/dump/v.img.3145728.received" bs=1 skip=100 count=4 status=none)" = XXXX ]
run --rw=randwrite --randseed=99 --verify_only=1 > /dev/null 2> "$T/err"
check "another seed's data reads as stale" grep -q 'header of another run or pass' "$T/err"
# what bootbench's verify cannot check truly it refuses; fio's verify does those (issue 35)
run --rw=randread --engine-of-record=bootbench > /dev/null 2> "$T/err"
check "verify on a read job: bootbench refuses it (exit $?)" grep -q 'verify needs rw=write or randwrite' "$T/err"
check "... and the image's fio runs it instead" sh -c "'$BB' run --name=v --filename='$f' --bs=1m --size=16m \
	--verify=crc32c --rw=randread --parse-only | grep -q '^fio runs it: .*verify needs rw=write'"
run --rw=write --time_based --runtime=1 --engine-of-record=bootbench > /dev/null 2> "$T/err"
check "verify with time_based: bootbench refuses it (exit $?)" [ $? = 2 ]
"$BB" run --name=v --filename="$f" --rw=write --size=1m --verify_only=1 > /dev/null 2> "$T/err"
check "verify_only without verify: exit 2" [ $? = 2 ]

# No false verdicts (issue 14 A.1): each case either verifies truly or is refused up front.
# Before the fix, two clones on one file exited 1 with "a lost (stale) write" at many LBAs.
g=$T/shared.img
rm -f "$g"
"$BB" run --name=v --filename="$g" --rw=randwrite --bs=4k --size=32M --numjobs=2 --iodepth=8 \
	--verify=crc32c > /dev/null 2> "$T/err"
check "two clones verifying one file: exit 2" [ $? = 2 ]
check "... saying why, in one line" [ "$(grep -c 'written by another clone' "$T/err")" = 1 ]
check "... and nothing written" [ ! -e "$g" ]
"$BB" run --name=v --directory="$T" --rw=randwrite --bs=4k --size=8M --numjobs=2 --iodepth=8 \
	--verify=crc32c --output-format=json > "$T/own.json"
check "two clones with a file each: exit 0" [ $? = 0 ]
check "... 2048 blocks each, none bad" json "$T/own.json" \
	'[j["verify"] for j in d["bootbench"]["jobs"]] == [{"blocks": 2048, "bad": 0}] * 2'
# runtime ends the writes in the first pass, and later in a pass after whole ones
for rw in randwrite write; do
	rm -f "$g"
	"$BB" run --name=v --filename="$g" --rw=$rw --bs=4k --size=512M --iodepth=8 --verify=crc32c \
		--runtime=0.2 --output-format=json > "$T/rt.json" 2> "$T/err"
	check "$rw cut by runtime in pass 1: exit 0" [ $? = 0 ]
	check "... checked only the blocks written, none bad" json "$T/rt.json" \
		'0 < d["bootbench"]["jobs"][0]["verify"]["blocks"] < 131072 and d["bootbench"]["jobs"][0]["verify"]["bad"] == 0'
	rm -f "$g"
	"$BB" run --name=v --filename="$g" --rw=$rw --bs=4k --size=4M --iodepth=8 --verify=crc32c \
		--runtime=0.3 --loops=100000 --output-format=json > "$T/rt.json" 2> "$T/err"
	check "$rw cut by runtime after whole passes: exit 0" [ $? = 0 ]
	check "... every block checked against its own pass, none bad" json "$T/rt.json" \
		'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 1024, "bad": 0}'
done
"$BB" run --name=v --filename="$g" --rw=randwrite --bs=4k --size=8M --verify=crc32c \
	--random_distribution=zipf:1.2 --engine-of-record=bootbench > /dev/null 2> "$T/err"
check "verify with zipf: bootbench refuses it (blocks written twice or never)" [ $? = 2 ]
"$BB" run --name=v --filename="$g" --rw=randwrite --bs=4k --size=4M --verify=crc32c > /dev/null
"$BB" run --name=v --filename="$g" --rw=randwrite --bs=4k --size=4M --verify=crc32c --verify_only \
	--randrepeat=0 > /dev/null 2> "$T/err"
check "verify_only with randrepeat=0: exit 2 (the seed is the writer's)" [ $? = 2 ]
"$BB" run --name=v --filename="$g" --rw=randwrite --bs=4k --size=4M --verify=crc32c --verify_only \
	--randrepeat=0 --randseed=7 > /dev/null 2> "$T/err"
check "... with the writer's randseed given it runs (and names the stale seed)" grep -q 'another run or pass' "$T/err"
# verify_interval: a header per 512 bytes names the exact bad sectors of a
# 1 MiB block: one byte flipped, and two sectors zeroed as a lost write would
rm -f "$g"
"$BB" run --name=v --filename="$g" --rw=write --bs=1m --size=8M --verify=crc32c --verify_interval=512 \
	--do_verify=0 > /dev/null
printf 'X' | dd of="$g" bs=1 seek=$((3 * 1048576 + 5000)) conv=notrunc status=none
dd if=/dev/zero of="$g" bs=512 seek=$((5 * 2048 + 3)) count=2 conv=notrunc status=none
"$BB" run --name=v --filename="$g" --rw=write --bs=1m --size=8M --verify=crc32c --verify_interval=512 \
	--verify_only --output-format=json > "$T/vi.json" 2> "$T/err"
check "verify_interval=512: a corrupted byte and two lost sectors: exit 1" [ $? = 1 ]
check "... the byte named by its sector, LBA 6153" grep -q "verify: $g LBA 6153 (offset 3150336): CRC-32C mismatch" "$T/err"
check "... the lost sectors as LBA 10243-10244" \
	grep -q "verify: $g LBA 10243-10244 (offset 5244416, 1024 bytes): no verify header" "$T/err"
check "... and nothing else" [ "$(grep -c " LBA " "$T/err")" = 3 ]
check "... 2 of 8 blocks bad in the JSON" json "$T/vi.json" 'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 8, "bad": 2}'
"$BB" run --name=v --filename="$g" --rw=write --bs=1m --size=8M --verify=crc32c --verify_interval=768 \
	> /dev/null 2> "$T/err"
check "verify_interval=768 (not a multiple of 512): exit 2" [ $? = 2 ]

# verify_backlog: the blocks read back while the job writes; one zeroed meanwhile ends the job then
h=$T/vb.img
"$BB" run --name=vb --filename="$h" --rw=randwrite --bs=4k --size=4m --verify=crc32c --verify_backlog=16 \
	--output-format=json > "$T/vb.json"
check "verify_backlog=16: every block read back twice, while writing and at the end (exit $?)" \
	json "$T/vb.json" 'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 2048, "bad": 0}'
"$BB" run --name=vb --filename="$h" --rw=randwrite --bs=4k --size=4m --verify=crc32c --verify_backlog=16 \
	--verify_backlog_batch=4 --output-format=json > "$T/vb.json"
check "verify_backlog_batch=4: 4 of each 16 read back while writing (exit $?)" \
	json "$T/vb.json" 'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 1280, "bad": 0}'
# 200 writes a second: 5 s for the 1024 blocks; the file zeroed half a second
# after the first blocks are on it (not at a fixed 1.5 s: under ASan on a
# loaded host the job began writing after that, and wrote over the zeroes),
# and again every 10 ms for a quarter second: one zeroing can land just after
# a read-back, when no block waits for the next (80 ms later), and the job
# rightly finds the loss only at its end (CI, 2026-12-06)
rm -f "$h"
"$BB" run --name=vb --filename="$h" --rw=randwrite --bs=4k --size=4m --verify=crc32c --verify_backlog=16 \
	--rate_iops=200 --output-format=json > "$T/vb.json" 2> "$T/err" &
pid=$!
i=0
until [ -s "$h" ] && ! cmp -s -n 4194304 "$h" /dev/zero || [ $i -ge 200 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
	dd if=/dev/zero of="$h" bs=1M count=4 conv=notrunc status=none
	sleep 0.01
done
wait $pid
check "a block zeroed while the job writes: the backlog's read-back fails the job (exit $?)" \
	grep -q 'verify (verify_backlog): .* bad; first at LBA [0-9]*: .*no verify header' "$T/err"
check "... then, not at its end ($(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['job_runtime'])" "$T/vb.json") ms of 5000)" \
	json "$T/vb.json" 'd["jobs"][0]["job_runtime"] < 4000 and d["jobs"][0]["error"] != 0'
finish
