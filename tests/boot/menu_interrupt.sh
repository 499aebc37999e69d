# SPDX-License-Identifier: MIT
# Boot test (issue 14 A.9): Ctrl-C at the menu's gauge stops bootbench
# alone. The menu entry lives on and shows the table of the results so far,
# marked interrupted, then the menu comes back. Driven through tmux on the
# serial console as a person would. Before the fix, SIGINT reached the whole
# process group: the entry died with the gauge and no table was shown.
# Then the same for the Burn-in entry's live screen.
. tests/bootlib.sh
need_artifacts
need_commands tmux
stick_with_conf "$T/stick.img" ""
truncate -s 2G "$T/nvme.img"
console_boot 80 24 "--fw bios --usb '$T/stick.img' --disk nvme:'$T/nvme.img'"
step "the menu comes up on the serial console" "Esc goes back" 240
menu_start_quick nvme0n1
step "the gauge shows the run" "Ctrl-C stops the run" 120
# the first job lasts 10 s: let it report, then interrupt
step "the gauge shows the first IOPS" "IOPS: read [1-9]" 60 E
keys C-c
step "after Ctrl-C the entry shows the table" "quick: results" 120
step "... ending with bootbench's exit status 1" "exit status 1" 30
check "... saying the results are those until the interrupt" shows 'interrupted: results cover the run'
check "... with the first job's row" shows 'randread-4k-qd32 '
fits "the interrupted run's table (issue 48)"
keys Enter
step "the menu comes back" "Esc goes back" 60
# the same for a burn-in (issue 32): Ctrl-C on its live screen stops the
# component running, keeps what it measured, and the verdicts are shown
menu_pick 3
step "Burn-in offers the components" "Burn-in: components" 30
keys Space Enter	# disks unticked: cpu and memory
step "Burn-in asks how long" "Burn-in: how long" 30
keys Enter		# quick: 2 minutes a component
step "the live screen shows the CPU's burn-in running" "cpu *running" 120 E
sleep 3
keys C-c
step "after Ctrl-C the verdicts are shown" "Burn-in: verdicts" 120
# waited for: the box's title can be drawn before its text (an empty box seen beside a loaded host)
check "... the CPU's INTERRUPTED, not a pass, saying by what first" wait_for "cpu  *INTERRUPTED  *interrupted (SIGINT) before its time was up" 10 G
# cpu and memory run together (the together phase, the default with two): both stopped mid-way
check "... the memory's, running beside it: INTERRUPTED too" shows "memory .*INTERRUPTED .*interrupted (SIGINT) before its time was up"
fits "the burn-in's verdicts, interrupted (issue 48)"
keys G
check "... bootbench's exit status 130 (interrupted)" shows "exit status 130"
keys Enter
step "the menu comes back" "Esc goes back" 60
finish
