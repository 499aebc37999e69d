#!/bin/sh
# SPDX-License-Identifier: MIT
# `make run`: boots the stick in QEMU as a user would meet it, with three
# empty test disks (virtio, NVMe, SCSI; 1 GiB each, sparse) and the serial
# console in this terminal. The stick is a copy (out/run/stick.img) so saved
# results survive between runs and the built image stays as built; it is
# refreshed when the image is rebuilt. Usage: scripts/run.sh [bios|uefi|secureboot]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN=$ROOT/out/run
fw=${1:-bios}
mkdir -p "$RUN"
if [ ! -f "$RUN/stick.img" ] || [ "$ROOT/out/bootbench-usb.img" -nt "$RUN/stick.img" ]; then
	cp "$ROOT/out/bootbench-usb.img" "$RUN/stick.img"
fi
for d in virtio nvme scsi; do
	[ -f "$RUN/$d.img" ] || truncate -s 1G "$RUN/$d.img"
done
echo "bootbench: booting out/run/stick.img ($fw) with test disks virtio, nvme, scsi; Ctrl-A X quits QEMU"
exec "$ROOT/scripts/qemu.sh" --fw "$fw" --usb "$RUN/stick.img" \
	--disk virtio:"$RUN/virtio.img" --disk nvme:"$RUN/nvme.img" --disk scsi:"$RUN/scsi.img"
