# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_menu.sh): every menu screen fits a
# serial console's 80x24 (issue 31). On the serial console through tmux at
# 80x24, each entry's first screens are opened as a person would (two NVMe
# disks to pick from: its own and menu_serial.sh's, which it only reads;
# the stick as boot and results medium, no results yet, no ssh) and each
# is captured: its lines fit the screen and no text runs into a box's edge
# (tests/screen_fits.py), and Disks and health keeps its columns aligned,
# its words whole. Every capture is in this check's log, to look at. First
# of its guest's checks: no results saved yet, no installed system on the
# disks (rescue_luks_lvm.sh makes its own after).
# screen: 80x24
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	test_disk "$GUEST/menu_screens.img"
	exit 0
fi
guest_attach
need_commands tmux python3
step "the menu is on the screen" "Esc goes back" 30
fits "the main menu"
# fits_textbox NAME: a scrollable box, its first page and its last
fits_textbox() {
	fits "$1"
	keys G	# dialog's textbox: G goes to the end (End's escape sequence is slow over a serial line)
	fits "$1, its last page"
}
back() { # TEXT: the key that leaves this screen, then the main menu again
	keys "$1"
	step "... back in the menu" "Esc goes back" 30
}

menu_pick 0
step "System information opens" "logical CPUs" 60
fits_textbox "System information"
back Enter

menu_pick 1
step "Disks and health opens" "WRITES" 60
$TM capture-pane -p -t vm > "$T/disks.txt"
fits_textbox "Disks and health"
check "Disks and health: the WRITES column starts where its header does, on every disk's row" python3 - "$T/disks.txt" <<'PY'
import re, sys
rows = open(sys.argv[1]).read().split("\n")
head = next(r for r in rows if "WRITES" in r)
col = head.index("WRITES")
disks = [r for r in rows if re.search(r"[|│] (nvme\d+n\d+|sd[a-z]) ", r)]
print(head, *disks, sep="\n")
sys.exit(0 if len(disks) >= 3 and all(r[col:col + 7] in ("allowed", "refused") for r in disks) else 1)
PY
check "Disks and health: the NVMe disks may be written, the stick may not" sh -c \
	"grep -Eq 'nvme0n1 .* allowed' '$T/disks.txt' && grep -Eq 'sd[a-z] .* refused' '$T/disks.txt'"
check "Disks and health: why, in whole words under its disk" \
	grep -q 'refused:  it is the boot medium, it is the results medium' "$T/disks.txt"
# this check's disk has a 20-character serial (tests/boot/shared_guest_menu.sh): cut to its column, marked
check "Disks and health: a serial longer than its column ends in + ..." grep -Eq 'nvme[0-9]n1 .* BBNVME-SERIAL\+ allowed' "$T/disks.txt"
check "... and is given whole under its row" grep -q '  serial:   BBNVME-SERIAL-LONG-2' "$T/disks.txt"
back Enter

menu_pick 2
step "Run a profile: the profiles" "Which method?" 30
fits "Run a profile: the profiles"
keys Enter
step "Run a profile: quick's disks" "quick: disks" 30
fits "Run a profile: the disks"
back Escape

menu_pick 3
step "Burn-in: the components" "Burn-in: components" 30
fits "Burn-in: the components"
keys Enter
step "Burn-in: the disks to write" "Burn-in: disks to write" 30
fits "Burn-in: the disks to write"
keys Escape	# none to write: they are only read
step "Burn-in: how long" "Burn-in: how long" 30
fits "Burn-in: how long"
back Escape

menu_pick 4
step "Compare RAID levels: the disks" "Compare RAID levels: disks" 30
fits "Compare RAID levels: the disks"
keys Space Down Space Enter
step "Compare RAID levels: the levels" "Space ticks a level" 30
fits "Compare RAID levels: the levels"
back Escape

menu_pick 5
step "Parity CPU check: the table" "<- used" 180
fits_textbox "Parity CPU check"
keys Enter
step "Parity CPU check: the verdict's question" "Measure a set of disks" 30
fits "Parity CPU check: the question"
back Escape

menu_pick 6
step "Erase disks: the disks" "Erase: disks (everything on them is lost)" 30
fits "Erase disks: the disks"
# this check's disk (the second offered: nvme1n1) through how, the read-back
# and its confirmation, typed wrong: refused, nothing written, no results folder
keys Down Space Enter
step "Erase: how" "NIST SP 800-88" 30
fits "Erase: how"
keys Enter
step "Erase: the read-back" "How much is read back after it" 30
fits "Erase: the read-back"
keys Enter
step "Erase: the confirmation asks for the serial's last four characters" "serial (BBNVME-SERIAL-LONG-2)" 30
fits "Erase: the confirmation"
sleep 2	# dialog drops what is typed while it starts
type_line "XXXX"
step "... typed wrong: refused, nothing written" "Not confirmed for nvme1n1: nothing was" 30
fits "Erase: not confirmed"
back Enter

menu_pick 7
step "View saved results: none yet" "No results yet" 30
fits "View saved results"
back Enter

menu_pick 8
step "Save results: where to" "Where to?" 30
fits "Save results"
back Escape

menu_pick 9
step "Network: the links" "A link to configure" 30
fits "Network"
link_row() { screen | grep -oE 'eth[0-9]+ +[0-9a-f:]{17} .*[0-9]' | head -n 1; }
before=$(link_row)
echo "    the first link: $before"
keys Enter
step "Network: a link's choices" "ask a DHCP server" 30
fits "Network: DHCP or a static address"
keys Down Enter
step "Network: the address asked for" "Address with prefix" 30
fits "Network: the address"
# a mistyped address (an octet over 255) is refused before the link is touched
sleep 2	# dialog drops what is typed while it starts
type_line "192.0.2.300/24"
step "Network: a mistyped address is refused" "is not an IPv4 address with its prefix" 30
fits "Network: a mistyped address"
check "... quoting what was typed" shows '"192.0.2.300/24" is not an IPv4 address'
check "... naming the link and that nothing was changed" shows "Nothing was changed on eth[0-9]"
keys Enter
step "... back at the links" "A link to configure" 30
after=$(link_row)
check "... the link's address as it was (${before:-none read})" sh -c "[ -n '$before' ] && [ '$after' = '$before' ]"
back Escape

menu_pick 10
step "Rescue: what it found" "no installed system found" 120
fits "Rescue"
back Enter

menu_pick 11
step "Remote access: ssh is off, and how to turn it on" "ssh: off. Boot with bootbench.ssh_key=" 30
fits "Remote access"
back Escape

menu_pick 12
step "Keyboard layout: the layouts, us ticked" "(*) us      English (US)" 30
fits "Keyboard layout"
keys Down Space Enter
step "Keyboard layout: uk set, and how to set it at boot" "At boot: bootbench.keymap=uk" 30
fits "Keyboard layout: set"
back Enter

finish
