# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_erase.sh; issue 16): bootbench
# chroot in the image, from the shell on the serial console, on a virtual
# disk laid out as an installed system is (this check's: the guest's third
# virtio disk, /dev/vdc, after erase_disks.sh's two): GPT, an ESP (vfat), a
# separate ext4 /boot with the boot loader's grub.cfg, and an ext4 root
# (busybox as its userland, os-release, an fstab naming /boot by UUID and
# the ESP by PARTUUID). The image has no udev: the fstab's devices are found
# by probing. --list names the system with its /boot and ESP; a chroot sees
# both mounted and the installed system's command line; kill -9 of the
# helper leaves no mount and no process; the boot medium is refused; the
# menu's Rescue entry lists the system, opens a read-only shell in it and
# checks its filesystems without changing them, all of it in a rescue.log
# that Save results puts on the stick; the disk is unchanged afterwards
# (nothing was written without --write). First of its guest's checks: the
# only results folder Save finds is its rescue's.
# screen: 160x50
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	need_commands sfdisk mkfs.ext4 mkfs.vfat mcopy
	[ -x out/busybox/busybox ] || { echo "out/busybox/busybox is missing: run 'make image'"; exit 1; }
	ROOT_UUID=6f1e2d3c-0000-4000-8000-0000000000aa BOOT_UUID=6f1e2d3c-0000-4000-8000-0000000000bb
	ESP_PARTUUID=6f1e2d3c-0000-4000-8000-0000000000cc
	mkdir -p "$T/esp/EFI/debian" "$T/boot/grub" "$T/root/etc" "$T/root/usr/lib" "$T/root/bin" "$T/root/sbin" \
		"$T/root/boot" "$T/root/proc" "$T/root/sys" "$T/root/dev" "$T/root/run" "$T/root/tmp" "$T/root/root"
	echo "a stand-in for grubx64.efi" > "$T/esp/EFI/debian/grubx64.efi"
	printf 'menuentry "Debian" {\n\tlinux /vmlinuz-6.1.0-57-amd64 root=UUID=%s ro quiet\n}\n' "$ROOT_UUID" > "$T/boot/grub/grub.cfg"
	cp out/busybox/busybox "$T/root/bin/busybox"
	for a in $(out/busybox/busybox --list); do [ -e "$T/root/bin/$a" ] || ln -s busybox "$T/root/bin/$a"; done
	ln -s /bin/busybox "$T/root/sbin/init"
	printf 'PRETTY_NAME="Bootbench Test Linux 1.0"\nID=bbtest\nVERSION_ID=1.0\n' > "$T/root/usr/lib/os-release"
	ln -s ../usr/lib/os-release "$T/root/etc/os-release"
	printf 'root:x:0:0:root:/root:/bin/sh\n' > "$T/root/etc/passwd"
	printf 'UUID=%s / ext4 errors=remount-ro 0 1\nUUID=%s /boot ext4 defaults 0 2\nPARTUUID=%s /boot/efi vfat umask=0077 0 1\n' \
		"$ROOT_UUID" "$BOOT_UUID" "$ESP_PARTUUID" > "$T/root/etc/fstab"
	mkdir -p "$T/boot/efi"	# the ESP's mount point is on the /boot filesystem
	truncate -s 32M "$T/esp.img" && mkfs.vfat -n ESP "$T/esp.img" >/dev/null && mcopy -s -i "$T/esp.img" "$T/esp/EFI" ::/
	truncate -s 32M "$T/boot.img" && mkfs.ext4 -q -U "$BOOT_UUID" -d "$T/boot" "$T/boot.img"
	truncate -s 64M "$T/root.img" && mkfs.ext4 -q -U "$ROOT_UUID" -d "$T/root" "$T/root.img"
	# a second root on the disk whose programs are for arm64 (its busybox's
	# ELF header says so): a disk from an arm64 server, which this x86_64
	# machine cannot run
	cp -a "$T/root" "$T/root64"
	printf 'PRETTY_NAME="Bootbench Test Linux arm64"\nID=bbtest\nVERSION_ID=1.0\n' > "$T/root64/usr/lib/os-release"
	printf '\267\000' | dd of="$T/root64/bin/busybox" bs=1 seek=18 conv=notrunc status=none
	truncate -s 16M "$T/root64.img" && mkfs.ext4 -q -d "$T/root64" "$T/root64.img"
	truncate -s 150M "$GUEST/rescue_chroot.img"
	sfdisk -q "$GUEST/rescue_chroot.img" <<-TABLE
	label: gpt
	start=1MiB, size=32MiB, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, uuid=$ESP_PARTUUID
	start=33MiB, size=32MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
	start=65MiB, size=64MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
	start=129MiB, size=16MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
	TABLE
	dd if="$T/esp.img" of="$GUEST/rescue_chroot.img" bs=1M seek=1 conv=notrunc status=none
	dd if="$T/boot.img" of="$GUEST/rescue_chroot.img" bs=1M seek=33 conv=notrunc status=none
	dd if="$T/root.img" of="$GUEST/rescue_chroot.img" bs=1M seek=65 conv=notrunc status=none
	dd if="$T/root64.img" of="$GUEST/rescue_chroot.img" bs=1M seek=129 conv=notrunc status=none
	sum_of "$GUEST/rescue_chroot.img" > "$GUEST/rescue_chroot.before"
	exit 0
