# SPDX-License-Identifier: MIT
# Boot test: the menu's Compare RAID levels, then RAID arrays torn down in
# every case, driven on the serial console through tmux, three virtual
# disks, scaled down:
#   - the menu: disks ticked, the default levels, mdraid, consent typed, the
#     gauge, then the table with a row per level and exit status 0; then
#     Parity CPU check with the kernel's figures beside ours;
#   - Ctrl-C during a level: the run says it was interrupted, no array stays;
#   - kill -9 during a level leaves the array running: the next run (head
#     partitions and ext4: raid10-f2, linear) stops it and zeroes its
#     superblocks before it starts, and removes its partition tables;
#   - an array of ours found stopped (as after a reboot), superblocks still on
#     the disks: --cleanup zeroes them.
# Then bootbench parity puts ours beside the kernel's raid6/xor figures. At
# the end the host finds no md superblock on any disk (mdadm --examine).
. tests/bootlib.sh
need_artifacts
need_commands tmux mdadm
# 0.002: each test at its least (0.1 s), for the runs whose rows and
# teardown are checked. The runs a test stops midway (Ctrl-C, kill -9) at
# 0.005: a level's four tests then last about 2 s, and the stop is sent half
# a second after the log says its array is up (0.02 had them wait through a
# baseline four times as long)
stick_with_conf "$T/stick.img" scale=0.002
virtio_disks 3 96M
# one vCPU: the profile's tests are timed, and a second vCPU under TCG only
# burns host CPU beside the first (56 CPU-s here against 73 with two)
console_boot 160 48 "--fw bios --usb '$T/stick.img' $disks --smp 1"
RAID="bootbench raid --destroy=/dev/vda,/dev/vdb,/dev/vdc /dev/vda /dev/vdb /dev/vdc"
STOPPED="BOOTBENCH_SCALE=0.005 $RAID"
# L=LEVEL; $WAIT: until the run's log says the array of LEVEL is up, and
# its tests have begun
WAIT='while ! grep -q "bootbench-$L is /dev/md" /tmp/r.log 2>/dev/null; do sleep 0.1; done; sleep 0.5'
step "the menu comes up on the serial console" "Esc goes back" 240
$TM send-keys -t vm Down Down Down Down Enter
step "Compare RAID levels offers the disks" "Compare RAID levels: disks" 30
$TM send-keys -t vm Space Down Space Down Space Enter
step "the levels are offered, the published four ticked" "Compare RAID levels: levels" 30
check "raid5 is ticked" shows '\[\*\] raid5 '
check "raid6 is not" shows '\[ \] raid6 '
$TM send-keys -t vm Enter
step "the tests are offered" "Which tests on each disk and array?" 30
$TM send-keys -t vm Enter
step "consent asks for the names" "Type the device names" 30
$TM send-keys -t vm "vda vdb vdc" Enter
step "the comparison runs and its table is shown" "Compare RAID levels: results" 400
$TM send-keys -t vm G
# the box is drawn top to bottom over a slow serial line: its last line first
step "the menu's run exited 0" "exit status 0" 30
for l in raid0 raid1 raid5 raid10-n2; do
	check "the table has a $l row" shows "^ *| *$l  *[0-9]"
done
fits "the RAID comparison's results, their end (issue 48)"
$TM send-keys -t vm Enter
step "back in the menu" "Esc goes back" 30
# Parity CPU check: the figures, then No to measuring disks.
$TM send-keys -t vm Down Down Down Down Down Enter
step "Parity CPU check shows the implementation in use" "<- used" 120
$TM send-keys -t vm G
step "and the kernel's figures beside ours" "Ours against the kernel" 30
$TM send-keys -t vm Enter
step "then offers the verdict for a disk set" "Measure a set of disks for the verdict" 30
$TM send-keys -t vm Tab Enter
step "No goes back to the menu" "Esc goes back" 30
$TM send-keys -t vm 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30

# Ctrl-C in the middle of raid1, with the output going through tee as a
# person would keep a log: tee dies first; the run still tears down.
type_line "clear; mkdir /tmp/o; $STOPPED --levels=1,5 --output=/tmp/o 2>&1 | tee /tmp/r.log"
step "the run reaches raid1, its array up" "bootbench-raid1 is /dev/md" 300
sleep 0.5
$TM send-keys -t vm C-c
type_line "clear; echo ARRAYS-AFTER-CTRL-C=\$(grep -c '^md' /proc/mdstat) INTERRUPTED=\$(grep -c '\"interrupted\" *: *true' /tmp/o/raid.json)"
step "Ctrl-C: no array is left, and the saved report says interrupted" "ARRAYS-AFTER-CTRL-C=0 INTERRUPTED=1" 120

