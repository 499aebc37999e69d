# SPDX-License-Identifier: MIT
# timeout: 900
# Boot test: md levels and ZFS pools compared, and torn down in every case,
# on six virtual disks of 320 MiB (xfs needs 300) and three of 96 MiB,
# scaled down, driven on
# the serial console (raid_teardown.sh and raid_levels_fs.sh folded in
# here: one boot for what were three, issue 49):
#   - the menu's Compare RAID levels on the three small disks: the default levels,
#     mdraid, consent typed, the gauge, then the table with a row per level
#     and exit status 0; then Parity CPU check with the kernel's figures
#     beside ours;
#   - the menu's Compare RAID levels offers the ZFS topologies beside the
#     md levels; a ZFS mirror of two disks ticked alone is measured (with
#     the ars tests picked in the menu);
#   - bad input, exit 2 and nothing written: raidz3 over three disks, a
#     mirror of an odd width, a disk holding a pool that is not ours
#     (imported, then exported);
#   - --zfs=mirror,raidz1,raidz2 --levels=10 (quick): every row of the table, each
#     relative to the baseline, ZFS settings in the header; raid.json read
#     on the host; no pool, label, md superblock or partition left;
#   - Ctrl-C during a pool: the run says it was interrupted, nothing left;
#   - kill -9 during a pool leaves it imported; --cleanup destroys it,
#     clears its labels and removes the partition tables;
#   - md: Ctrl-C during a level: the run says it was interrupted, no array
#     stays; kill -9 during a level leaves the array running: the next run
#     (head partitions and ext4: raid10-f2, linear) stops it and zeroes its
#     superblocks before it starts, and removes its partition tables; an
#     array of ours found stopped (as after a reboot), superblocks still on
#     the disks: --cleanup zeroes them; bootbench parity puts ours beside
#     the kernel's raid6/xor figures;
#   - the md options the other RAID tests leave out: raid6 and raid10
#     offset2, xfs on each array and disk, the quick profile: a row per level
#     for every test of the baseline, "a file on xfs", the RAID6 parity
#     verdict, exit 0; raid1 with --resync and the yabs profile: the resync
#     waited for and reported, exit 0; no array left in the guest.
# At the end the host's wipefs finds no signature on any disk, and mdadm no
# md superblock.
. tests/bootlib.sh
need_artifacts
need_commands tmux wipefs mcopy mdadm
# 0.002: each test at its least (0.1 s); rows, not figures, are checked, and
# a pool's stage still lasts several seconds (ZFS drains its writes), long
# enough for the Ctrl-C and kill -9 below to land in it
stick_with_conf "$T/stick.img" scale=0.002
# and three of 96 MiB for the md teardown's runs (the mdraid profile's runs grow with the disks)
virtio_disks 9 320M
truncate -s 96M "$T/d7.img" "$T/d8.img" "$T/d9.img"
# one vCPU: the profile's tests are timed, and a second vCPU under TCG only
# burns host CPU beside the first (97 CPU-s here against 138 with two, in
# less wall time on a loaded host)
console_boot 160 50 "--fw bios --usb '$T/stick.img' $disks --smp 1"
ALL="/dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde /dev/vdf"
DESTROY=/dev/vda,/dev/vdb,/dev/vdc,/dev/vdd,/dev/vde,/dev/vdf
RAID="bootbench raid --destroy=$DESTROY --profile=ars"
# the runs stopped in a pool (Ctrl-C, kill -9): the mdraid profile, whose
# baseline is two tests (the ars profile's twelve took 8 s to reach the
# pool) and whose pool stage lasts (ZFS drains its buffered writes: the
# quick profile's mirror was done before a kill 1 s in)
STOPPED_POOL="bootbench raid --destroy=$DESTROY --profile=mdraid"
# LEFT: what stays on the disks: imported pools, ZFS labels (zdb), any
# signature or partition table (blkid), md arrays
LEFT='echo LEFT: POOLS=$(zpool list -H 2>/dev/null | wc -l) LABELS=$(for d in '"$ALL"' /dev/vd?1; do [ -b $d ] && zdb -l $d >/dev/null 2>&1 && echo $d; done | wc -l) SIGNATURES=$(blkid -p '"$ALL"' /dev/vd?1 2>/dev/null | wc -l) ARRAYS=$(cat /proc/mdstat 2>/dev/null | grep -c ^md)'
NOTHING="POOLS=0 LABELS=0 SIGNATURES=0 ARRAYS=0"

