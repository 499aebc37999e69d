# SPDX-License-Identifier: MIT
# Boot test (issue 47): the arm64 stick (make image ARCH=arm64) under
# qemu-system-aarch64's virt machine with AAVMF (UEFI; shim, signed GRUB,
# signed kernel, as x86's usb_uefi.sh), under TCG. Two boots: one to the
# menu on the PL011 serial console (ttyAMA0), timed from QEMU's start; one
# unattended with Secure Boot enforced (AAVMF with Microsoft's keys, as
# usb_secureboot.sh: only Debian's signed shim, GRUB, kernel and modules
# run), the quick profile (scaled to 0.02: its four tests of 0.2 s) with
# consent on a virtio and an NVMe disk, results saved to the stick and read
# back here, where the guest's description of itself says aarch64 and its
# bootbench is the arm64 build.
# timeout: 600
# tier: arm64 (make test-arm64, which builds its image)
. tests/bootlib.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# boot(): AAVMF from the medium, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/bootbench-usb.img" ] || { echo "out/arm64/bootbench-usb.img is missing: run 'make image ARCH=arm64'"; exit 1; }
need_commands qemu-system-aarch64 mcopy mdir

# arm64_boot SERIAL-LOG qemu-arm64.sh-options...: one boot, QEMU killed after BOOT_LIMIT
arm64_boot() {
	log=$1; shift
	scripts/qemu-arm64.sh --serial "$log" --timeout "$BOOT_LIMIT" "$@"
}

# 1. To the menu: the dialog screen on ttyAMA0, then QEMU stopped.
: > "$T/menu.log"
start=$(date +%s)
arm64_boot "$T/menu.log" --snapshot --usb "$OUT/bootbench-usb.img" &
qpid=$!
while kill -0 $qpid 2>/dev/null && ! grep -q 'Esc goes back' "$T/menu.log"; do sleep 1; done
MENU_SECS=$(( $(date +%s) - start ))
if grep -q 'Esc goes back' "$T/menu.log"; then
	ok "the menu is on ttyAMA0, ${MENU_SECS}s after QEMU started"
else
	bad "the menu is on ttyAMA0 within ${BOOT_LIMIT}s"
fi
# the QEMU of this boot only: its serial log's name is this test's
pkill -TERM -f "qemu-system-aarch64.*file:$T/menu.log"; wait $qpid 2>/dev/null
tr -d '\r' < "$T/menu.log" > "$T/menu.txt"
check "GRUB's arm64 build booted the kernel from the stick" grep -q "Booting \`bootbench'" "$T/menu.txt"
check "the guest's boot log names the arm64 kernel" grep -q 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-arm64' "$T/menu.txt"
check "the menu is on the serial console ttyAMA0" grep -q 'ready on /dev/ttyAMA0' "$T/menu.txt"
# a serial line has no known terminal: VT100 and dialog's plain lines, as
# on x86's ttyS0 (TERM=linux's line drawing, the alternate character set
# shifted in by SO, reads as q and x on most terminals); what the console
# shows after its ready line, not GRUB's menu before it
sed -n '/ready on \/dev\/ttyAMA0/,$p' "$T/menu.txt" > "$T/menu-screen.txt"
check "... drawn for VT100, with plain lines" sh -c "grep -q -- '+-----*+' '$T/menu-screen.txt' && ! grep -q \"\$(printf '\\016')\" '$T/menu-screen.txt'"
grep -a 'boot finished in' "$T/menu.txt" | sed 's/^/guest: /'

# 2. Unattended, Secure Boot: quick on the virtio and the NVMe disk, results to the stick; a
# hook before the run (from the stick, its output saved with the results) says what the
# guest runs on: uname's machine and the ELF machine field of its bootbench (bytes 18-19:
# b7 00 is EM_AARCH64, 183).
mkdir -p "$T/hooks"
cat > "$T/hooks/arch.sh" <<'HOOK'
echo "machine: $(uname -m)"
echo "bootbench e_machine: $(od -An -tx1 -j18 -N2 /usr/bin/bootbench | tr -s ' ' | sed 's/^ //')"
HOOK
stick_with_conf "$T/stick.img" run=quick scale=0.02 targets=/dev/vda,/dev/nvme0n1 destroy=/dev/vda,/dev/nvme0n1 \
	save=usb after=poweroff "hook_before=hooks/arch.sh#sha256=$(sha256sum "$T/hooks/arch.sh" | cut -d' ' -f1)"
mmd -i "$T/stick.img@@1M" ::/hooks && mcopy -i "$T/stick.img@@1M" "$T/hooks/arch.sh" ::/hooks/arch.sh
test_disk "$T/virtio.img"
test_disk "$T/nvme.img"
before=$(sum_of "$T/virtio.img") before_nvme=$(sum_of "$T/nvme.img")
boot --fw secureboot --usb "$T/stick.img" --disk virtio:"$T/virtio.img" --disk nvme:"$T/nvme.img" || finish
check "the console reached the unattended run on the virtio disk" serial_has 'run: quick on /dev/vda: exit status 0'
check "... and on the NVMe disk" serial_has 'run: quick on /dev/nvme0n1: exit status 0'
check "both disks were written (consent given)" \
	[ "$(sum_of "$T/virtio.img")" != "$before" -a "$(sum_of "$T/nvme.img")" != "$before_nvme" ]
fetch_results "$T/stick.img" || { bad "a results folder is on the stick"; finish; }
ok "a results folder is on the stick"
# quick's four tests each, in fio's layout, each moved data without error (io_uring on arm64)
QUICK="['randread-4k-qd32', 'seqread-1m-qd8', 'randwrite-4k-qd32', 'write-4k-fsync']"
for d in vda nvme0n1; do
	check "$d.json: the quick profile's four tests in fio's layout, each without error, each with I/O done" json "$T/results/$d.json" \
		"'fio version' in d and [j['jobname'] for j in d['jobs']] == $QUICK and
		 all(j['error'] == 0 and j['read']['io_bytes'] + j['write']['io_bytes'] > 0 for j in d['jobs'])"
done
check "... the NVMe disk's by its controller's serial" json "$T/results/disks.json" \
	'any(x["serial"].startswith("BBNVME") and x["transport"] == "nvme" for x in d["disks"])'
check "disks.json has the virtio disk with its serial" json "$T/results/disks.json" \
	'any(x["serial"] == "BBVIRTIO1" for x in d["disks"])'
check "the console log is saved" grep -q 'unattended run finished, exit status 0' "$T/results/console.log"
check "the system description names the arm64 kernel" grep -q '^Kernel: *6\.[0-9.]*-[0-9]*-arm64 ' "$T/results/system.txt"
check "the kernel saw Secure Boot enabled" grep -q '^secure boot (kernel): enabled' "$T/results/system.txt"
check "sysinfo reads Secure Boot from the EFI variable" grep -q 'UEFI, Secure Boot enabled' "$T/results/system.txt"
check "the kernel is locked down (integrity)" grep -q '^lockdown: integrity' "$T/results/system.txt"
check "the guest is an aarch64 machine (uname -m in the hook)" grep -qx 'machine: aarch64' "$T/results/hook-before.log"
check "the guest's bootbench is an aarch64 program (ELF machine b7 00)" grep -qx 'bootbench e_machine: b7 00' "$T/results/hook-before.log"
finish
