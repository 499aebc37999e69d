# SPDX-License-Identifier: MIT
# raid.sh - bootbench raid on loop devices: every bad input exits 2 with one
# line naming what is wrong and leaves the disks byte for byte as they were;
# a mounted disk is refused even with consent; a real run (scaled down) gives
# the baseline row per test, and every level is either measured or failed
# with mdadm's message (hosts without the md driver), with no array and no
# superblock left behind. The levels themselves are measured in QEMU
# (tests/boot/raid_compare.sh), where the image's kernel has md.
. tests/lib.sh
need_commands mdadm
export BOOTBENCH_PROFILES=$PWD/rootfs/usr/share/bootbench/profiles BOOTBENCH_SCALE=0.02
cd "$T" || exit 1
loopdev a "$T/a.img" 48M
loopdev b "$T/b.img" 48M
loopdev c "$T/c.img" 48M
for f in a b c; do head -c 48M /dev/urandom > "$T/$f.img"; done
# a CRC each, not a SHA-256 (issue 49: 31 sums of 144 MiB were most of the test's cost): what
# it must catch is any write, not a forgery
sums() { cksum "$T/a.img" "$T/b.img" "$T/c.img" | cut -d' ' -f1,2 | tr '\n' ' '; }
before=$(sums)

# refused ARGS... / EXPECTED: exit 2, one line on stderr matching EXPECTED, disks unchanged
refused() { # description pattern args...
	d=$1 pat=$2; shift 2
	"$BB" raid "$@" > out.txt 2> err.txt
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q -- "$pat" err.txt && [ "$(sums)" = "$before" ]; then
		ok "$d"
	else
		bad "$d (exit $rc: $(cat err.txt))"
	fi
}
refused "no disks" "name the disks" --destroy="$a"
refused "a disk not named in --destroy" "refusing to write $b.*--destroy=$b" --destroy="$a" "$a" "$b"
refused "raid5 on two disks, asked for" "raid5 needs at least 3 disks, 2 given" --levels=0,5 --destroy="$a,$b" "$a" "$b"
refused "one disk is no array" "at least 2 disks" --destroy="$a" "$a"
refused "a disk named twice" "named twice" --destroy="$a,$b" "$a" "$a"
refused "a file is not a disk" "not a whole disk" --destroy="$T/a.img,$a" "$T/a.img" "$a"
refused "an unknown level" "no RAID level 'raid7'" --levels=raid7 --destroy="$a,$b" "$a" "$b"
refused "raid6 on three disks" "raid6 needs at least 4 disks, 3 given" --levels=6 --destroy="$a,$b,$c" "$a" "$b" "$c"
refused "a level named twice" "raid10-n2 is named twice" --levels=10,raid10-n2 --destroy="$a,$b" "$a" "$b"
refused "a partition larger than the disks" "do not fit" --partition=1g --destroy="$a,$b" "$a" "$b"
refused "an unknown filesystem" "expected ext4 or xfs" --fs=btrfs --destroy="$a,$b" "$a" "$b"
refused "a chunk that is not a power of two" "power of two" --chunk=48k --destroy="$a,$b" "$a" "$b"
refused "an unknown profile" "no profile 'nosuch'" --profile=nosuch --destroy="$a,$b" "$a" "$b"
refused "an unknown option" "unknown option '--fast'" --fast --destroy="$a,$b" "$a" "$b"
# ZFS (issue 18): checked before ZFS is loaded, so the host needs none
refused "an unknown ZFS topology" "no ZFS topology 'raidz4'" --zfs=mirror,raidz4 --destroy="$a,$b" "$a" "$b"
refused "a topology named twice" "mirror is named twice" --zfs=mirror,mirror --destroy="$a,$b" "$a" "$b"
refused "raidz3 over three disks" "--zfs=raidz3 over 3 disks: raidz3 needs at least 4 disks (--zfs-width=N" \
	--zfs=raidz3 --destroy="$a,$b,$c" "$a" "$b" "$c"
refused "a mirror of three disks" "mirror vdevs of two need an even number" --zfs=mirror --destroy="$a,$b,$c" "$a" "$b" "$c"
refused "a width wider than the disks" "--zfs-width=4: only 3 disks given" --zfs=raidz1 --zfs-width=2,4 \
	--destroy="$a,$b,$c" "$a" "$b" "$c"