# The md teardown's runs, on the last three disks (vdg, vdh, vdi): at 0.002 the runs whose rows and teardown
# are checked; those a test stops midway (Ctrl-C, kill -9) at 0.005: a level's four tests
# then last about 2 s, and the stop is sent half a second after the log says its array is up
# (0.02 had them wait through a baseline four times as long)
MD3="bootbench raid --destroy=/dev/vdg,/dev/vdh,/dev/vdi /dev/vdg /dev/vdh /dev/vdi"
STOPPED="BOOTBENCH_SCALE=0.005 $MD3"
# L=LEVEL; $WAIT: until the run's log says the array of LEVEL is up, and
# its tests have begun
WAIT='while ! grep -q "bootbench-$L is /dev/md" /tmp/r.log 2>/dev/null; do sleep 0.1; done; sleep 0.5'
step "the menu comes up on the serial console" "Esc goes back" 240
# The menu's Compare RAID levels with its defaults on the last three disks, then Parity CPU check.
$TM send-keys -t vm Down Down Down Down Enter
step "Compare RAID levels offers the disks" "Compare RAID levels: disks" 30
$TM send-keys -t vm Down Down Down Down Down Down Space Down Space Down Space Enter
step "the levels are offered, the published four ticked" "Compare RAID levels: levels" 30
check "raid5 is ticked" shows '\[\*\] raid5 '
check "raid6 is not" shows '\[ \] raid6 '
$TM send-keys -t vm Enter
step "the tests are offered" "Which tests on each disk and array?" 30
$TM send-keys -t vm Enter
step "consent asks for the names" "Type the device names" 30
$TM send-keys -t vm "vdg vdh vdi" Enter
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
# The menu's Compare RAID levels again: a ZFS mirror of two disks.
$TM send-keys -t vm Down Down Down Down Enter
step "Compare RAID levels offers the disks" "Compare RAID levels: disks" 30
$TM send-keys -t vm Space Down Space Enter
step "the levels are offered" "Compare RAID levels: levels" 30
check "the ZFS pools are offered beside the md levels" shows '\[ \] raidz2 .*ZFS: one RAIDz2 vdev'
check "and the checklist says ZFS needs Secure Boot off" shows 'ZFS pools need Secure Boot off'
# the four md levels unticked (raid0, raid1, raid5, raid10-n2), a ZFS mirror ticked
$TM send-keys -t vm Down Space Down Space Down Space Down Down Space Down Down Down Down Space
sleep 2
check "a ZFS mirror ticked alone" sh -c "$TM capture-pane -p -J -t vm | grep -q '\[\*\] mirror ' &&
	! $TM capture-pane -p -J -t vm | grep -q '\[\*\] raid'"
$TM send-keys -t vm Enter
step "the tests are offered" "Which tests on each disk and array?" 30
# ars, the method of the ZFS comparisons (the third entry): the default,
# mdraid, queues 32 buffered writes of 1 MiB, which ZFS under TCG drains
# for 15 s a test whatever the scale (a minute of the pool's stage)
$TM send-keys -t vm Down Down Enter
step "consent asks for the names" "Type the device names" 30
$TM send-keys -t vm "vda vdb" Enter
step "the pool is compared with the disks and its table shown" "Compare RAID levels: results" 300
$TM send-keys -t vm G
step "the menu's run exited 0" "exit status 0" 30
check "the table has the ZFS mirror's rows" shows '^ *| *zfs-mirror/2  *[0-9]'
check "of the ars tests" shows 'ars-syncwrite-1m-8x8'
$TM send-keys -t vm Enter
step "back in the menu" "Esc goes back" 30
$TM send-keys -t vm 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30

