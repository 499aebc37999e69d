# SPDX-License-Identifier: MIT
# bootbench parity: a JSON report with every implementation this CPU runs
# (scalar always), on one core and on all cores, with figures above zero;
# the kernel's lines are a string (empty where it logged none). Bad input
# exits 2. Correctness of the parity itself is tests/unit/test_parity.c.
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
finish