fi
guest_attach
need_commands tmux mcopy
ROOT_UUID=6f1e2d3c-0000-4000-8000-0000000000aa
before=$(cat "$GUEST/rescue_chroot.before")
step "the menu is on the screen" "Esc goes back" 30
sleep 2	# dialog drops what is typed while it starts
keys 6 6 Enter
step "Rescue lists the installed systems" "Which installed system?" 60
# the list is drawn after its prompt: waited for, not read at once (a fresh
# root under load read the screen before the row was on it)
step "... the one on the disk, by its name" "/dev/vdc3 *Bootbench Test Linux 1.0" 30 E
# the arm64 one: picked, it is refused at once, saying why
check "... and the arm64 one, marked first" shows "/dev/vdc4 *(arm64) Bootbench Test Linux arm64"
keys Down Enter
# (the box wraps its text: words of one line each)
step "the arm64 system is refused, saying why" "Rescue it on an arm64 machine" 30
check "... the machine its programs are for" shows "The system on /dev/vdc4 is built for arm64"
check "... and this one's" shows "run on this x86_64 machine"
keys Enter
step "back in the menu, nothing offered for it" "Esc goes back" 30
sleep 2	# dialog drops what is typed while it starts
keys 6 6 Enter
step "Rescue lists the installed systems again" "/dev/vdc3 *Bootbench Test Linux 1.0" 60 E
keys Enter
step "... and offers a read-only shell first" "read-only: nothing can be changed" 30
start=$(date +%s)
keys Enter
step "a shell in the installed system comes up" "(chroot) /#" 60
echo "menu entry to the chroot's shell: $(( $(date +%s) - start )) s (TCG)"
type_line "echo INSIDE=\$(cat /etc/os-release | grep -c 'Bootbench Test') MOUNTS=\$(grep -c ' /boot' /proc/mounts)"
step "... it is the installed system, /boot and the ESP mounted" "INSIDE=1 MOUNTS=2" 30
type_line "exit"
# the session is recorded first: a boot's first record describes the system (under TCG
# on one vCPU, loaded, over a minute)
step "leaving it says the exit status" "bootbench chroot: exit status 0" 240
keys Enter
step "back in the menu" "Esc goes back" 30
sleep 2	# dialog drops what is typed while it starts
keys 6 6 Enter
step "Rescue again" "Which installed system?" 60
keys Enter
step "... offers to check the filesystems" "check its filesystems" 30
keys c Enter
step "the check runs each filesystem's checker in its no-change mode" "fsck: e2fsck -f -n /dev/vdc3: exit status 0" 120
keys G	# the end of the text
check "... the ESP's too" shows "fsck: fsck.fat -n /dev/vdc1: exit status 0"
keys Enter
step "clean: back in the menu" "Esc goes back" 30
sleep 2
keys 5 Enter
step "Save offers the stick" "Where to?" 30
keys Enter
step "the rescue session is saved like a run" "1 run(s) saved to results/ on the stick" 60
keys Enter
step "back in the menu after saving" "Esc goes back" 30
sleep 2
keys 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30

