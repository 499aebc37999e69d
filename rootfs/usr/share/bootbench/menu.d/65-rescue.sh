# label: Rescue an installed system (shell, fsck, boot loader)
# The installed systems bootbench chroot --list finds; for the one picked:
# a shell in it, read-only, or writable after the consent of typing its
# devices (the root, its /boot and ESP); a check of those filesystems
# that changes nothing (bootbench fsck), and a repair of what has errors
# after the same consent; or, after it too, the boot loader reinstalled or
# the initramfs rebuilt (bootbench chroot --repair). Everything the chroot mounted is gone when the
# shell exits (bootbench chroot --help). What each step ran and said goes
# to rescue.log in one results folder for the boot's rescue
# (<UTC>_<machine>_rescue-ID), which Save results sends like a benchmark's;
# a shell's whole session is there too, as typed and shown (busybox script).
# md arrays are assembled (read-only) and LUKS volumes opened only when
# the user says so.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
# A boot without the rescue pack (a PXE entry that leaves it out) has the
# base's tools alone: said before anything is probed.
if [ ! -e /etc/bootbench/packs.d/rescue ] && ! dialog --title " Rescue " --yesno "This boot did not load the rescue pack (rescue.img): LVM, LUKS, btrfs, NTFS, testdisk and ddrescue are not here. Boot an entry that loads it (the stick's, or PXE's \"all packs\") for those.

Go on with what the base has (ext4, xfs, vfat, md arrays)?" 11 70; then
	exit 0
fi
# record TITLE: the step's output (show's) appended to the log of this
# boot's rescue (one folder for all of it)
record() {
	log_dir=$(cat /run/bootbench/rescue-folder 2>/dev/null)
	if [ -z "$log_dir" ] || [ ! -d "$log_dir" ]; then
		log_dir=$RESULTS_RUN/$(run_folder_name rescue)
		# the system's description (every disk's health, the hardware) takes a
		# while, under TCG a minute: said, not a screen that seems stuck
		dialog --infobox "Describing the system for the rescue's record ..." 3 60
		mkdir -p "$log_dir" && describe_system "$log_dir" && echo "$log_dir" > /run/bootbench/rescue-folder
	fi
	{ echo "### $1 ($(date -u +%Y-%m-%dT%H:%M:%SZ))"; cat /tmp/menu-out.raw; echo; } >> "$log_dir/rescue.log"
}
# Encrypted volumes are opened only when the user says so (a passphrase
# each, typed here), with LVM activated after them.
luks=""
for d in $(blkid -c /dev/null -o device -t TYPE=crypto_LUKS 2>/dev/null); do
	u=$(cryptsetup luksUUID "$d" 2>/dev/null)
	[ -n "$u" ] && [ ! -e "/dev/mapper/luks-$u" ] && luks="$luks${luks:+,}$d"
done
if [ -n "$luks" ] && dialog --title " Rescue " --yesno "Encrypted (LUKS) volumes: $(echo "$luks" | tr ',' ' ').

Open them to look for installed systems inside (read-only; a passphrase is asked for each), and activate LVM?" 10 70; then
	clear
	# on the terminal: cryptsetup asks there
	bootbench chroot --open="$luks" --activate --list > /dev/null ||
		{ echo "Press Enter to go on."; read -r _; }
fi
# md arrays not assembled: assembled read-only when the user says so
if [ -n "$(blkid -c /dev/null -o device -t TYPE=linux_raid_member 2>/dev/null)" ] &&
	[ -z "$(ls /dev/md[0-9]* /dev/md/* 2>/dev/null)" ] &&
	dialog --title " Rescue " --yesno "Disks here are members of md (software RAID) arrays.

Assemble them (read-only: nothing is written) to look for installed systems on them?" 9 70; then
	show "Assembling md arrays" bootbench chroot --assemble --list
	record "bootbench chroot --assemble --list"
fi
bootbench chroot --list > /tmp/menu-systems 2>&1
# Each system's root device is the word before its filesystem and "N.N GiB":
# the last such on its line, as the name before it is the installed
# system's own os-release (untrusted: it may hold a /dev/ word). Items are
# tagged by number, so a long device name (a LUKS volume's
# /dev/mapper/luks-UUID) is shown in the description, cut there if need be.
awk '{ d = 0; for (i = 1; i + 3 <= NF; i++) if ($i ~ /^\/dev\// && $(i + 2) ~ /^[0-9]+\.[0-9]$/ && $(i + 3) == "GiB") d = i
	if (!d) next
	rest = ""; for (i = 1; i <= NF; i++) if (i != d) rest = rest (rest == "" ? "" : " ") $i
	# a system for another machine: its machine first, where the cut keeps it
	if (match($0, /\([^ ]+ programs: not for this [^ ]+ machine\)$/)) { m = substr($0, RSTART + 1); sub(/ .*/, "", m); rest = "(" m ") " rest }
	printf "%d\t%s\t%s\n", NR, $d, rest }' /tmp/menu-systems > /tmp/menu-roots
set --
while IFS="$(printf '\t')" read -r nr dev rest; do
	set -- "$@" "$nr" "$(printf '%s  %s\n' "$dev" "$rest" | fit 66)"
