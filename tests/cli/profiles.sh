# SPDX-License-Identifier: MIT
# Every profile parses and runs, scaled down (BOOTBENCH_SCALE=0.02), on a
# loop device with consent, and its summary table has the rows the method
# defines; then the consent rules one by one, each refused case leaving the
# disk's checksum unchanged.
. tests/lib.sh
export BOOTBENCH_PROFILES=$PWD/rootfs/usr/share/bootbench/profiles BOOTBENCH_SCALE=0.02
loopdev dev "$T/disk.img" 1G
rows() { grep -c "$1" "$T/$2.txt"; }
for p in quick yabs ars mdraid dbcommit; do
	"$BB" profile "$p" --destroy="$dev" --output="$T" "$dev" > "$T/$p.txt" 2> "$T/$p.err"
	rc=$?
	check "$p runs with consent (exit 0)" [ $rc = 0 ]
	[ $rc = 0 ] || sed 's/^/    /' "$T/$p.err"
	check "$p names the device it ran on" grep -q "^== $p on $dev" "$T/$p.txt"
	check "$p saved fio's JSON" json "$T/$p-${dev#/dev/}.json" 'len(d["jobs"]) > 0 and all(j["error"] == 0 for j in d["jobs"])'
done
check "quick: 4 tests, the fsync one with its sync latency" \
	sh -c "[ \$(grep -cE '^(randread-4k-qd32|seqread-1m-qd8|randwrite-4k-qd32|write-4k-fsync) ' '$T/quick.txt') = 5 ] && grep -q '^write-4k-fsync  *sync ' '$T/quick.txt'"
check "yabs: YABS's layout for 4k, 64k, 512k, 1m" \
	sh -c "grep -q '^Block Size | 4k ' '$T/yabs.txt' && grep -q '| 1m ' '$T/yabs.txt' && [ \$(grep -c '^Total ' '$T/yabs.txt') = 2 ]"
check "yabs: latency percentiles beside (8 rows)" [ "$(rows '^yabs-' yabs)" = 8 ]
check "ars: 12 tests (2 sizes x 2 process counts x 3 types)" [ "$(rows '^ars-' ars)" = 12 ]
check "mdraid: 4 tests" [ "$(rows '^mdraid-' mdraid)" = 4 ]
BOOTBENCH_SCALE=0.005 "$BB" profile steady --destroy="$dev" "$dev" > "$T/steady.txt" 2>&1
check "steady runs with consent" [ $? = 0 ]
check "steady: precondition, 25 rounds and a verdict" \
	sh -c "grep -q '^steady-precondition ' '$T/steady.txt' && [ \$(grep -c '^round ' '$T/steady.txt') = 25 ] && grep -qE '^Steady state (reached at round|NOT reached)' '$T/steady.txt'"
check "dbcommit: 4 rows (fsync/fdatasync x 1/8 committers) and a verdict" \
	sh -c "[ \$(grep -cE '^(fsync|fdatasync)-[18] ' '$T/dbcommit.txt') = 4 ] && grep -q '^Verdict: fsync ' '$T/dbcommit.txt'"

loopdev small "$T/small.img" 32M
"$BB" profile burnin --destroy="$small" "$small" > "$T/burnin.txt" 2>&1
check "burnin passes on a good device" [ $? = 0 ]
check "burnin: 2 passes of 32 blocks each, none bad, PASS" \
	sh -c "[ \$(grep -cE '^burnin-pass-[12] .* 32 +0  ok\$' '$T/burnin.txt') = 2 ] && grep -q '^PASS' '$T/burnin.txt'"
"$BB" profile burnin --duration=1 --destroy="$small" "$small" > "$T/burnin-d.txt" 2>&1
check "burnin --duration: rounds until the time is up, then PASS" \
	sh -c "grep -q '^-- round 1, ' '$T/burnin-d.txt' && grep -qE '^[0-9]+ round\(s\) in [0-9]+ s: PASS\$' '$T/burnin-d.txt'"
"$BB" profile burnin --duration=soon "$small" 2> "$T/err"
check "a bad --duration: exit 2, named" sh -c "[ $? = 2 ] && grep -q 'duration=soon' '$T/err'"