type_line "clear; bootbench chroot --list > /tmp/l 2>&1; RC=\$?; cat /tmp/l; echo RC-LIST=\$RC"
step_result "chroot --list: exit 0" RC-LIST "RC-LIST=0" 120
check "... it names the system on the root partition" shows "^Bootbench Test Linux 1.0 *\/dev\/vdc3 *ext4 "
check "... with /boot and the ESP from its fstab (UUID=, PARTUUID=)" shows "/boot: /dev/vdc2  ESP: /dev/vdc1"

type_line "clear; bootbench chroot /dev/vdc3 -- sh -c 'cat /proc/cmdline; grep \" /boot\" /proc/mounts; ls /boot/efi/EFI/debian' > /tmp/c 2>&1; RC=\$?; cat /tmp/c; echo RC-CHROOT=\$RC"
step_result "a chroot runs a command: exit 0" RC-CHROOT "RC-CHROOT=0" 120
check "... /proc/cmdline is the installed system's" shows "^root=UUID=$ROOT_UUID ro quiet"
check "... /boot is mounted read-only" shows "^/dev/vdc2 /boot ext4 ro,"
check "... and the ESP on /boot/efi" shows "^/dev/vdc1 /boot/efi vfat ro,"
check "... whose files are there" shows "^grubx64.efi"

type_line "clear; bootbench chroot -q /dev/vdc3 -- sleep 300 & sleep 5; kill -9 \$!; sleep 2; echo LEFT=\$(cat /proc/[0-9]*/mountinfo | grep -c ' /dev/vdc') SLEEPS=\$(pgrep -f '^sleep 300' | wc -l) RC-KILL=\$((0))"
step_result "kill -9 of the helper mid-session" RC-KILL "RC-KILL=0" 60
check "... leaves no mount of the disk, in any namespace" shows "LEFT=0 SLEEPS=0"

type_line "clear; bootbench chroot /dev/vdc4 -- true > /tmp/a 2>&1; RC=\$?; cat /tmp/a; echo RC-ARM64=\$RC LEFT=\$(grep -c ' /dev/vdc4 ' /proc/mounts)"
step_result "a chroot into the arm64 system: exit 2, nothing mounted" RC-ARM64 "RC-ARM64=2 LEFT=0" 60
check "... one line naming the two machines" shows "bootbench: chroot: /dev/vdc4 holds a system for arm64: its programs cannot run on this x86_64 machine"

# the stick by what it is: the guest has SCSI and SATA disks too (erase_disks.sh's)
type_line "clear; M=\$(bootbench disks --media | head -n1)1; bootbench chroot \$M > /tmp/b 2>&1; A=\$?; bootbench chroot --write=\$M /dev/vdc3 > /tmp/w 2>&1; B=\$?; cat /tmp/b /tmp/w; echo RC-MEDIUM=\$A,\$B"
step_result "the boot medium as ROOT, or in --write: exit 2 each" RC-MEDIUM "RC-MEDIUM=2,2" 60
check "... refused, naming why" shows "bootbench: chroot: /dev/sd[a-z]1: it is the boot medium.*: refused"
check "... --write of it too" shows "bootbench: chroot: --write: .*boot medium"

# the guest runs on: its /tmp without this check's files (erase_disks.sh,
# next, makes folders of two of their names), the stick read here once
# the guest has synced it
type_line "clear; rm -f /tmp/l /tmp/c /tmp/b /tmp/w /tmp/a; sync; echo SYNCED=\$((0))"
step_result "the disks synced" SYNCED "SYNCED=0" 60
type_line "exit"
step "back in the menu" "Esc goes back" 30
check "the disk is unchanged (nothing written without --write)" [ "$(sum_of "$GUEST/rescue_chroot.img")" = "$before" ]
if fetch_results "$GUEST/stick.img" > /dev/null; then
	check "the stick has the rescue session's log: the shell and the check, with exit statuses" \
		sh -c "grep -q 'a shell in the installed system on /dev/vdc3 (read-only) ended with exit status 0' '$T/results/rescue.log' && grep -q '^fsck: e2fsck -f -n /dev/vdc3: exit status 0' '$T/results/rescue.log'"
	check "... and the shell's session as it was shown (what was typed and printed)" \
		sh -c "grep -q 'INSIDE=1 MOUNTS=2' '$T/results/rescue.log' && grep -q '(chroot) /# echo INSIDE=' '$T/results/rescue.log'"
	check "... and the system description" grep -q '^CPU: ' "$T/results/system.txt"
else
	bad "a results folder is on the stick"
fi
finish
