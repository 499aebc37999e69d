# SPDX-License-Identifier: MIT
# Shared guest (issue 49: boot once, check many): the stick as built, booted
# once at 160x50 in a machine with a BMC (QEMU's ipmi-bmc-sim) and the
# disks of the checks below, each a test of its own (tests/guest/NAME.sh,
# reported by the runner as NAME.sh), run in turn from the menu's shell:
# NVMe passthrough (nvme_passthrough: the second NVMe disk, QEMU's disk3,
# nvme1n1), the burn-in of a SATA drive (burnin_sata), of the BMC
# (burnin_bmc), of an NVMe drive that QEMU's monitor makes fail
# (burnin_nvme: the first NVMe disk, QEMU's disk1, nvme0n1; last, its
# drive left warning). Then the menu powers it off.
# checks: nvme_passthrough burnin_sata burnin_bmc burnin_nvme
# timeout: 600
. tests/bootlib.sh
need_artifacts
need_commands tmux python3
guest_prepare
stick_with_conf "$GUEST/stick.img"
shared_guest 160 50 "--fw bios --usb '$GUEST/stick.img' --bmc --monitor '$GUEST/mon' --disk nvme:'$GUEST/burnin_nvme.img' --disk sata:'$GUEST/burnin_sata.img' --disk nvme:'$GUEST/nvme_passthrough.img'"