# kill -9 in the middle of raid5: the array stays up, the next run cleans it.
type_line "clear; $STOPPED --levels=5 > /tmp/r.log 2>&1 & L=raid5; $WAIT; kill -9 \$!; sleep 1; echo ARRAYS-AFTER-KILL=\$(grep -c '^md' /proc/mdstat)"
step "kill -9 leaves the raid5 array running" "ARRAYS-AFTER-KILL=1" 300
# The next run: members on a partition at the head of each disk, ext4 on
# each array and disk; measured, then the partition tables go as well as the
# superblocks.
type_line "clear; $RAID --levels=10-f2,linear --partition=40M --fs=ext4 > /tmp/r3.log 2>&1; RC=\$?; [ \$RC = 0 ] || tail -n 8 /tmp/r3.log; grep cleanup: /tmp/r3.log; echo ROWS=\$(grep -c '^ *raid10-f2  *[0-9]' /tmp/r3.log) SIGNATURES=\$(wipefs /dev/vda /dev/vdb /dev/vdc | grep -vc '^DEVICE') PARTS=\$(ls /dev/vd?1 2>/dev/null | wc -l) ARRAYS-AFTER-NEXT=\$(grep -c '^md' /proc/mdstat) RC3=\$RC"
step_result "the next run, --partition and --fs=ext4: measured, and no partition, signature or array is left" RC3 \
	"ROWS=4 SIGNATURES=0 PARTS=0 ARRAYS-AFTER-NEXT=0 RC3=0" 300
check "the next run stopped the array a killed run left" shows 'cleanup: stopped /dev/md.* (bootbench-raid5), left by an earlier run'
check "and zeroed its superblocks" shows 'cleanup: zeroed the md superblock on /dev/vd'

# Killed again, then the array stopped by hand as a reboot would: superblocks
# of ours stay on the disks until --cleanup.
type_line "clear; $STOPPED --levels=1 > /tmp/r.log 2>&1 & L=raid1; $WAIT; kill -9 \$!; sleep 1; mdadm --stop /dev/md/bootbench-raid1; mdadm --examine /dev/vda | grep -c bootbench-raid1 | sed 's/^/SUPERBLOCKS-BEFORE=/'"
step "a stopped array of ours leaves its superblock" "SUPERBLOCKS-BEFORE=1" 300
# (issue 14 A.5: --cleanup writes too, so it needs the disks named in --destroy)
type_line "clear; bootbench raid --cleanup /dev/vda; echo CLEANUP-RC=\$?"
step "--cleanup without --destroy is refused" "CLEANUP-RC=2" 30
type_line "clear; bootbench raid --cleanup --destroy=/dev/vda,/dev/vdb,/dev/vdc /dev/vda /dev/vdb /dev/vdc; echo CLEANUP-RC=\$?"
step "--cleanup exits 0" "CLEANUP-RC=0" 60
check "--cleanup zeroed the superblocks on every disk" sh -c "[ \$($TM capture-pane -p -J -t vm | grep -c 'zeroed the md superblock of .*bootbench-raid1 on /dev/vd') = 3 ]"
# bootbench parity beside the kernel's own figures, which raid456 logged
type_line "clear; bootbench parity | grep -c '^  [A-Z0-9]*: [0-9.]*x, ours [0-9]* Mi*B/s .*, kernel [0-9]* Mi*B/s' | sed 's/^/VS-KERNEL=/'"
step "parity: ours against the kernel's raid6 and xor figures" "VS-KERNEL=2" 120
type_line "clear; bootbench parity --json | grep -cE '\"(raid6_ours_mibs|raid6_ratio|xor_ours_mbs|xor_ratio)\" : [0-9]' | sed 's/^/VS-KERNEL-JSON=/'"
step "parity --json: the same comparison under vs_kernel" "VS-KERNEL-JSON=4" 120
type_line "poweroff"
step "the machine powers off" "QEMU-EXITED" 90
for i in 1 2 3; do
	check "no md superblock is left on disk $i" sh -c "mdadm --examine '$T/d$i.img' 2>&1 | grep -q 'No md superblock detected'"
done
finish
