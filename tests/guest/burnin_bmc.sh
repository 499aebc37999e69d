# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_bmc.sh; issue 32): bootbench
# burnin's bmc component in a guest with a BMC (QEMU's ipmi-bmc-sim behind
# an ISA KCS interface; the burnin pack's ipmi_si and ipmitool reach it
# in-band). A burn-in of the BMC alone with no event logged passes (beside
# other loads: burnin_peer.sh);
# one during which an event is added to the BMC's log (an Add SEL Entry
# request through ipmitool raw: a temperature sensor going over its upper
# critical threshold, as a BMC logs it) FAILs quoting it; the BMC's sensors
# are saved; the inventory, before any burn-in, names the BMC (its drivers
# loaded at boot). Its event log filled to overflow, a burn-in is an ERROR
# (no verdict: a new event would not be logged); with --clear-sel it is
# saved, cleared for real and passes. (A guest without the BMC:
# burnin_no_bmc.sh.) The BMC is its guest's, and this check the only one
# that writes its event log.
# screen: 160x50
# timeout: 420
. tests/bootlib.sh
[ "${1:-}" = prepare ] && exit 0	# no disk of its own: the guest's BMC
guest_attach
need_commands tmux
menu_shell
# the BMC's drivers are loaded at boot (rc.d/21-bmc.sh), not first by a
# burn-in's bmc component: the inventory, taken first, names the BMC
type_line "clear; echo INV=\$(ls /dev/ipmi0 2>/dev/null | wc -l) \$(bootbench inventory 2>/dev/null | grep -c 'no BMC')"
step_result "at boot, before any burn-in: /dev/ipmi0 is there and the inventory names the BMC" INV "INV=1 0" 60
burn="bootbench burnin --components=cpu,bmc --duration=20s --limits=cpu_need_sensors=0,cpu_freq_min=0"
# the clean one of the BMC alone (issue 49: a cpu load beside it cost 5 CPU-s, and the next has
# one); the next 20 s scaled to 10 s, for an event logged 4 s into it
type_line "clear; mkdir -p /tmp/ok /tmp/bad; bootbench burnin --components=bmc --duration=10s --output=/tmp/ok > /dev/null 2>&1; echo OK=\$? \$(grep -c '^bmc       PASS' /tmp/ok/burnin.txt) \$(grep -c 'sensors ' /tmp/ok/burnin.txt) \$(ls /tmp/ok | tr '\n' ,)"
step_result "a burn-in with no BMC event: bmc PASS, its sensors and log saved" OK "OK=0 1 1 bmc-sel.txt,bmc-sensors.txt,burnin.json,burnin.txt," 240
type_line "clear; (BOOTBENCH_SCALE=0.5 $burn --output=/tmp/bad > /dev/null 2>&1; echo BAD=\$? > /tmp/bad.rc) & sleep 4; ipmitool raw 0x0a 0x44 0 0 2 0 0 0 0 0x20 0 4 1 1 1 9 0xff 0xff > /dev/null; wait; cat /tmp/bad.rc; grep '^bmc' /tmp/bad/burnin.txt"
step_result "an event logged during the burn-in: exit 1" BAD "BAD=1" 240
check "... bmc FAIL, quoting the event" shows "bmc       FAIL     the BMC logged during the burn-in: .*Temperature.*Upper Critical going high"
# issue 45: QEMU's BMC holds 128 records. One ipmitool (exec) sends 128 Add
# SEL Entry requests: 127 fill the log, the last is refused and sets its
# overflow flag. A burn-in then has no verdict (ERROR, nothing cleared);
# with --clear-sel the log is saved whole, cleared for real, and it passes.
type_line "clear; yes 'raw 0x0a 0x44 0 0 2 0 0 0 0 0x20 0 4 0x12 0x83 0x6f 5 0xff 0xff' | head -n 128 > /tmp/fill; ipmitool exec /tmp/fill > /dev/null 2>&1; echo SEL=\$(ipmitool sel info | awk '/^(Entries|Overflow)/ { print \$3 }' | paste -sd' ' -)"
step_result "QEMU's BMC's event log filled: 128 records, overflow" SEL "SEL=128 true" 60
type_line "clear; mkdir -p /tmp/full /tmp/clr; bootbench burnin --components=bmc --duration=10s --output=/tmp/full > /dev/null 2>&1; echo FULL=\$? \$(grep -c '^bmc       ERROR    the BMC.s event log is full (128 records, 100.0% used (0 bytes free' /tmp/full/burnin.txt) \$(ipmitool sel info | awk '/^Entries/ { print \$3 }')"
step_result "a full event log without --clear-sel: bmc ERROR, exit 1, the log left as it was" FULL "FULL=1 1 128" 60
type_line "clear; bootbench burnin --components=bmc --duration=10s --clear-sel --output=/tmp/clr > /dev/null 2>&1; echo CLR=\$? \$(grep -c '^bmc       PASS .*its event log saved to bmc-sel-before-clear.txt and cleared before the run' /tmp/clr/burnin.txt) \$(grep -c '^ *[0-9a-f]* | ' /tmp/clr/bmc-sel-before-clear.txt) \$(ipmitool sel info | awk '/^(Entries|Overflow)/ { print \$3 }' | paste -sd' ' -)"
step_result "with --clear-sel: saved (128 records), cleared (0, no overflow), bmc PASS, exit 0" CLR "CLR=0 1 128 0 false" 60
type_line "exit"
step "back in the menu" "Esc goes back" 30
finish
