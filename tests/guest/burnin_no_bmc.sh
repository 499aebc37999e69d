# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_menu.sh; issue 32): in a guest
# without a BMC, bootbench burnin's bmc component asked for is an ERROR
# saying there is none (burnin_bmc.sh has the guest with one). From the
# menu's shell, at 160x50 there as the burn-in checks have it.
# screen: 80x24
. tests/bootlib.sh
[ "${1:-}" = prepare ] && exit 0	# no disk of its own
guest_attach
need_commands tmux
step "without a BMC: the menu" "Esc goes back" 30
sleep 2	# dialog drops what is typed while it starts
keys 7 Enter
step "... the shell" "Type 'exit' to return to the menu." 30
console_size 160 50
# its words before the marker step_result waits for (after it, a loaded host's
# capture could catch the marker with the words not drawn yet)
type_line "clear; bootbench burnin --components=bmc --duration=10s > /tmp/o 2>&1; rc=\$?; cat /tmp/o; echo NOBMC=\$rc"
step_result "bmc asked for without a BMC: exit 1" NOBMC "NOBMC=1" 60
check "... ERROR, saying there is no BMC" shows "bmc       ERROR    no BMC: no IPMI device"
console_size 80 24
type_line "exit"
step "back in the menu" "Esc goes back" 30
finish
