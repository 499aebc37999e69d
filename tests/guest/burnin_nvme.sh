# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_bmc.sh; issue 32): bootbench
# burnin's disks component on QEMU's NVMe drive (this check's: the guest's
# only NVMe disk, nvme0n1, its first: QEMU's disk1). QEMU 7.2's controller
# has no Device Self-test: the drive's refusal is an ERROR in its own words.
# With disks_need_selftest=0 the burnin profile's passes run on it, and a
# critical warning the drive raises during them (set from outside through
# QEMU's monitor, as a failing drive's controller would) FAILs naming the
# drive and the warning; the next burn-in, the warning still set, FAILs it
# as set before it began. The warning stays set on this check's drive:
# last of its guest's checks.
# screen: 160x50
# timeout: 420
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	# the passes last long enough to raise a warning during them: the first
	# stretch writes the minimal pass (the whole disk) twice, in 15 s with
	# room for a loaded host's rate (384 MiB in 30 s: refused, rightly, at its
	# rate beside a suite once the planner counted both writings; 192 MiB in
	# 30 s held). Half of both: the planner's fixed costs (its measuring, the
	# start) weigh more in 15 s, so the room is a little less; it passed beside
	# stress-ng --cpu 2
	truncate -s 96M "$GUEST/burnin_nvme.img"
	exit 0
fi
guest_attach
need_commands tmux python3
menu_shell
# 10 min scaled to 3 s, the drive only read (no --destroy): these two verdicts are the drive's
# self-test and its health, which a read pass is judged by as a written one (issue 49: written,
# a minimal pass had to fit, and each run took 12 s)
burn="COLUMNS=150 BOOTBENCH_SCALE=0.005 bootbench burnin --components=disks --duration=10m /dev/nvme0n1"
type_line "clear; $burn > /tmp/o 2>&1; rc=\$?; grep -E '^disks|why:' /tmp/o; echo NOSELF=\$rc"
step_result "a drive with no self-test: exit 1" NOSELF "NOSELF=1" 240
check "... the disks' verdict: ERROR" shows "^disks     ERROR"
check "... ERROR in the drive's words" shows "why: *nvme0n1: no self-test: the controller refused Device Self-test: NVMe status 0x[0-9a-f]* (Invalid Command Opcode"
# the warning is set once the passes run: the counters were read before them
# (a fixed 3 s was not always enough on a loaded host; the marker is printed as
# SET-""NOW in the typed line, so the screen shows SET-NOW only once the passes run)
type_line "clear; (COLUMNS=150 bootbench burnin --components=disks --duration=15s --destroy=/dev/nvme0n1 /dev/nvme0n1 --limits=disks_need_selftest=0 > /tmp/w 2>&1; echo WARN=\$? > /tmp/w.rc) & i=0; until pgrep -f 'burnin-pass' >/dev/null || [ \$i -ge 600 ]; do sleep 0.1; i=\$((i + 1)); done; echo SET-\"\"NOW"
step "the burn-in's passes run" "SET-NOW" 90
monitor "$GUEST/mon" "qom-set /machine/peripheral/disk1 smart_critical_warning 4"
type_line "clear; echo PASSES-RUNNING=\$(pgrep -f 'burnin-pass' | wc -l)"
step_result "the warning was raised while the passes ran" PASSES-RUNNING "PASSES-RUNNING=[1-9]" 30
type_line "clear; wait; grep -E '^disks|why:' /tmp/w; cat /tmp/w.rc"
step_result "a critical warning raised during the burn-in: exit 1" WARN "WARN=1" 240
check "... the disks' verdict: FAIL" shows "^disks     FAIL"
check "... FAIL naming the drive and the warning" shows "why: *nvme0n1: critical warning 0x04 raised during the burn-in (was 0x00): reliability degraded"
# the drive still says so: the next burn-in fails it from the start
type_line "clear; $burn --limits=disks_need_selftest=0 > /tmp/s 2>&1; rc=\$?; grep -E '^disks|why:' /tmp/s; echo STILL=\$rc"
step_result "the warning still set at the next burn-in: exit 1" STILL "STILL=1" 240
check "... the disks' verdict: FAIL again" shows "^disks     FAIL"
check "... FAIL: set before it began, in words" shows "why: *nvme0n1: critical warning 0x04, set before the burn-in began: reliability degraded"
# the verdicts above are the drive's, not an emulator's stall: no command timed out (the
# stalls once seen here were QEMU missing NVMe's shadow doorbells, scripts/qemu.sh)
# (this check's controller alone; the log from its boot on: its first line still there)
type_line "clear; dmesg | grep -E 'nvme0: .*(timeout|will reset)' | tail -n 3; echo STALLS=\$(dmesg | grep -cE 'nvme0: .*(timeout|will reset)'),\$(dmesg | grep -c 'Linux version')"
step_result "no command of nvme0 timed out or reset in the guest (the emulated controller never stalled)" STALLS "STALLS=0,1" 30
type_line "exit"
step "back in the menu" "Esc goes back" 30
finish