# Bad input: one line, exit 2, nothing written.
type_line "clear; $RAID --zfs=raidz3 --zfs-width=3 $ALL; echo RC1=\$?"
step_result "raidz3 over three disks is refused, exit 2" RC1 "RC1=2" 60
check "with the reason" shows 'raid: --zfs=raidz3 over 3 disks: raidz3 needs at least 4 disks'
type_line "clear; $RAID --zfs=mirror --zfs-width=5 $ALL; echo RC2=\$?"
step_result "a mirror of five disks is refused, exit 2" RC2 "RC2=2" 60
check "with the reason" shows 'mirror vdevs of two need an even number of disks'
# A pool that is not ours on vdf (made by hand, as a person's would be).
type_line "clear; echo start=2048 | sfdisk -q /dev/vdf && modprobe zfs && zpool create -o cachefile=none tank /dev/vdf1; echo TANK=\$?"
step_result "a pool of someone else's is made on vdf" TANK "TANK=0" 120
type_line "clear; $RAID --zfs=stripe $ALL; echo RC3=\$? PARTS=\$(ls /dev/vd[a-e]1 2>/dev/null | wc -l) TANK=\$(zpool list -H -o health tank)"
step_result "a disk holding an imported pool is refused, exit 2, nothing written" RC3 "RC3=2 PARTS=0 TANK=ONLINE" 60
check "naming the pool" shows "raid: refusing to write /dev/vdf: /dev/vdf1 holds ZFS pool 'tank'"
type_line "clear; zpool export tank; $RAID --levels=0 $ALL; echo RC4=\$? LABEL=\$(zdb -l /dev/vdf1 | grep -c \"name: 'tank'\")"
step_result "an exported pool is refused too, even by an md-only run; its label stays" RC4 "RC4=2 LABEL=1" 60
type_line "clear; zpool import -d /dev/vdf1 tank && zpool destroy tank && zpool labelclear -f /dev/vdf1 && wipefs -a -q /dev/vdf1 /dev/vdf; $LEFT"
step "the pool made by hand is gone" "LEFT: $NOTHING" 60

# The comparison: an md level and three ZFS topologies on the six disks,
# with the quick profile's four tests (40 runs; the ars profile's twelve, 120
# runs, took 36 s of a busy guest: the ars tests on a pool are the menu's
# run above). One md level shows them in one table; raid6 is below, in its
# own run, with the quick profile too (issue 49: it was ars there). The ars
# profile's tests on an md array are run nowhere now: on the menu's ZFS
# mirror above only.
type_line "clear; mkdir -p /tmp/o; bootbench raid --destroy=$DESTROY --profile=quick --zfs=mirror,raidz1,raidz2 --levels=10 --output=/tmp/o $ALL > /tmp/o/run.log 2>&1; echo RUN RC=\$?"
step_result "the comparison exits 0" RC "RUN RC=0" 600
type_line "clear; cp /tmp/o/raid.txt /tmp/o/raid.json /tmp/o/run.log /media/bootbench/ && sync; for l in raid10-n2 zfs-mirror/6 zfs-raidz1/6 zfs-raidz2/6; do grep -c \"^ *\$l  *[0-9]\" /tmp/o/raid.txt; done | tr '\\n' ' ' | sed 's/^/ROWS: /'; echo; $LEFT"
step "every test has a row for the md level and each ZFS pool" "ROWS: 4 4 4 4" 30
step "no pool, label, signature or array is left" "LEFT: $NOTHING" 60

# Ctrl-C during a pool, the output through tee: torn down all the same.
# (tee goes first, so what the run says after it is read from its raid.json)
type_line "clear; mkdir -p /tmp/c; $STOPPED_POOL --zfs=raidz1 --output=/tmp/c /dev/vda /dev/vdb /dev/vdc 2>&1 | tee /tmp/c.log"
step "the run reaches the raidz1 pool" "bootbench-raidz1-3 is mounted on" 300
sleep 1
$TM send-keys -t vm C-c
type_line "clear; grep -c '\"interrupted\" *: *true' /tmp/c/raid.json | sed 's/^/INTERRUPTED=/'; $LEFT"
step "Ctrl-C: the run says it was interrupted" "INTERRUPTED=1" 60
step "and nothing is left" "LEFT: $NOTHING" 60

