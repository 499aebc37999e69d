# SPDX-License-Identifier: MIT
# bootbench chroot (issue 16) on this host, over loop devices holding a
# small installed system: an ext4 root (os-release through a relative link,
# /sbin/init an absolute link resolved inside it, busybox as its shell, a
# resolv.conf link into /run) and a separate ext4 /boot its fstab names by
# UUID, beside lines a chroot must skip (swap, nfs, noauto, a missing
# nofail device). --list finds the system and nothing else; a chroot runs
# commands with /boot mounted, the installed system's /proc/cmdline, its
# own PID namespace, and writes nothing without --write; with --write the
# root is writable; kill -9 of the helper leaves no mount and no process;
# bad input gets one line, exit 2, and nothing mounted.
# With none of its lane beside it: bootbench chroot --list mounts every
# filesystem of the machine, read-only, to look for installed systems, a
# neighbour test's too, whose own mount or exclusive open then fails.
# quiet
. tests/lib.sh
need_commands mkfs.ext4 blkid debugfs unshare
[ -x out/busybox/busybox ] || { echo "out/busybox/busybox is missing: run 'make image'"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, namespaces)"
mkdir -p "$T/boot/grub" "$T/root/etc" "$T/root/usr/lib" "$T/root/bin" "$T/root/sbin" "$T/root/boot" \
	"$T/root/proc" "$T/root/sys" "$T/root/dev" "$T/root/run" "$T/root/tmp" "$T/root/root"
printf 'menuentry "Test" {\n\tlinux /vmlinuz-6.1.0 root=UUID=1234 ro quiet bbtest=installed\n}\n' > "$T/boot/grub/grub.cfg"
truncate -s 32M "$T/boot.img"
mkfs.ext4 -q -L BBTESTBOOT -d "$T/boot" "$T/boot.img"
loopdev BOOT "$T/boot.img" 32M
BOOT_UUID=$(blkid -p -s UUID -o value "$BOOT")	# -p: not a cached answer for an earlier loop device
cp out/busybox/busybox "$T/root/bin/busybox"
for a in $(out/busybox/busybox --list); do [ -e "$T/root/bin/$a" ] || ln -s busybox "$T/root/bin/$a"; done
ln -s /bin/busybox "$T/root/sbin/init"
printf 'PRETTY_NAME="Bootbench Test Linux 1.0"\nNAME="Bootbench Test"\nID=bbtest\nVERSION_ID=1.0\n' > "$T/root/usr/lib/os-release"
ln -s ../usr/lib/os-release "$T/root/etc/os-release"
ln -s /run/systemd/resolve/stub-resolv.conf "$T/root/etc/resolv.conf"
# root's shell first, then an account that cannot log in (the last line of the file)
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$T/root/etc/passwd"
cat > "$T/root/etc/fstab" <<FSTAB
# <file system> <mount point> <type> <options> <dump> <pass>
/dev/disk/by-uuid/nonexistent-root  /  ext4  errors=remount-ro  0 1
UUID=$BOOT_UUID  /boot  ext4  defaults,noatime  0 2
/swapfile  none  swap  sw  0 0
nas:/export  /mnt/nas  nfs  defaults  0 0
LABEL=usbdisk  /media/usb  vfat  noauto  0 0
LABEL=notthere  /data  ext4  defaults,nofail  0 2
FSTAB
truncate -s 64M "$T/root.img"
mkfs.ext4 -q -d "$T/root" "$T/root.img"
loopdev ROOT "$T/root.img" 64M
mounted_anywhere() { # dev: in any process's mount namespace
	for f in /proc/[0-9]*/mountinfo; do awk -v d="$1" '$0 ~ " - [^ ]+ " d " " { f = 1 } END { exit !f }' "$f" 2>/dev/null && return 0; done
	return 1
}
not() { ! "$@"; }

