# label: Rescue an installed system (shell in it)
# The installed systems bootbench chroot --list finds; a shell in the one
# picked, read-only, or writable after the consent of typing its devices
# (the root, its /boot and ESP). Everything the chroot mounted is gone when
# the shell exits (bootbench chroot --help).
. /lib/bootbench/menu-lib.sh
bootbench chroot --list > /tmp/menu-systems 2>&1
set --
while IFS= read -r line; do
	dev=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\/dev\//) { print $i; exit } }')
	[ -n "$dev" ] || continue
	set -- "$@" "$dev" "$(echo "$line" | sed "s|  *$dev  *| |" | cut -c1-60)"
done < /tmp/menu-systems
if [ $# = 0 ]; then
	dialog --title " Rescue " --msgbox "$(head -c 300 /tmp/menu-systems)" 8 70
	exit 0
fi
root=$(dialog --stdout --title " Rescue " --menu "Which installed system?" 14 78 6 "$@") || exit 0
line=$(grep -F " $root " /tmp/menu-systems | head -n1)
devs=$root
for d in $(echo "$line" | sed -n 's|.*/boot: \(/dev/[^ ]*\).*|\1|p; s|.*ESP: \(/dev/[^ ]*\).*|\1|p'); do devs="$devs $d"; done
how=$(dialog --stdout --title " $root " --menu "A shell in the installed system:" 10 70 2 \
	ro "read-only: nothing can be changed" rw "writable: repairs (consent: type the devices)") || exit 0
write=""
if [ "$how" = rw ]; then
	consent $devs || { dialog --msgbox "Not confirmed: nothing was mounted." 6 50; exit 0; }
	write="--write=$(echo $devs | tr ' ' ',')"
fi
clear
echo "A shell in the installed system on $root; 'exit' comes back to the menu."
bootbench chroot $write "$root"
echo "bootbench chroot: exit status $?. Press Enter for the menu."
read -r _