done < /tmp/menu-roots
if [ $# = 0 ]; then
	dialog --title " Rescue " --msgbox "$(head -c 300 /tmp/menu-systems)" 8 70
	exit 0
fi
pick=$(dialog --stdout --title " Rescue " --menu "Which installed system?" 14 78 6 "$@") || exit 0
root=$(awk -F '\t' -v n="$pick" '$1 == n { print $2 }' /tmp/menu-roots)
line=$(sed -n "${pick}p" /tmp/menu-systems)
[ -n "$root" ] || exit 0
# a system for another machine (an arm64 disk in an x86_64 server): nothing
# of it can run here, and chroot refuses it; said before any choice. The
# mark is the line's end (the name at its start is the system's own text).
case "$line" in
*" programs: not for this "*" machine)")
	# shellcheck disable=SC2046 # two words: the system's machine and this one
	set -- $(echo "$line" | sed -n 's/.*(\([^ ]*\) programs: not for this \([^ ]*\) machine)$/\1 \2/p')
	m=$1 here=$2
	where="its own kind of machine"
	case "$m" in x86_64|arm64) where="an $m machine, with bootbench's stick for it" ;; esac
	dialog --title " $root " --msgbox "The system on $root is built for $m: its programs cannot run on this $here machine. Rescue it on $where." 8 70
	exit 0 ;;
esac
devs=$root
# its /boot and ESP, where they are devices of their own (the last of each on
# its line: the name comes first)
for d in "$(echo "$line" | sed -n 's|.*/boot: \(/dev/[^ ]*\).*|\1|p')" "$(echo "$line" | sed -n 's|.*ESP: \(/dev/[^ ]*\).*|\1|p')"; do
	[ -n "$d" ] && devs="$devs $d"
done
how=$(dialog --stdout --title " $root " --menu "The installed system:" 13 76 5 \
	ro "a shell, read-only: nothing can be changed" rw "a shell, writable: repairs (consent: type the devices)" \
	check "check its filesystems (no change; repair after consent)" \
	bootloader "reinstall the boot loader (consent)" initramfs "rebuild the initramfs (consent)") || exit 0
case "$how" in
bootloader|initramfs)
	# no ESP: GRUB for BIOS writes the boot sector of the disk holding
	# /boot (or the root), so that disk is consented to as well
	if [ "$how" = bootloader ] && ! echo "$line" | grep -q "ESP: /dev/"; then
		part=$(echo "$devs" | awk '{ print $NF }')
		disk=$(basename "$(readlink -f "/sys/class/block/${part#/dev/}/..")")
		[ -b "/dev/$disk" ] && [ -e "/sys/class/block/${part#/dev/}/partition" ] && devs="$devs /dev/$disk"
	fi
	consent $devs || { dialog --msgbox "Not confirmed: nothing was changed." 6 50; exit 0; }
	# shellcheck disable=SC2086
	show "Repair ($how) of $root" bootbench chroot --write="$(echo $devs | tr ' ' ',')" --repair=$how "$root"
	record "bootbench chroot --repair=$how $root: exit status $?"
	exit 0 ;;
esac
if [ "$how" = check ]; then
	# shellcheck disable=SC2086
	show "Check of $devs" bootbench fsck $devs
	rc=$?
	record "bootbench fsck $devs: exit status $rc"
	[ $rc = 1 ] || exit 0
	dialog --yesno "Errors were found (see the check). Repair them?" 6 60 || exit 0
	consent $devs || { dialog --msgbox "Not confirmed: nothing was changed." 6 50; exit 0; }
	# shellcheck disable=SC2086
	show "Repair of $devs" bootbench fsck --repair --write="$(echo $devs | tr ' ' ',')" $devs
	record "bootbench fsck --repair $devs: exit status $?"
	exit 0
fi
write=""
if [ "$how" = rw ]; then
	consent $devs || { dialog --msgbox "Not confirmed: nothing was mounted." 6 50; exit 0; }
	write="--write=$(echo $devs | tr ' ' ',')"
fi
clear
echo "A shell in the installed system on $root; 'exit' comes back to the menu."
# the whole session, as typed and shown, goes to rescue.log (busybox script: a typescript)
rm -f /tmp/rescue-shell.log /tmp/rescue-shell.rc
script -q -c "bootbench chroot $write $root; echo \$? > /tmp/rescue-shell.rc" /tmp/rescue-shell.log
rc=$(cat /tmp/rescue-shell.rc 2>/dev/null || echo 1)
{
	# the typescript without its terminal control sequences
	esc=$(printf '\033')
	tr -d '\r' < /tmp/rescue-shell.log | sed "s/$esc\[[0-9;?]*[A-Za-z]//g"
	echo "a shell in the installed system on $root (${write:-read-only}) ended with exit status $rc"
} > /tmp/menu-out.raw
# recorded first (the first record describes the system, under an infobox),
# then the exit status, on a screen of its own, until Enter
record "bootbench chroot $write $root"
clear
echo "bootbench chroot: exit status $rc. Press Enter for the menu."
read -r _
