# label: Network (addresses, DHCP, test a destination)
# Each wired link with its MAC, state and addresses: DHCP on it, or a static
# address and gateway. "Test a destination" writes, finds and removes a test
# file on a share (bootbench save --test: the mount or login, the
# certificate, the password and write access, nothing delivered), so an
# admin knows before a run that its results will get there.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
BB_RUNDIR=/run/bootbench BB_MEDIA=/media/bootbench
while :; do
	set --
	for n in /sys/class/net/*; do
		i=${n##*/}; [ -e "$n/device" ] || continue
		set -- "$@" "$i" "$(echo "$(cat "$n/address") $(cat "$n/operstate") $(ip -4 -o addr show "$i" | awk '{print $4}' | paste -sd' ' -)" | fit 54)"
	done
	[ $# -gt 0 ] || set -- "-" "no network interfaces"
	set -- "$@" test "Test a destination (write and remove a file)"
	ifc=$(dialog --stdout --title " Network " --menu "A link to configure, or a destination to test:" 14 76 6 "$@") || exit 0
	case "$ifc" in
	-) continue ;;
	test)
		pick_dest "Test a destination" || continue
		# shellcheck disable=SC2046
		show "Test of $DEST" bootbench save --test $(save_options) "$DEST"
		continue ;;
	esac
	how=$(dialog --stdout --menu "$ifc:" 10 50 2 dhcp "ask a DHCP server" static "type an address") || continue
	if [ "$how" = dhcp ]; then
		udhcpc -i "$ifc" -n -q -t 5 -s /usr/share/udhcpc/default.script > /tmp/menu-out.txt 2>&1
		show "DHCP on $ifc" ip -4 addr show "$ifc"
	else
		addr=$(dialog --stdout --inputbox "Address with prefix, e.g. 192.0.2.10/24:" 8 60) || continue
		# checked before the link is touched: a mistyped address leaves its address as it was
		if ! ipv4 "$addr" prefix; then
			dialog --title " Network " --msgbox "\"$(printf %s "$addr" | tr -cd ' -~' | cut -c1-40)\" is not an IPv4 address with its prefix (e.g. 192.0.2.10/24). Nothing was changed on $ifc." 8 70
			continue
		fi
		gw=$(dialog --stdout --inputbox "Gateway (empty for none):" 8 60) || continue
		if [ -n "$gw" ] && ! ipv4 "$gw"; then
			dialog --title " Network " --msgbox "\"$(printf %s "$gw" | tr -cd ' -~' | cut -c1-40)\" is not an IPv4 address (e.g. 192.0.2.1). Nothing was changed on $ifc." 8 70
			continue
		fi
		if ! host_ok "$addr" "$gw"; then
			dialog --title " Network " --msgbox "$addr${gw:+ with gateway $gw} cannot work on $ifc: the address must be a host's on its network (not 0.x, 127.x, multicast, the network's own or its broadcast; a prefix of 8 or more), and the gateway on that network. Nothing was changed on $ifc." 10 70
			continue
		fi
		{ ip addr flush dev "$ifc" && ip link set "$ifc" up && ip addr add "$addr" dev "$ifc" &&
			{ [ -z "$gw" ] || ip route replace default via "$gw" dev "$ifc"; }; } > /tmp/menu-err.txt 2>&1
		show "Static address on $ifc" sh -c "cat /tmp/menu-err.txt; ip -4 addr show $ifc; ip route"
	fi
done
