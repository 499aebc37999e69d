# SPDX-License-Identifier: MIT
# Shared guest (issue 49: boot once, check many): the stick, its
# bootbench.conf at scale=0.02, booted once at 80x24 with the disks of the
# checks below, each a test of its own (tests/guest/NAME.sh, reported by
# the runner as NAME.sh), run in turn from the menu: the menu's screens
# (menu_screens, first: no results yet, no installed system; its disk's
# serial is 20 characters, longer than the disks' column), a profile
# run and saved from the menu (menu_serial, on nvme0n1, the first disk:
# BBNVME1), a burn-in's bmc asked for in a guest with no BMC
# (burnin_no_bmc), a LUKS2 + LVM + btrfs system made and rescued
# (rescue_luks_lvm, on /dev/vda, last). Then the menu powers it off.
# checks: menu_screens menu_serial burnin_no_bmc rescue_luks_lvm
# timeout: 600
. tests/bootlib.sh
need_artifacts
need_commands tmux python3 mcopy
guest_prepare
stick_with_conf "$GUEST/stick.img" scale=0.02
shared_guest 80 24 "--fw bios --usb '$GUEST/stick.img' --disk nvme:'$GUEST/menu_serial.img' --disk nvme+serial=BBNVME-SERIAL-LONG-2:'$GUEST/menu_screens.img' --disk virtio:'$GUEST/rescue_luks_lvm.img'"
