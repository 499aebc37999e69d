# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_menu.sh; issue 16): an installed
# system on btrfs subvolume @ in LVM on LUKS2, made in the guest from the
# shell on the serial console (cryptsetup, lvm and mkfs.btrfs of the
# image) on this check's virtio disk (the guest's only one, /dev/vda),
# then found by bootbench chroot: --list alone does not see it (nothing is
# opened or activated unasked); --list --open --activate asks for the
# passphrase on the terminal (a wrong one first, then the right one) and
# names the system on the logical volume with its subvolume; a chroot into
# it runs; three wrong passphrases end in one line, exit 2; the menu's
# Rescue entry offers to open it, asks for the passphrase and lists the
# system inside; its screens past that fit 80x24 (what can be done, a
# repair's consent, going back from it, which changes nothing). The shell's part at 160x50 (more of its lines on the
# screen), the menu's at 80x24. Last of its guest's checks: the others
# see no installed system.
# screen: 80x24
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	truncate -s 600M "$GUEST/rescue_luks_lvm.img"
	exit 0
fi
guest_attach
need_commands tmux
menu_shell
console_size 160 50
P="bb pass,1"
# LUKS2 with argon2id at its fewest iterations (4) and 8 MiB, given (no benchmark): TCG is slow,
# and each unlock below derives the key again (issue 49)
type_line "clear; echo -n '$P' | cryptsetup luksFormat --type luks2 --batch-mode --pbkdf argon2id --pbkdf-memory 8192 --pbkdf-force-iterations 4 /dev/vda - && echo -n '$P' | cryptsetup open /dev/vda setup - && lvm pvcreate -q /dev/mapper/setup && lvm vgcreate -q bbvg /dev/mapper/setup && lvm lvcreate -q -L 300M -n root bbvg && mkfs.btrfs -q /dev/mapper/bbvg-root && mount -t btrfs /dev/mapper/bbvg-root /mnt && btrfs -q subvolume create /mnt/@ && R=/mnt/@ && mkdir -p \$R/bin \$R/sbin \$R/etc \$R/proc \$R/sys \$R/dev \$R/run \$R/tmp \$R/root && cp /bin/busybox \$R/bin/ && ln -s busybox \$R/bin/sh && ln -s busybox \$R/bin/cat && ln -s /bin/busybox \$R/sbin/init && echo 'PRETTY_NAME=\"Bootbench LUKS Linux 2.0\"' > \$R/etc/os-release && echo '/dev/mapper/bbvg-root / btrfs subvol=@ 0 0' > \$R/etc/fstab && umount /mnt && lvm vgchange -q -an bbvg && cryptsetup close setup; echo RC-MAKE=\$?"
step_result "the LUKS2 + LVM + btrfs @ system is made" RC-MAKE "RC-MAKE=0" 600

# passphrase TEXT: typed at cryptsetup's prompt. The prompt is printed
# before cryptsetup turns echo off and flushes the terminal's input
# (tcsetattr TCSAFLUSH): what a loaded guest received in between shows
# echoed after the prompt and was discarded, so it is typed again.
passphrase() {
	type_line "$1"
	_i=0; while [ $_i -lt 6 ]; do
		sleep 0.5
		if screen | grep -qF "Enter passphrase for /dev/vda: $1"; then
			echo "    (typed before cryptsetup turned echo off: discarded, typed again)"
			type_line "$1"
			return
		fi
		_i=$((_i + 1))
	done
}
type_line "clear; bootbench chroot --list; echo RC-PLAIN=\$?"
step_result "--list alone: exit 0" RC-PLAIN "RC-PLAIN=0" 120
check "... finds nothing: the volume stays closed unasked" shows "^no installed system found"

