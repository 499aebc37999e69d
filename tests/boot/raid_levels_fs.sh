# SPDX-License-Identifier: MIT
# Boot test: the RAID comparison's options the other RAID tests leave out,
# on four virtual disks of 320 MiB (xfs needs 300), scaled down, from the
# shell on the serial console:
#   - raid6 and raid10 offset2, xfs on each array and disk, the ars profile:
#     a row per level for every test of the baseline, "a file on xfs", the
#     RAID6 parity verdict, exit 0;
#   - raid1 with --resync and the yabs profile: the resync waited for and
#     reported, exit 0;
# then no array in the guest and, on the host, no md superblock and no
# filesystem signature on any disk.
. tests/bootlib.sh
need_artifacts
need_commands tmux mdadm
# each test at its least (0.1 s): rows, the verdict and the resync are checked, not figures
stick_with_conf "$T/stick.img" scale=0.002
virtio_disks 4 320M
# one vCPU: the profiles' tests are timed, and a second vCPU under TCG only
# burns host CPU beside the first (37 CPU-s here against 53 with two, in
# no more wall time)
console_boot 160 48 "--fw bios --usb '$T/stick.img' $disks --smp 1"
step "the menu comes up on the serial console" "Esc goes back" 240
keys 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30

# rows: the baseline's "1 disk" rows, then each level's. Each line ends with
# the exit status, so the screen holds the whole line once the step sees it;
# a run that failed shows the end of its log above.
COUNT='B=$(grep -c " 1 disk " $F) R6=$(grep -cE "^ +raid6 +[0-9]" $F) R10=$(grep -cE "^ +raid10-o2 +[0-9]" $F)'
type_line "clear; F=/tmp/x.log; bootbench raid --destroy=/dev/vda,/dev/vdb,/dev/vdc,/dev/vdd --levels=6,10-o2 --fs=xfs --profile=ars /dev/vda /dev/vdb /dev/vdc /dev/vdd > \$F 2>&1; RC=\$?; [ \$RC = 0 ] || tail -n 8 \$F; $COUNT; echo ROWS \$B \$R6 \$R10 XFS=\$(grep -c 'tests on a file on xfs' \$F) VERDICT=\$(grep -c '^raid6 on 4 disks: they take' \$F) RC-XFS=\$RC"
step_result "raid6 and raid10-o2 on xfs with ars: exit 0" RC-XFS "RC-XFS=0" 900
check "the ars tests have a baseline row each, and a raid6 and a raid10-o2 row" \
	shows 'ROWS \([1-9][0-9]*\) \1 \1 '
check "the report says the tests ran on a file on xfs" shows "XFS=1 "
check "the RAID6 parity verdict is given" shows "VERDICT=1"

type_line "clear; F=/tmp/y.log; bootbench raid --destroy=/dev/vda,/dev/vdb --levels=1 --resync --profile=yabs /dev/vda /dev/vdb > \$F 2>&1; RC=\$?; [ \$RC = 0 ] || tail -n 8 \$F; echo WAITED=\$(grep -c '^resync took [0-9.]* s' \$F) SAID=\$(grep -c 'synced before measuring (--resync)' \$F) ASSUME=\$(grep -c assume-clean \$F) ROWS=\$(grep -cE '^ +raid1 +[0-9]' \$F) RC-RESYNC=\$RC"
step_result "raid1 with --resync and yabs: exit 0" RC-RESYNC "RC-RESYNC=0" 600
check "the resync was waited for and said, with no --assume-clean" shows "WAITED=1 SAID=1 ASSUME=0 ROWS=8"

type_line "clear; echo ARRAYS=\$(grep -c '^md' /proc/mdstat)"
step "no array is left in the guest" "ARRAYS=0" 30
type_line "poweroff"
step "the machine powers off" "QEMU-EXITED" 90
for i in 1 2 3 4; do
	check "no md superblock is left on disk $i" sh -c "mdadm --examine '$T/d$i.img' 2>&1 | grep -q 'No md superblock detected'"
	check "no filesystem signature is left on disk $i" sh -c "[ -z \"\$(wipefs -n '$T/d$i.img' 2>/dev/null | grep -v '^DEVICE')\" ]"
done
finish
