# SPDX-License-Identifier: MIT
# verify=crc32c: what is written comes back intact (0 bad blocks); a block
# corrupted, and a block zeroed (a lost write), between writing and a later
# verify_only run are each named with their LBA and offset, the job fails
# (exit 1) and the JSON counts them. Bad combinations exit 2.
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
check "the corrupted block is named with offset and CRC" grep -q 'offset 3145728): CRC-32C mismatch' "$T/err"
check "the zeroed block is named as never written" grep -q 'offset 7340032): no verify header' "$T/err"
check "the JSON counts 2 bad of 16" json "$T/v.json" 'd["bootbench"]["jobs"][0]["verify"] == {"blocks": 16, "bad": 2} and d["jobs"][0]["error"] != 0'
run --rw=randwrite --randseed=99 --verify_only=1 > /dev/null 2> "$T/err"
check "another seed's data reads as stale" grep -q 'header of another run or pass' "$T/err"
run --rw=randread > /dev/null 2> "$T/err"
check "verify on a read job: exit 2" [ $? = 2 ]
run --rw=write --time_based --runtime=1 > /dev/null 2> "$T/err"
check "verify with time_based: exit 2" [ $? = 2 ]
"$BB" run --name=v --filename="$f" --rw=write --size=1m --verify_only=1 > /dev/null 2> "$T/err"
check "verify_only without verify: exit 2" [ $? = 2 ]
finish