"$BB" chroot --list > "$T/list" 2>&1
check "--list: exit 0" [ $? = 0 ]
cat "$T/list"
check "--list names the system, its root device and filesystem" grep -q "^Bootbench Test Linux 1.0 *$ROOT *ext4 " "$T/list"
check "... its /boot from the fstab's UUID" grep -q "/boot: $BOOT " "$T/list"
check "... and no other system (the /boot filesystem is none)" [ "$(grep -c . "$T/list")" = 1 ]
"$BB" chroot --list --json > "$T/list.json"
check "--list --json: the system with its os-release ID and command line" json "$T/list.json" \
	"[s['id'] for s in d['systems']] == ['bbtest'] and d['systems'][0]['cmdline'] == 'root=UUID=1234 ro quiet bbtest=installed'"
check "--list leaves nothing mounted" not mounted_anywhere "$ROOT"

before=$(sha256sum < "$T/root.img")
"$BB" chroot "$ROOT" -- sh -c 'cat /proc/cmdline; echo init=$(cat /proc/1/comm) processes=$(ls -d /proc/[0-9]* | wc -l); cat /proc/mounts; ls /boot/grub; cat /etc/os-release | head -n1; touch /written 2>/dev/null && echo WROTE; exit 0' > "$T/out" 2>&1
rc=$?
cat "$T/out"
check "a read-only chroot runs the command: exit 0" [ $rc = 0 ]
check "... /proc/cmdline is the installed system's (its grub.cfg)" grep -qx 'root=UUID=1234 ro quiet bbtest=installed' "$T/out"
check "... in a PID namespace of its own: bootbench its init, no other process" grep -qx 'init=bootbench processes=[2-6]' "$T/out"
check "... /boot from the fstab is mounted, read-only" grep -q "^$BOOT /boot ext4 ro," "$T/out"
check "... the root is read-only" grep -q "^$ROOT / ext4 ro," "$T/out"
check "... proc and sysfs read-only, a tmpfs /dev of its own, read-only; a tmpfs /run and /tmp" sh -c "grep -q '^proc /proc proc ro,' '$T/out' && grep -q '^sys /sys sysfs ro' '$T/out' && grep -q '^dev /dev tmpfs ro,' '$T/out' && ! grep -q devtmpfs '$T/out' && grep -q '^run /run tmpfs ' '$T/out' && grep -q '^tmp /tmp tmpfs ' '$T/out'"
check "... skipped swap, nfs, noauto; said the nofail device is left out" \
	sh -c "! grep -q '/mnt/nas\|/media/usb' '$T/out' && grep -q 'LABEL=notthere.*nofail: left out' '$T/out'"
check "... the system's own /etc/os-release is read" grep -q 'PRETTY_NAME="Bootbench Test Linux 1.0"' "$T/out"
check "... nothing could be written" sh -c "! grep -q WROTE '$T/out'"
check "... and the disk is unchanged (checksum)" [ "$(sha256sum < "$T/root.img")" = "$before" ]
check "... nothing is mounted afterwards" not mounted_anywhere "$ROOT"
# Issue 30.4: "read-only" means nothing can be changed, by the shell or what it runs.
# Another disk of this machine (never named) and every way a root shell had to it.
loopdev OTHER "$T/other.img" 8M
dd if=/dev/urandom of="$OTHER" bs=1M count=8 status=none
other_before=$(sha256sum < "$T/other.img")
root_before=$(sha256sum < "$T/root.img")
o_maj=$(stat -c '%t' "$OTHER" | xargs printf '%d') o_min=$(stat -c '%T' "$OTHER" | xargs printf '%d')
"$BB" chroot -q "$ROOT" -- sh -c "
	ls /dev | tr '\n' ' '; echo
	for d in /dev/loop* ${OTHER} ${ROOT} ${BOOT}; do dd if=/dev/zero of=\$d bs=4k count=1 conv=notrunc 2>/dev/null && echo WROTE-\$d; done
	mknod /tmp/disk b $o_maj $o_min 2>/dev/null && echo MADE-NODE
	mkdir -p /tmp/d && mount -t devtmpfs none /tmp/d 2>/dev/null && echo MOUNTED-DEVTMPFS
	mount -o remount,rw / 2>/dev/null && echo REMOUNTED
	echo 1 > /proc/sys/vm/drop_caches 2>/dev/null && echo WROTE-PROC
	mkdir -p /tmp/x/y && cd /tmp/x/y && chroot ../../../../.. true 2>/dev/null && echo ESCAPED
	ls /proc/1/root/ >/dev/null 2>&1 && echo PROC1-ROOT
	grep '^CapEff' /proc/self/status
	exit 0" > "$T/ro" 2>&1
