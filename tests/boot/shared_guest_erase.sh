# SPDX-License-Identifier: MIT
# Shared guest (issue 49: boot once, check many): the stick as built, booted
# once at 160x50 with the disks of the checks below, each a test of its own
# (tests/guest/NAME.sh, reported by the runner as NAME.sh), run in turn from
# the menu: an installed system rescued (rescue_chroot, first: its rescue
# the only results folder Save finds; its disk the third virtio one,
# /dev/vdc), bootbench erase over disks of every kind (erase_disks: the
# guest's first nine disks, in the places its names and serials need:
# BBVIRTIO1 as vda, BBNVME3 as nvme0n1, four NVMe disks held to 2 MiB/s).
# Then the menu powers it off.
# checks: rescue_chroot erase_disks
# timeout: 900
. tests/bootlib.sh
need_artifacts
need_commands tmux python3 mcopy
GUEST=$T/guest
mkdir -p "$GUEST"
stick_with_conf "$GUEST/stick.img"
guest_prepare	# erase_disks puts its signing key on the stick
slow=""
for k in 1 2 3 4; do slow="$slow --disk nvme+wbps=2097152:'$GUEST/erase_disks-p$k.img'"; done
shared_guest 160 50 "--fw bios --usb '$GUEST/stick.img' --disk virtio:'$GUEST/erase_disks-v.img' --disk scsi:'$GUEST/erase_disks-s.img' --disk nvme:'$GUEST/erase_disks-n.img' --disk virtio:'$GUEST/erase_disks-m.img' --disk sata:'$GUEST/erase_disks-a.img' $slow --disk virtio:'$GUEST/rescue_chroot.img'"
