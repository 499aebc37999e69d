# SPDX-License-Identifier: MIT
# bootbench parity: a JSON report with every implementation this CPU runs
# (scalar always), on one core and on all cores, with figures above zero;
# the kernel's lines are a string (empty where it logged none). Bad input
# exits 2. The verdict for three loop devices: their write bandwidth is
# measured (with consent only) against one core's parity throughput. Correctness of the parity itself is tests/unit/test_parity.c.
. tests/lib.sh
"$BB" parity --json --disks=3 > "$T/p.json"
check "parity --json exits 0" [ $? = 0 ]
check "3 data disks, scalar measured" json "$T/p.json" \
	'd["data_disks"] == 3 and any(x["impl"] == "scalar" for x in d["one_core"])'
check "every figure is above zero" json "$T/p.json" \
	'all(x["raid5_mbs"] > 0 and x["raid6_mbs"] > 0 for x in d["one_core"]) and d["all_cores"]["raid6_mbs"] > 0'
check "all cores counts the CPUs" json "$T/p.json" "d['all_cores']['cores'] == $(nproc)"
check "the kernel's lines are reported as text" json "$T/p.json" 'isinstance(d["kernel_log"], str)'
"$BB" parity > "$T/p.txt"
check "the table names the implementation in use" grep -q '<- used' "$T/p.txt"
"$BB" parity --disks=1 2> "$T/err"
check "--disks=1: exit 2, named" sh -c "[ $? = 2 ] && grep -q 'disks=1' '$T/err'"
"$BB" parity --fast 2> "$T/err"
check "an unknown argument: exit 2" [ $? = 2 ]

# The verdict for a disk set: their write bandwidth is measured, so consent first.
loopdev a "$T/a.img" 64M
loopdev b "$T/b.img" 64M
loopdev c "$T/c.img" 64M
head -c 64M /dev/urandom > "$T/a.img"
sum=$(sha256sum "$T/a.img")
"$BB" parity "$a" "$b" "$c" 2> "$T/err"
rc=$?
check "disks without --destroy: exit 2, the disk named, nothing written" sh -c \
	"[ $rc = 2 ] && grep -q 'refusing to write $a' '$T/err' && [ \"\$(sha256sum '$T/a.img')\" = '$sum' ]"
"$BB" parity --destroy="$a" "$a" 2> "$T/err"
check "one disk is no RAID5: exit 2" sh -c "[ $? = 2 ] && grep -q '2 to 32 disks' '$T/err'"
BOOTBENCH_SCALE=0.1 "$BB" parity --json --destroy="$a,$b,$c" "$a" "$b" "$c" > "$T/v.json"
check "the verdict run exits 0" [ $? = 0 ]
check "the disks' aggregate write bandwidth is measured" json "$T/v.json" 'd["disks_write_mbs"] > 0'
check "a RAID5 verdict for 3 disks (2 data), none for RAID6" json "$T/v.json" \
	'[v["level"] for v in d["verdict"]] == ["raid5"] and d["verdict"][0]["data_disks"] == 2'
check "the verdict compares the disks with one core's parity" json "$T/v.json" \
	'abs(d["verdict"][0]["cpu_limit_vs_disks"] - d["verdict"][0]["parity_one_core_mbs"] / d["verdict"][0]["disks_data_mbs"]) < 1e-3 and
	 d["verdict"][0]["cpu_bound"] == (d["verdict"][0]["parity_one_core_mbs"] < d["verdict"][0]["disks_data_mbs"])'
check "the disks were written" [ "$(sha256sum "$T/a.img")" != "$sum" ]
finish