# kill -9 during a pool: it stays imported until --cleanup.
type_line "clear; $STOPPED_POOL --zfs=mirror /dev/vda /dev/vdb > /tmp/k.log 2>&1 & while ! grep -q 'bootbench-mirror-2 is mounted' /tmp/k.log; do sleep 0.2; done; sleep 1; kill -9 \$!; sleep 1; echo KILLED POOLS=\$(zpool list -H | wc -l)"
step "kill -9 leaves the pool imported" "KILLED POOLS=1" 300
type_line "clear; bootbench raid --cleanup --destroy=$DESTROY $ALL > /tmp/cl.log 2>&1; echo CLEANUP-RC=\$? \$(grep -c 'destroyed ZFS pool bootbench-mirror-2' /tmp/cl.log) \$(grep -c 'removed the partition table' /tmp/cl.log); $LEFT"
step_result "--cleanup exits 0, destroys the pool and removes both partition tables" CLEANUP-RC "CLEANUP-RC=0 1 2" 120
step "and nothing is left" "LEFT: $NOTHING" 60
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
type_line "clear; $MD3 --levels=10-f2,linear --partition=40M --fs=ext4 > /tmp/r3.log 2>&1; RC=\$?; [ \$RC = 0 ] || tail -n 8 /tmp/r3.log; grep cleanup: /tmp/r3.log; echo ROWS=\$(grep -c '^ *raid10-f2  *[0-9]' /tmp/r3.log) SIGNATURES=\$(wipefs /dev/vdg /dev/vdh /dev/vdi | grep -vc '^DEVICE') PARTS=\$(ls /dev/vd?1 2>/dev/null | wc -l) ARRAYS-AFTER-NEXT=\$(grep -c '^md' /proc/mdstat) RC3=\$RC"
step_result "the next run, --partition and --fs=ext4: measured, and no partition, signature or array is left" RC3 \
	"ROWS=4 SIGNATURES=0 PARTS=0 ARRAYS-AFTER-NEXT=0 RC3=0" 300
check "the next run stopped the array a killed run left" shows 'cleanup: stopped /dev/md.* (bootbench-raid5), left by an earlier run'
check "and zeroed its superblocks" shows 'cleanup: zeroed the md superblock on /dev/vd'

# Killed again, then the array stopped by hand as a reboot would: superblocks
# of ours stay on the disks until --cleanup.
type_line "clear; $STOPPED --levels=1 > /tmp/r.log 2>&1 & L=raid1; $WAIT; kill -9 \$!; sleep 1; mdadm --stop /dev/md/bootbench-raid1; mdadm --examine /dev/vdg | grep -c bootbench-raid1 | sed 's/^/SUPERBLOCKS-BEFORE=/'"
step "a stopped array of ours leaves its superblock" "SUPERBLOCKS-BEFORE=1" 300
# (issue 14 A.5: --cleanup writes too, so it needs the disks named in --destroy)
type_line "clear; bootbench raid --cleanup /dev/vdg; echo CLEANUP-RC=\$?"
step "--cleanup without --destroy is refused" "CLEANUP-RC=2" 30
type_line "clear; bootbench raid --cleanup --destroy=/dev/vdg,/dev/vdh,/dev/vdi /dev/vdg /dev/vdh /dev/vdi; echo CLEANUP-RC=\$?"
step "--cleanup exits 0" "CLEANUP-RC=0" 60
check "--cleanup zeroed the superblocks on every disk" sh -c "[ \$($TM capture-pane -p -J -t vm | grep -c 'zeroed the md superblock of .*bootbench-raid1 on /dev/vd') = 3 ]"
# bootbench parity beside the kernel's own figures, which raid456 logged
type_line "clear; bootbench parity | grep -c '^  [A-Z0-9]*: [0-9.]*x, ours [0-9]* Mi*B/s .*, kernel [0-9]* Mi*B/s' | sed 's/^/VS-KERNEL=/'"
step "parity: ours against the kernel's raid6 and xor figures" "VS-KERNEL=2" 120
type_line "clear; bootbench parity --json | grep -cE '\"(raid6_ours_mibs|raid6_ratio|xor_ours_mbs|xor_ratio)\" : [0-9]' | sed 's/^/VS-KERNEL-JSON=/'"
step "parity --json: the same comparison under vs_kernel" "VS-KERNEL-JSON=4" 120
# The md options the other RAID tests leave out, on the first four disks,
# with the quick profile (issue 49: the ars profile's twelve tests took 23 s
# here; ars is the menu's ZFS run above, and its 4k random write gives the
# parity verdict its figure).
# rows: the baseline's "1 disk" rows, then each level's. Each line ends with
# the exit status, so the screen holds the whole line once the step sees it;
# a run that failed shows the end of its log above.
COUNT='B=$(grep -c " 1 disk " $F) R6=$(grep -cE "^ +raid6 +[0-9]" $F) R10=$(grep -cE "^ +raid10-o2 +[0-9]" $F)'
type_line "clear; F=/tmp/x.log; bootbench raid --destroy=/dev/vda,/dev/vdb,/dev/vdc,/dev/vdd --levels=6,10-o2 --fs=xfs --profile=quick /dev/vda /dev/vdb /dev/vdc /dev/vdd > \$F 2>&1; RC=\$?; [ \$RC = 0 ] || tail -n 8 \$F; $COUNT; echo ROWS \$B \$R6 \$R10 XFS=\$(grep -c 'tests on a file on xfs' \$F) VERDICT=\$(grep -c '^raid6 on 4 disks: they take' \$F) RC-XFS=\$RC"
step_result "raid6 and raid10-o2 on xfs with quick: exit 0" RC-XFS "RC-XFS=0" 900
check "quick's four tests have a baseline row each, and a raid6 and a raid10-o2 row" \
	shows 'ROWS 4 4 4 '
