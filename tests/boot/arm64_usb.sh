# SPDX-License-Identifier: MIT
# Boot test (issue 47): the arm64 stick (make image ARCH=arm64) under
# qemu-system-aarch64's virt machine with AAVMF (UEFI; shim, signed GRUB,
# signed kernel, as x86's usb_uefi.sh), under TCG. Two boots: one to the
# menu on the PL011 serial console (ttyAMA0), timed from QEMU's start; one
# unattended with Secure Boot enforced (AAVMF with Microsoft's keys, as
# usb_secureboot.sh: only Debian's signed shim, GRUB, kernel and modules
# run), the smoke profile with consent on a virtio disk, results saved to
# the stick and read back here, where the guest's description of itself
# says aarch64 and its bootbench is the arm64 build.
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

# 2. Unattended, Secure Boot: smoke on the virtio disk, results to the stick; a hook
# before the run (from the stick, its output saved with the results) says
# what the guest runs on: uname's machine and the ELF machine field of its
# bootbench (bytes 18-19: b7 00 is EM_AARCH64, 183).
mkdir -p "$T/hooks"
cat > "$T/hooks/arch.sh" <<'HOOK'
echo "machine: $(uname -m)"
echo "bootbench e_machine: $(od -An -tx1 -j18 -N2 /usr/bin/bootbench | tr -s ' ' | sed 's/^ //')"
HOOK
stick_with_conf "$T/stick.img" run=smoke scale=$SMOKE_SCALE targets=/dev/vda destroy=/dev/vda save=usb after=poweroff \
	"hook_before=hooks/arch.sh#sha256=$(sha256sum "$T/hooks/arch.sh" | cut -d' ' -f1)"
mmd -i "$T/stick.img@@1M" ::/hooks && mcopy -i "$T/stick.img@@1M" "$T/hooks/arch.sh" ::/hooks/arch.sh
test_disk "$T/virtio.img"
before=$(sum_of "$T/virtio.img")
boot --fw secureboot --usb "$T/stick.img" --disk virtio:"$T/virtio.img" || finish
check "the console reached the unattended run" serial_has 'run: smoke on /dev/vda: exit status 0'
check "the disk was written (consent given)" [ "$(sum_of "$T/virtio.img")" != "$before" ]
fetch_results "$T/stick.img" || { bad "a results folder is on the stick"; finish; }
ok "a results folder is on the stick"
check "result is JSON in fio's layout" json "$T/results/vda.json" '"fio version" in d and len(d["jobs"]) == 2'
check "the write job wrote $SMOKE_MIB MiB (16 MiB scaled by $SMOKE_SCALE) without error" json "$T/results/vda.json" \
	"d['jobs'][0]['error'] == 0 and d['jobs'][0]['write']['io_bytes'] == $SMOKE_MIB << 20"
check "the read job read $SMOKE_MIB MiB without error" json "$T/results/vda.json" \
	"d['jobs'][1]['error'] == 0 and d['jobs'][1]['read']['io_bytes'] == $SMOKE_MIB << 20"
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