refused "a width that is no number" "expected disk counts" --zfs=stripe --zfs-width=2,x --destroy="$a,$b" "$a" "$b"
refused "--zfs-width without --zfs" "needs --zfs" --zfs-width=2 --destroy="$a,$b" "$a" "$b"
refused "an ashift out of range" "expected 9 (512-byte sectors) to 16" --zfs=stripe --ashift=17 --destroy="$a,$b" "$a" "$b"
refused "a recordsize not a power of two" "power of two from 4K to 1M" --zfs=stripe --recordsize=96k --destroy="$a,$b" "$a" "$b"
refused "an ARC cap under ZFS's least" "64M or more" --zfs=stripe --arc-max=16M --destroy="$a,$b" "$a" "$b"
if ! command -v zpool >/dev/null 2>&1; then
	refused "ZFS asked for where zpool is missing" "zpool is not installed" --zfs=stripe --destroy="$a,$b" "$a" "$b"
	# in the image, the registry of the packs names the one that has zpool
	echo "zpool zfs zfs.img" > "$T/packs"
	export BOOTBENCH_PACKS="$T/packs"
	refused "... in an image booted without the ZFS pack: named" \
		"raid: --zfs: zpool is not here: it is in the zfs pack (zfs.img), which this boot did not load" \
		--zfs=stripe --destroy="$a,$b" "$a" "$b"
	unset BOOTBENCH_PACKS
fi
# issue 14 A.5: the cleanup stopped arrays and zeroed superblocks with no --destroy at all
refused "--cleanup needs consent too" "refusing to clean up $a: name it in --destroy" --cleanup "$a"

mkdir -p mnt
mkfs.ext4 -q -F "$c" >/dev/null 2>&1
if mount -o ro,noload "$c" mnt 2>/dev/null; then
	sync
	before=$(sums)
	refused "a mounted disk is refused even with consent" "refusing to write $c: mounted" --destroy="$a,$c" "$a" "$c"
	umount mnt
else
	bad "the ext4 loop device mounts"
fi

# as the menu runs it (issue 48): its box's 73 columns in $COLUMNS, the output a file
COLUMNS=73 "$BB" raid --levels=0,1 --destroy="$a,$b" --output="$T" "$a" "$b" > out.txt 2> err.txt
rc=$?
check "at 73 columns every line of the output fits" sh -c "[ -z \"\$(awk 'length > 73' out.txt)\" ]" ||
	awk 'length > 73' out.txt
check "... a line folded under its own item, indented (the members, each failure)" sh -c "
	grep -A1 '^members: ' out.txt | tail -n 1 | grep -q '^         [a-z]' || grep -q '^members: .*;\$' out.txt"
check "raid.txt keeps each of them a line" \
	grep -q '^members: whole disks, [0-9.]*MiB each; tests on the raw device;$' raid.txt
check "the table has a baseline row for each test" sh -c "[ \$(grep -c ' 1 disk .* 1.00x ' out.txt) = 4 ]"
# Without the md driver (this host's kernel has no modules) mdadm cannot make an
# array: then each level must fail with mdadm's own message and the run exit 1.
# The levels are measured where md exists: here when it does, and always in
# QEMU (tests/boot/raid_compare.sh, raid_zfs.sh).
if [ -e /proc/mdstat ]; then
	check "md present: the run ends with 0" [ $rc = 0 ]
	for l in raid0 raid1; do
		check "md present: $l has a row per test" sh -c "[ \$(grep -c '^  *$l  *[0-9]' out.txt) = 4 ]"
	done
else
	echo "note: no md driver on this host: levels are measured in the QEMU boot tests"
	check "no md driver: the run ends with 1" [ $rc = 1 ]
	for l in raid0 raid1; do
		check "no md driver: $l failed with mdadm's message" grep -q "bootbench-$l: mdadm --create failed" err.txt
		check "... its failure folded under its name at 73 columns" sh -c "
			grep -q '^$l failed: ' out.txt && grep -A1 '^$l failed: ' out.txt | tail -n 1 | grep -q '^              [^ ]' &&
			[ \$(grep -c '^$l failed: .*mdadm --create failed' raid.txt) = 1 ]"
	done
fi
check "raid.json names both disks with their baselines" json raid.json \
	'[x["disk"] for x in d["disks"]] == ["'"$a"'", "'"$b"'"] and all(len(x["baseline"]) == 4 for x in d["disks"])'
check "raid.json: the exit status matches" json raid.json "d['exit_status'] == $rc"
check "raid.txt is the table" grep -q '^mdraid-seqread-1m  *read  1 disk' raid.txt
for dev in "$a" "$b"; do
	check "no md superblock on $dev" sh -c "mdadm --examine '$dev' 2>&1 | grep -q 'No md superblock detected'"
	check "nothing holds $dev" sh -c "[ -z \"\$(ls /sys/class/block/$(basename "$dev")/holders)\" ]"
done
check "no array of ours is running" sh -c "! grep -q bootbench /proc/mdstat 2>/dev/null"
finish
