# SPDX-License-Identifier: MIT
# Boot test (issue 47): the arm64 ISO as a CD-ROM (virtio-scsi) under
# qemu-system-aarch64's virt machine with AAVMF, TCG: shim and signed GRUB
# from its El Torito EFI image, the signed kernel and the parts from the
# ISO itself, as iso_uefi.sh for x86_64. The ISO is read-only, so a copy
# gets a bootbench.conf by xorriso; the results go to the serial console.
# The run is the ZFS comparison (bootbench.zfs=mirror, the mdraid profile
# scaled down to its least: rows, not figures, are checked) on two NVMe
# disks: the ZFS pack's modules, cross-built for the arm64 kernel
# (scripts/build-zfs.sh), load, and a mirror is made, measured against one
# disk and destroyed (AAVMF without Secure Boot: the modules are unsigned).
# timeout: 600
# tier: arm64 (make test-arm64, which builds its image)
. tests/bootlib.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# boot(): AAVMF from the medium, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/bootbench.iso" ] || { echo "out/arm64/bootbench.iso is missing: run 'make image ARCH=arm64'"; exit 1; }
need_commands qemu-system-aarch64 xorriso
printf '%s\n' run=mdraid zfs=mirror scale=0.002 targets=nvme0n1,nvme1n1 destroy=nvme0n1,nvme1n1 save=console after=poweroff > "$T/bootbench.conf"
xorriso -indev "$OUT/bootbench.iso" -outdev "$T/test.iso" -boot_image any replay \
	-map "$T/bootbench.conf" /bootbench.conf >/dev/null 2>&1 || { bad "xorriso could add bootbench.conf"; finish; }
# the first disk random bytes (the smoke run's writes must change it), the
# second empty; 128 MiB each: a ZFS vdev needs 64 MiB after its partition
test_disk "$T/nvme.img"
truncate -s 128M "$T/nvme.img" "$T/nvme2.img"
before=$(sum_of "$T/nvme.img")
boot --cdrom "$T/test.iso" --disk nvme:"$T/nvme.img" --disk nvme:"$T/nvme2.img" || finish
check "the boot medium is the CD" serial_has 'media: /dev/sr0 (iso9660), read-only'
check "the guest's boot log names the arm64 kernel" grep -q 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-arm64' "$T/serial.log"
check "the comparison exited 0" serial_has 'raid: exit status 0'
check "... its mirror destroyed and its labels cleared" serial_has 'bootbench-mirror-2 destroyed, labels cleared'
check "the disk was written (consent given)" [ "$(sum_of "$T/nvme.img")" != "$before" ]
if console_file baseline-nvme0n1.json; then
	check "the first disk's baseline: fio's layout, every job without error, on the virtual NVMe disk" json "$T/console-baseline-nvme0n1.json" \
		'"fio version" in d and len(d["jobs"]) == 4 and all(j["error"] == 0 for j in d["jobs"]) and "BBNVME1" in json.dumps(d["bootbench"])'
else
	bad "the first disk's baseline JSON is on the console"
fi
if console_file raid.json; then
	check "raid.json: the ZFS mirror of the two disks measured without error, relative to one disk" json "$T/console-raid.json" \
		'[(l["kind"], l["level"]) for l in d["levels"]] == [("zfs", "zfs-mirror/2")] and
		 all(l["status"] == 0 and l["results"] and all(r["vs_baseline"] > 0 for r in l["results"]) for l in d["levels"])'
	check "... by the cross-built OpenZFS of the image (2.1)" json "$T/console-raid.json" 'd["zfs"]["version"].startswith("2.1.")'
else
	bad "raid.json is on the console"
fi
finish