# Consent, one rule at a time; the disk must not change when refused.
head -c 1M /dev/urandom | dd of="$dev" bs=1M conv=notrunc,fsync status=none
before=$(dd if="$dev" bs=1M count=64 status=none | sha256sum)
unchanged() { [ "$(dd if="$dev" bs=1M count=64 status=none | sha256sum)" = "$before" ]; }
"$BB" profile quick "$dev" > /dev/null 2> "$T/err"
check "without consent: exit 2" [ $? = 2 ]
check "without consent: the message names the device and --destroy" grep -q "refusing to write $dev.*--destroy" "$T/err"
check "without consent: the disk is unchanged" unchanged
printf 'boot %s\nresults %s\n' "$dev" "$dev" > "$T/media"
BOOTBENCH_MEDIA_FILE="$T/media" "$BB" profile quick --destroy="$dev" "$dev" > /dev/null 2> "$T/err"
check "the boot/results medium: refused even with consent" grep -q "it is the boot medium" "$T/err"
check "the boot/results medium: the disk is unchanged" unchanged
mkfs.ext4 -q -F -E lazy_itable_init=0 "$dev" 2>/dev/null
before=$(dd if="$dev" bs=1M count=64 status=none | sha256sum)
mkdir -p "$T/mnt"
if mount -o ro "$dev" "$T/mnt" 2>/dev/null; then
	"$BB" profile quick --destroy="$dev" "$dev" > /dev/null 2> "$T/err"
	check "a mounted disk: refused even with consent" grep -q "in use (.*mounted on" "$T/err"
	umount "$T/mnt"
	check "a mounted disk: unchanged" unchanged
else
	bad "the ext4 loop device mounts (needed to check the mounted-disk refusal)"
fi
if mkswap "$small" >/dev/null 2>&1 && swapon "$small" 2>/dev/null; then
	# the kernel itself may swap out to it at any time (a memory cgroup), so
	# "unchanged" is the device's own count of sectors written around our call
	stat=/sys/block/$(basename "$small")/stat
	before_swap=$(awk '{ print $7 }' "$stat")
	"$BB" profile quick --destroy="$small" "$small" > /dev/null 2> "$T/err"
	rc=$?
	after_swap=$(awk '{ print $7 }' "$stat")
	swapoff "$small"
	check "a swap device: refused even with consent, and said so" sh -c "[ $rc = 2 ] && grep -q 'used as swap' '$T/err'"
	check "a swap device: no sector written during the refusal" [ "$after_swap" = "$before_swap" ]
else
	bad "swap on the loop device (needed to check the swap refusal)"
fi
"$BB" profile nosuch "$dev" 2> "$T/err"
check "an unknown profile: exit 2, named" sh -c "[ $? = 2 ] && grep -q \"no profile 'nosuch'\" '$T/err'"
"$BB" profile quick 2> "$T/err"
check "no target: exit 2" [ $? = 2 ]
"$BB" profile quick --destroy="$dev" "$dev" /dev/bootbench-nonexistent > "$T/out" 2> "$T/err"
check "a missing second target: exit 2 before anything runs" sh -c "[ $? = 2 ] && [ ! -s '$T/out' ]"
check "a missing second target: the disk is unchanged" unchanged
# issue 14 A.3: consent for the first target only wrote the first, then refused the second
"$BB" profile quick --destroy="$dev" "$dev" "$small" > "$T/out" 2> "$T/err"
check "consent for the first of two targets: exit 2" [ $? = 2 ]
check "... naming the second in one line" sh -c "[ \$(wc -l < '$T/err') = 1 ] && grep -q 'refusing to write $small' '$T/err'"
check "... before anything ran: the first disk is unchanged" unchanged

# The binary carries its profiles (issue 14 D): the same job file without BOOTBENCH_PROFILES.
for p in quick yabs ars mdraid dbcommit burnin steady; do
	env -u BOOTBENCH_PROFILES "$BB" profile --show "$p" | tail -n +2 > "$T/show.fio"
	check "profile --show $p prints the built-in job file" cmp -s "$T/show.fio" "$BOOTBENCH_PROFILES/$p.fio"
done
env -u BOOTBENCH_PROFILES "$BB" profile --show nosuch > /dev/null 2> "$T/err"
check "profile --show of an unknown profile: exit 2" [ $? = 2 ]
mkdir -p "$T/own" && sed 's/^bs=4k/bs=8k/' "$BOOTBENCH_PROFILES/quick.fio" > "$T/own/quick.fio"
BOOTBENCH_PROFILES="$T/own" "$BB" profile --show quick > "$T/show.fio"
check "BOOTBENCH_PROFILES overrides the built-in job file" grep -q '^bs=8k' "$T/show.fio"
finish
