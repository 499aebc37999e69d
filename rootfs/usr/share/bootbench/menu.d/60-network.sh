# label: Network (DHCP or static address)
# DHCP on a link, or a static address and gateway.
. /lib/bootbench/menu-lib.sh
set --
for n in /sys/class/net/*; do
	i=${n##*/}; [ -e "$n/device" ] || continue
	set -- "$@" "$i" "$(cat "$n/address") $(cat "$n/operstate") $(ip -4 -o addr show "$i" | awk '{print $4}')"
done
[ $# -gt 0 ] || { dialog --msgbox "No network interfaces." 6 40; exit 0; }
ifc=$(dialog --stdout --title " Network " --menu "Which link?" 14 70 6 "$@") || exit 0
how=$(dialog --stdout --menu "$ifc:" 10 50 2 dhcp "ask a DHCP server" static "type an address") || exit 0
if [ "$how" = dhcp ]; then
	udhcpc -i "$ifc" -n -q -t 5 -s /usr/share/udhcpc/default.script > /tmp/menu-out.txt 2>&1
	show "DHCP on $ifc" ip -4 addr show "$ifc"
else
	addr=$(dialog --stdout --inputbox "Address with prefix, e.g. 192.0.2.10/24:" 8 60) || exit 0
	gw=$(dialog --stdout --inputbox "Gateway (empty for none):" 8 60) || exit 0
	ip addr flush dev "$ifc" && ip addr add "$addr" dev "$ifc" && ip link set "$ifc" up &&
		{ [ -z "$gw" ] || ip route replace default via "$gw" dev "$ifc"; } 2> /tmp/menu-err.txt
	show "Static address on $ifc" sh -c "cat /tmp/menu-err.txt; ip -4 addr show $ifc; ip route"
fi
