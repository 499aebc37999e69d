# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_bmc.sh; issue 32): bootbench
# burnin's disks component on a SATA drive (this check's, the guest's only
# one: QEMU's ide-hd on AHCI, which answers SMART and runs its own
# self-tests):
#   - with consent, the drive's short self-test is started through smartctl,
#     polled to its end and passes; the write/verify pass runs; the SMART
#     counters are read before and after: the component PASSes, its figures
#     name the self-test's result and the counters;
#   - without consent, the read-only parts (self-test, counters, a read
#     pass) run, and the result says the disk was only read.
# (burnin_nvme.sh has the drive that refuses a self-test and the warning
# raised during the run.)
# screen: 160x50
# timeout: 420
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	truncate -s 128M "$GUEST/burnin_sata.img"
	exit 0
fi
guest_attach
need_commands tmux python3
menu_shell
# the drive by its vendor (libata says ATA): the stick is an sd disk too
type_line "clear; for b in /sys/block/sd*; do grep -q '^ATA' \$b/device/vendor && D=/dev/\${b##*/}; done; [ -b \"\$D\" ]; echo SATA=\$? \$D"
step_result "the SATA drive is found" SATA "SATA=0 /dev/sd[a-z]" 30
# 10 min scaled to 12 s: the passes are sized to the time, and a minimal pass must fit (issue 45, item 10)
burn='BOOTBENCH_SCALE=0.02 bootbench burnin --components=disks --duration=10m'
type_line "clear; mkdir -p /tmp/c /tmp/r; $burn --output=/tmp/c --destroy=\$D \$D > /tmp/c.log 2>&1; rc=\$?; grep -E '^disks|selftest|health|pass ' /tmp/c.log; echo CONSENTED=\$rc"
step_result "a consented burn-in of the drive: exit 0" CONSENTED "CONSENTED=0" 240
check "... disks PASS, the drive's own self-test passed" shows "^disks  *PASS .*1 of 1 drives ran their own"
check "... the self-test's result in the drive's words" shows "selftest  *sd[a-z]: short self-test: .*[Cc]ompleted without error"
check "... the SMART counters read after the run, those QEMU keeps none of said so" shows "health  *sd[a-z]: reallocated 0, pending not reported, offline uncorrectable not reported, CRC errors not reported"
check "... the disk written, read back and verified, the share said" shows "pass  */dev/sd[a-z]: .*of .*(.*%) written in order and at random, read back and verified"
# read only, 10 min scaled to 6 s: no minimal pass to fit, only the self-test and a read (issue 49)
type_line "clear; BOOTBENCH_SCALE=0.01 bootbench burnin --components=disks --duration=10m --output=/tmp/r \$D > /tmp/r.log 2>&1; rc=\$?; grep -E '^disks|selftest|pass ' /tmp/r.log; echo READONLY=\$rc"
step_result "without consent: exit 0" READONLY "READONLY=0" 240
check "... the self-test ran" shows "selftest  *sd[a-z]: short self-test: .*[Cc]ompleted without error"
check "... and the disk was only read, as the result says" shows "pass  */dev/sd[a-z]: read, .*no consent to write: --destroy."
type_line "exit"
step "back in the menu" "Esc goes back" 30
finish