type_line "clear; bootbench chroot --list --open=/dev/vda --activate; echo RC-OPEN=\$?"
step "--open asks for the passphrase on the terminal" "Enter passphrase for /dev/vda" 120
passphrase "wrong passphrase"
step "... a wrong one is refused and asked again" "No key available with this passphrase" 120
passphrase "$P"
step_result "... the right one opens it: exit 0" RC-OPEN "RC-OPEN=0" 300
check "... read-only, as /dev/mapper/luks-UUID" shows "opening the LUKS volume /dev/vda as /dev/mapper/luks-[0-9a-f-]* (read-only)"
check "... the system on the logical volume, btrfs subvolume @" shows "^Bootbench LUKS Linux 2.0 *\/dev\/mapper\/bbvg-root *btrfs .*subvol=@"

type_line "clear; bootbench chroot -q /dev/mapper/bbvg-root -- sh -c 'cat /etc/os-release; cat /proc/mounts' 2>&1 | grep -e PRETTY -e ' / '; echo RC-IN=\$?"
step_result "a chroot into it runs" RC-IN "RC-IN=0" 120
check "... the root is the subvolume @, read-only" shows "^/dev/mapper/bbvg-root / btrfs ro,.*subvol=/@"

type_line "clear; lvm vgchange -q -an bbvg; cryptsetup close /dev/mapper/luks-*; bootbench chroot --list --open=/dev/vda > /tmp/o 2>&1; echo RC-WRONG=\$?"
step "the passphrase is asked again" "Enter passphrase for /dev/vda" 120
# each try costs argon2id's time under TCG: the next prompt comes after it
for w in 1 2 3; do
	passphrase "wrong $w"
	i=0; while [ "$(screen | grep -c 'Enter passphrase for /dev/vda')" -le $w ] && [ $i -lt 120 ] && [ $w -lt 3 ]; do sleep 1; i=$((i + 1)); done
done
step_result "three wrong passphrases: exit 2" RC-WRONG "RC-WRONG=2" 300
type_line "clear; tail -n 1 /tmp/o; echo LINES=\$(grep -c 'bootbench: chroot' /tmp/o) RC-LINE=\$((0))"
step_result "... with one line saying so" RC-LINE "LINES=1" 30
check "... naming the volume" shows "bootbench: chroot: --open=/dev/vda: no key fits (a wrong passphrase, 3 tries)"
# the menu: Rescue offers to open the volume, asks for the passphrase, lists the system
console_size 80 24
type_line "exit"
step "back in the menu" "Esc goes back" 30
sleep 2	# dialog drops what is typed while it starts
keys 6 6 Enter
step "Rescue offers to open the encrypted volume" "Encrypted (LUKS) volumes: /dev/vda" 60
keys Enter
step "... asks for its passphrase" "Enter passphrase for /dev/vda" 120
passphrase "$P"
step "... and lists the system inside" "Which installed system?" 300
step "... on the logical volume" "/dev/mapper/bbvg-root *Bootbench LUKS Linux 2.0" 30 E	# drawn after the prompt
fits "Rescue: the installed systems"
# past the first screen at 80x24 (issue 48): what can be done, the consent a repair asks,
# and going back from it, which changes nothing
keys Enter
step "Rescue: what can be done to the system" "The installed system:" 30
fits "Rescue: what can be done"
keys b Enter
step "... a repair asks for consent, naming the devices" "Type the device names" 30
fits "Rescue: the repair's consent"
check "... the system's logical volume among them" shows "/dev/mapper/bbvg-root"
keys Escape
step "... Esc goes back: nothing was changed, and it says so" "Not confirmed: nothing was changed." 30
fits "Rescue: not confirmed"
keys Enter
step "back in the menu" "Esc goes back" 30
# the volume the menu opened closed again: the guest as this check found it
sleep 2
keys 7 Enter
step "the shell again" "Type 'exit' to return to the menu." 30
type_line "clear; lvm vgchange -q -an bbvg; cryptsetup close /dev/mapper/luks-*; echo CLOSED=\$(ls /dev/mapper | grep -c -e luks- -e bbvg)"
step_result "... where the volume is closed" CLOSED "CLOSED=0" 60
type_line "exit"
step "back in the menu" "Esc goes back" 30
finish