check "the report says the tests ran on a file on xfs" shows "XFS=1 "
check "the RAID6 parity verdict is given" shows "VERDICT=1"

type_line "clear; F=/tmp/y.log; bootbench raid --destroy=/dev/vda,/dev/vdb --levels=1 --resync --profile=yabs /dev/vda /dev/vdb > \$F 2>&1; RC=\$?; [ \$RC = 0 ] || tail -n 8 \$F; echo WAITED=\$(grep -c '^resync took [0-9.]* s' \$F) SAID=\$(grep -c 'synced before measuring (--resync)' \$F) ASSUME=\$(grep -c assume-clean \$F) ROWS=\$(grep -cE '^ +raid1 +[0-9]' \$F) RC-RESYNC=\$RC"
step_result "raid1 with --resync and yabs: exit 0" RC-RESYNC "RC-RESYNC=0" 600
check "the resync was waited for and said, with no --assume-clean" shows "WAITED=1 SAID=1 ASSUME=0 ROWS=8"

type_line "clear; echo ARRAYS=\$(grep -c '^md' /proc/mdstat)"
step "no array is left in the guest" "ARRAYS=0" 30
type_line "poweroff"
step "the machine powers off" "QEMU-EXITED" 90

for i in 1 2 3 4 5 6 7 8 9; do
	check "the host finds no signature on disk $i" sh -c "[ -z \"\$(wipefs --no-act '$T/d$i.img' 2>&1)\" ]"
	check "... and no md superblock" sh -c "mdadm --examine '$T/d$i.img' 2>&1 | grep -q 'No md superblock detected'"
done
mkdir -p "$T/results"
if mcopy -n -i "$T/stick.img@@1M" ::/raid.json ::/raid.txt ::/run.log "$T/results/" 2>/dev/null; then
	echo "--- the comparison's table (raid.txt):"; sed 's/^/    /' "$T/results/raid.txt"
	check "raid.json: the md level and the three pools, each measured without error" json "$T/results/raid.json" \
		'[(l["kind"], l["level"]) for l in d["levels"]] == [("md", "raid10-n2"),
		  ("zfs", "zfs-mirror/6"), ("zfs", "zfs-raidz1/6"), ("zfs", "zfs-raidz2/6")] and
		 all(l["status"] == 0 and len(l["results"]) == 4 for l in d["levels"])'
	check "raid.json: every row relative to the baseline" json "$T/results/raid.json" \
		'all(r["vs_baseline"] > 0 and r["iops"] > 0 and r["clat_p99_us"] > 0 for l in d["levels"] for r in l["results"])'
	check "raid.json: the pools' layout and settings" json "$T/results/raid.json" \
		'd["zfs"]["compression"] == "off" and d["zfs"]["recordsize"] == 131072 and d["zfs"]["ashift"] == 9 and
		 d["zfs"]["version"].startswith("2.1.") and d["zfs"]["io"] == "buffered, ARC capped" and
		 [l["capacity_disks"] for l in d["levels"][1:]] == [3, 5, 4] and
		 all(l["arc_max_bytes"] >= 64 << 20 for l in d["levels"][1:]) and
		 "raidz2 /dev/vda1 /dev/vdb1" in d["levels"][3]["zpool"]'
	check "the table's header states recordsize, compression and how the file was read" sh -c "
		grep -q 'recordsize 128KiB, compression=off' '$T/results/raid.txt' &&
		grep -q 'ARC was capped at 64.0MiB (zfs_arc_max)' '$T/results/raid.txt'"
	check "each pool was destroyed and its labels cleared" sh -c "
		for p in mirror-6 raidz1-6 raidz2-6; do grep -q \"bootbench-\$p destroyed, labels cleared\" '$T/results/run.log' || exit 1; done"
else
	bad "the run's files were copied to the stick"
fi
finish
