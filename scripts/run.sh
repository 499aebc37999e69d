#!/bin/sh
# SPDX-License-Identifier: MIT
# `make run`: boots the stick in QEMU as a user would meet it, with three
# empty test disks (virtio, NVMe, SCSI; 1 GiB each, sparse) and the serial
# console in this terminal. The stick is a copy (out/run/stick.img) so saved
# results survive between runs and the built image stays as built; it is
# refreshed when the image is rebuilt. Usage: scripts/run.sh [bios|uefi|secureboot]
# ARCH=arm64 (make's): out/arm64's stick in qemu-system-aarch64's virt
# machine with AAVMF (scripts/qemu-arm64.sh; UEFI only: FW uefi or secureboot).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${ARCH:-x86_64} in
x86_64) OUT=$ROOT/out QEMU=$ROOT/scripts/qemu.sh fw=${1:-bios} ;;
arm64) OUT=$ROOT/out/arm64 QEMU=$ROOT/scripts/qemu-arm64.sh fw=${1:-uefi} ;;
*) echo "run: ARCH=$ARCH: no such ARCH (x86_64, arm64)" >&2; exit 2 ;;
esac
RUN=$OUT/run
mkdir -p "$RUN"
if [ ! -f "$RUN/stick.img" ] || [ "$OUT/bootbench-usb.img" -nt "$RUN/stick.img" ]; then
	cp "$OUT/bootbench-usb.img" "$RUN/stick.img"
fi
for d in virtio nvme scsi; do
	[ -f "$RUN/$d.img" ] || truncate -s 1G "$RUN/$d.img"
done
echo "bootbench: booting ${RUN#$ROOT/}/stick.img ($fw) with test disks virtio, nvme, scsi; Ctrl-A X quits QEMU"
exec "$QEMU" --fw "$fw" --usb "$RUN/stick.img" \
	--disk virtio:"$RUN/virtio.img" --disk nvme:"$RUN/nvme.img" --disk scsi:"$RUN/scsi.img"