rc=$?
cat "$T/ro"
check "read-only: the chroot's /dev holds what a shell needs and the system's own disks only" \
	sh -c "[ $rc = 0 ] && head -n1 '$T/ro' | grep -q 'null' && head -n1 '$T/ro' | grep -q 'tty' && head -n1 '$T/ro' | grep -qw '${ROOT#/dev/}' && ! head -n1 '$T/ro' | grep -qw '${OTHER#/dev/}'"
check "... no block device could be written, named or not" sh -c "! grep -q WROTE- '$T/ro'"
check "... no device node made, no devtmpfs mounted, no remount, no /proc write" \
	sh -c "! grep -q 'MADE-NODE\|MOUNTED-DEVTMPFS\|REMOUNTED\|WROTE-PROC' '$T/ro'"
check "... no way out of the chroot, nor through /proc/1/root" sh -c "! grep -q 'ESCAPED\|PROC1-ROOT' '$T/ro'"
check "... no capability to mount, make nodes, do raw I/O or override permissions" sh -c "
	eff=\$(sed -n 's/^CapEff:[[:space:]]*//p' '$T/ro'); [ -n \"\$eff\" ] &&
	for c in 21 27 17 1 18 19 16 2; do [ \$(( 0x\$eff >> c & 1 )) = 0 ] || exit 1; done"
check "... and neither that disk nor the system's changed" \
	sh -c "[ \"\$(sha256sum < '$T/other.img')\" = '$other_before' ] && [ \"\$(sha256sum < '$T/root.img')\" = '$root_before' ]"
# the installed system's startup files: not run unless asked ($ENV for sh, .bashrc for bash)
echo 'echo RC-RAN' > "$T/bbrc"
printf 'cd /etc\nwrite %s bbrc\n' "$T/bbrc" | debugfs -w -f - "$T/root.img" > /dev/null 2>&1
printf 'echo shell-ran; exit 0\n' | ENV=/etc/bbrc "$BB" chroot -q "$ROOT" > "$T/out" 2>&1
check "read-only shell: the system's startup files are not run" sh -c "grep -q shell-ran '$T/out' && ! grep -q RC-RAN '$T/out'"
printf 'echo shell-ran; exit 0\n' | ENV=/etc/bbrc "$BB" chroot -q --rc "$ROOT" > "$T/out" 2>&1
check "... with --rc they are" grep -q RC-RAN "$T/out"
# --write: only the devices named are writable
"$BB" chroot -q --write="$ROOT" "$ROOT" -- sh -c "
	for d in ${OTHER} ${BOOT}; do dd if=/dev/zero of=\$d bs=4k count=1 conv=notrunc 2>/dev/null && echo WROTE-\$d; done
	dd if=/dev/zero of=${ROOT} bs=4k count=1 seek=4000 conv=notrunc 2>/dev/null && echo WROTE-ROOT; exit 0" > "$T/rw" 2>&1
check "--write=ROOT: the root device is writable" grep -q WROTE-ROOT "$T/rw"
check "... /boot's device (not named) and the other disk are not" sh -c "! grep -q 'WROTE-/dev' '$T/rw'"
check "... the other disk is unchanged" [ "$(sha256sum < "$T/other.img")" = "$other_before" ]

if [ -s /etc/resolv.conf ]; then
	"$BB" chroot -q "$ROOT" -- cat /etc/resolv.conf > "$T/resolv" 2>&1
	check "resolv.conf: the appliance's, through the system's link into /run" cmp -s "$T/resolv" /etc/resolv.conf
fi

"$BB" chroot -q --write="$ROOT" "$ROOT" -- sh -c 'grep " / " /proc/mounts; echo hello > /written' > "$T/out" 2>&1
check "--write=ROOT: the root is read-write" sh -c "[ $? = 0 ] && grep -q '^$ROOT / ext4 rw,' '$T/out'"
check "... and the file written is on the disk" sh -c "debugfs -R 'cat /written' '$T/root.img' 2>/dev/null | grep -qx hello"

# kill -9 of the helper in the middle of a session (its sleep has a length of
# its own: another "sleep 300" on the machine must not pass for it)
nap="sleep 300.$$"
"$BB" chroot -q "$ROOT" -- $nap > "$T/out" 2>&1 &
helper=$!
i=0; while ! pgrep -f "^$nap\$" > /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "a session is running (its sleep)" pgrep -f "^$nap\$"
check "... with the root mounted in its namespace" mounted_anywhere "$ROOT"
kill -KILL $helper; wait $helper 2>/dev/null
i=0; while { pgrep -f "^$nap\$" > /dev/null || mounted_anywhere "$ROOT"; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "kill -9 of the helper: no process of the chroot survives" not pgrep -f "^$nap\$"
check "... and nothing of the installed system is mounted anywhere" sh -c "! grep -q ' - ext4 \($ROOT\|$BOOT\) ' /proc/[0-9]*/mountinfo"

if [ ! -e /dev/disk/by-uuid ]; then
	"$BB" chroot -q "$ROOT" -- readlink "/dev/disk/by-uuid/$BOOT_UUID" > "$T/out" 2>&1
	check "no udev here: the chroot has /dev/disk/by-uuid links of its own (update-grub needs them)" \
		grep -qx "../../${BOOT#/dev/}" "$T/out"
	check "... on a tmpfs of the session: none left on this system" [ ! -e "/dev/disk/by-uuid/$BOOT_UUID" ]
fi
# no COMMAND: root's shell from the system's passwd, with the chroot's prompt
echo 'echo "shell=$0"; exit 5' | "$BB" chroot -q "$ROOT" > "$T/out" 2>&1
check "no command: root's shell from /etc/passwd runs, and its exit status comes back" \
	sh -c "[ $? = 5 ] && grep -q 'shell=/bin/sh$' '$T/out'"
# the exit status of the command comes back
"$BB" chroot -q "$ROOT" -- sh -c 'exit 7' > /dev/null 2>&1
check "the command's exit status is returned" [ $? = 7 ]

# Issue 30.10: a root with an os-release but no init (a debootstrap
# minbase, an init package a failed upgrade removed) is the one that most
# needs rescue: listed, marked, and the chroot runs on it
debugfs -w -R "rm /sbin/init" "$T/root.img" > /dev/null 2>&1
"$BB" chroot --list > "$T/list" 2>&1
check "a root without /sbin/init is listed, marked (no init)" grep -q "^Bootbench Test Linux 1.0 *$ROOT .*(no init)\$" "$T/list"
"$BB" chroot --list --json > "$T/list.json"
check "... in the JSON too" json "$T/list.json" "[s['missing'] for s in d['systems']] == ['no init']"
"$BB" chroot "$ROOT" -- cat /etc/os-release > "$T/out" 2>&1
check "... and a chroot runs on it, saying what it lacks" sh -c "[ \$? = 0 ] && grep -q 'PRETTY_NAME' '$T/out' && grep -q '(no init)' '$T/out'"

# A system whose programs are for another machine (a disk moved from an
# arm64 server, or the wrong stick booted): its shell's ELF header says
# so; the list marks it, the chroot refuses it before mounting anything,
# where exec would say only "Exec format error". i386 runs on x86_64.
set_machine() { # EI_CLASS e_machine (little-endian), as printf octal
	mkdir -p "$T/m3" && mount "$ROOT" "$T/m3" &&
		printf "$1" | dd of="$T/m3/bin/busybox" bs=1 seek=4 conv=notrunc status=none &&
		printf "$2" | dd of="$T/m3/bin/busybox" bs=1 seek=18 conv=notrunc status=none && umount "$T/m3"
}
# the arm64 checks as on the appliance, which has no binfmt_misc entries: a
# build host's qemu-user-static (make test-arm64 installs it; systemd
# registers its entries) runs arm64 programs, and bootbench rightly says so
# there, so they run with binfmt_misc hidden in a mount namespace of their own.
# Its mounts keep their propagation (unshare's default makes / private,
# which fails in a chroot, where / is no mount point: a fresh root's make
# test); the mount the tmpfs goes on (binfmt_misc's, or /proc's) is made
# private in it first, so that the tmpfs stays there.
nobinfmt() {
	unshare -m --propagation unchanged sh -c 'd=/proc/sys/fs/binfmt_misc
		if mountpoint -q $d; then mount --make-private $d; else mount --make-private /proc; fi &&
		mount -t tmpfs -o size=4k,mode=0755 nobinfmt $d && exec "$@"' nobinfmt "$@"
}
set_machine '\002' '\267\000'
nobinfmt "$BB" chroot --list > "$T/list" 2>&1
check "an arm64 system on this x86_64 machine is listed, marked" \
	grep -q "^Bootbench Test Linux 1.0 *$ROOT .*(arm64 programs: not for this x86_64 machine)\$" "$T/list"
nobinfmt "$BB" chroot --list --json > "$T/list.json"
check "... its machine in the JSON" json "$T/list.json" "[s['machine'] for s in d['systems']] == ['arm64']"
before=$(sha256sum < "$T/root.img")
# the mounts read inside the namespace too: one left there ends with it
nobinfmt sh -c '"$1" chroot "$2" -- true > "$3" 2>&1; rc=$?; grep " $2 " /proc/mounts > "$4"; exit $rc' \
	sh "$BB" "$ROOT" "$T/out" "$T/mounts-inside"
rc=$?
cat "$T/out"
check "... a chroot into it is refused: exit 2, one line naming the machines" sh -c "[ $rc = 2 ] && [ \$(grep -c . '$T/out') = 1 ] &&
	grep -q 'holds a system for arm64: its programs cannot run on this x86_64 machine (enter it on an arm64 machine, with bootbench.s stick for it)$' '$T/out'"
check "... nothing mounted, the disk unchanged" sh -c "[ -e '$T/mounts-inside' ] && [ ! -s '$T/mounts-inside' ] &&
	! grep -q ' $ROOT ' /proc/mounts && [ '$(sha256sum < "$T/root.img")' = '$before' ]"
# its /bin/sh lost (a failed upgrade: what rescue is for): the next of its
# programs tells (here /bin/true); and an fstab's text cannot forge the mark
# or end the line (\012 decoded to a newline)
mkdir -p "$T/m3" && mount "$ROOT" "$T/m3" && mv "$T/m3/bin/sh" "$T/m3/bin/sh.gone" &&
	cp "$T/m3/etc/fstab" "$T/fstab.keep2" &&
	printf '%s\n' 'LABEL=x\040(x86_64\040programs:\040not\040for\040this\040x86_64\040machine)\012 /boot/efi vfat nofail 0 1' >> "$T/m3/etc/fstab" && umount "$T/m3"
nobinfmt "$BB" chroot --list > "$T/list" 2>&1
cat "$T/list"
check "... with its /bin/sh gone, still marked (its other programs tell)" \
	grep -q "^Bootbench Test Linux 1.0 *$ROOT .*(arm64 programs: not for this x86_64 machine)\$" "$T/list"
check "... one line a system, the fstab's newline and mark shown as its text" sh -c "[ \$(grep -c . '$T/list') = 1 ] && grep -q 'ESP: LABEL=x (x86_64 programs: not for this x86_64 machine)? (missing)' '$T/list'"
mount "$ROOT" "$T/m3" && mv "$T/m3/bin/sh.gone" "$T/m3/bin/sh" && cp "$T/fstab.keep2" "$T/m3/etc/fstab" && umount "$T/m3"
set_machine '\001' '\003\000'
"$BB" chroot --list --json > "$T/list.json"
"$BB" chroot --list > "$T/list" 2>&1
cat "$T/list"
check "an i386 system is not marked here (the amd64 kernel runs its programs)" sh -c \
	"grep -q '^Bootbench Test Linux 1.0 .*(no init)\$' '$T/list' && python3 -c \"import json,sys; sys.exit(json.load(open('$T/list.json'))['systems'][0]['machine'] != 'i386')\""
set_machine '\002' '\076\000'
"$BB" chroot --list --json > "$T/list.json"
check "... and this machine's own reads x86_64" json "$T/list.json" "[s['machine'] for s in d['systems']] == ['x86_64']"

# an fstab is the installed system's text: it may name any device of this
# machine, never the boot or results medium (the stick holds credentials)
mkfs.ext4 -q -F "$OTHER"
mkdir -p "$T/m3"; mount "$ROOT" "$T/m3"
cp "$T/m3/etc/fstab" "$T/fstab.keep"
echo "$OTHER /srv2 ext4 defaults 0 2" >> "$T/m3/etc/fstab"
mkdir -p "$T/m3/srv2"
umount "$T/m3"
printf 'results %s\n' "$OTHER" > "$T/media"
BOOTBENCH_MEDIA_FILE="$T/media" "$BB" chroot "$ROOT" -- true > "$T/out" 2>&1
rc=$?
check "an fstab line naming the results medium: refused, exit 2" sh -c "[ $rc = 2 ] && grep -q 'it is the results medium: refused' '$T/out'"
check "... nothing is left mounted" not mounted_anywhere "$OTHER"
mount "$ROOT" "$T/m3" && cp "$T/fstab.keep" "$T/m3/etc/fstab" && rmdir "$T/m3/srv2" && umount "$T/m3"

# bad input: one line, exit 2, nothing mounted
bad_input() { # description args...
	d=$1; shift
	"$BB" chroot "$@" > "$T/out" 2>&1
	rc=$?
	check "$d: exit 2, one line ($(head -c 120 "$T/out"))" sh -c "[ $rc = 2 ] && [ \$(grep -c . '$T/out') = 1 ]"
}
bad_input "a ROOT that is not a block device" "$T/root.img"
bad_input "a ROOT that holds no installed system" "$BOOT"
bad_input "an unknown option" --frobnicate "$ROOT"
bad_input "--list with a ROOT" --list "$ROOT"
export BOOTBENCH_SHARE=$T/no-share
bad_input "--repair whose script cannot be read" --write="$ROOT" --repair=initramfs "$ROOT"
unset BOOTBENCH_SHARE
mkdir -p "$T/m"
mount -o ro "$BOOT" "$T/m"
cp "$T/root/etc/fstab" "$T/fstab.good"
umount "$T/m"
# an fstab line whose device is missing (no nofail)
mkdir -p "$T/m2"; mount "$ROOT" "$T/m2"
echo "UUID=00000000-dead-beef-0000-000000000000 /srv ext4 defaults 0 2" >> "$T/m2/etc/fstab"
mkdir -p "$T/m2/srv"
check "(a mounted ROOT is refused)" sh -c "'$BB' chroot '$ROOT' -- true 2>&1 | grep -q 'is already mounted'"
umount "$T/m2"
"$BB" chroot "$ROOT" -- true > "$T/out" 2>&1
rc=$?
check "an fstab device that is missing: exit 2, naming it" sh -c "[ $rc = 2 ] && grep -q 'fstab line 8, /srv: no device has UUID=00000000-dead-beef-0000-000000000000' '$T/out'"
check "... and nothing is left mounted" not mounted_anywhere "$ROOT"
finish
