# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_menu.sh): the menu, driven end to
# end on the serial console as a person would, through tmux (send-keys,
# capture-pane): Run a profile -> quick -> tick the NVMe disk (the guest's
# first, nvme0n1: this check's) -> a wrong name typed at the consent prompt
# is refused and nothing is written -> again with the right name -> the
# result table -> Save results to the stick. The host then reads the saved
# results from the image with mtools. The stick's bootbench.conf sets
# scale=0.02. Its guest's only check that runs or saves anything from the
# menu: Save's count is of this check's run.
# screen: 80x24
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	test_disk "$GUEST/menu_serial.img"
	sum_of "$GUEST/menu_serial.img" > "$GUEST/menu_serial.before"
	exit 0
fi
guest_attach
need_commands tmux
before=$(cat "$GUEST/menu_serial.before")
step "the menu is on the screen" "Esc goes back" 30
keys 3 Enter
step "Run a profile lists the profiles" "Which method?" 30
check "quick is offered first, with its summary" shows 'quick  *4k random read QD32'
keys Enter
step "the disks of quick are offered" "quick: disks" 30
check "the NVMe disk is offered with its serial" shows 'nvme0n1 .*BBNVME1'
check "the stick (boot and results medium) is not offered" sh -c "! $TM capture-pane -p -J -t vm | grep -q ' sd[a-z] '"
keys Space Enter
step "consent asks for the names" "Type the device names" 30
keys nvme0n2 Enter
step "a wrong name is refused" "Not confirmed: nothing was written" 30
check "the disk is unchanged after the refusal" [ "$(sum_of "$GUEST/menu_serial.img")" = "$before" ]
keys Enter
step "back in the menu" "Esc goes back" 30
keys 3 Enter
step "... Run a profile again" "Which method?" 30
keys Enter
step "... quick's disks again" "quick: disks" 30
keys Space Enter
step "... consent asks again" "Type the device names" 30
keys nvme0n1 Enter
step "the run ends and its table is shown" "quick: results" 300
# the box is drawn top to bottom over a slow serial line: its last line first
step "the run exited 0" "exit status 0" 30
check "the table has the 4k random read row" shows 'randread-4k-qd32 '
fits "the results table"
keys Enter
step "back in the menu after the table" "Esc goes back" 30
keys 5 Enter
step "Save asks where, the stick first" "Where to?" 30
keys Enter
step "the results are saved to the stick" "1 run(s) saved to results/ on the stick" 60
keys Enter
step "back in the menu after saving" "Esc goes back" 30
# View saved results (issue 48): the runs by their folders' names, this boot's and the
# stick's copy, and the one picked shows its summary
menu_pick 7
step "View saved results lists the runs" "Which run?" 30
fits "View saved results: the runs"
check "... the quick run by its folder's name, this boot's and the stick's" \
	sh -c "[ \$($TM capture-pane -p -J -t vm | grep -cE '_quick-[0-9a-z]+ \((this boot|the stick)\)') = 2 ]"
keys Enter
step "... the run picked shows its summary: the quick table" "randread-4k-qd32" 30
fits "View saved results: a run's summary"
keys Enter
step "back in the menu after the summary" "Esc goes back" 30
# the guest runs on: the stick is read here once the guest has synced it
menu_sync
check "the disk was written (consent given)" [ "$(sum_of "$GUEST/menu_serial.img")" != "$before" ]
if fetch_results "$GUEST/stick.img" >/dev/null; then
	check "the saved summary has the quick table" grep -q '^randread-4k-qd32 ' "$T/results/summary.txt"
	check "the saved JSON is fio's, 4 jobs, no error" json "$T/results/quick-nvme0n1.json" \
		'len(d["jobs"]) == 4 and all(j["error"] == 0 for j in d["jobs"])'
	# the fixture's vCPUs: QEMU_SMP's (tests/bootlib.sh)
	check "the saved result carries the machine ($QEMU_SMP vCPU)" json "$T/results/sysinfo.json" "d['cpu']['cpus'] == $QEMU_SMP"
else
	bad "a results folder is on the stick"
fi
finish
