# DHCP on every wired link, in the background: the boot does not wait for a
# lease, and PXE-booted racks get their addresses as soon as the switch answers.
# bootbench.ip=LINK=ADDRESS/PREFIX,...: those links get that address instead
# (no DHCP server on a back-to-back cable), even with bootbench.net=off.
ip link set lo up
# fixed_address IFC MAC: the address bootbench.ip gives this link, if any
fixed_address() {
	for a in $(echo "${BB_IP:-}" | tr ',' ' '); do
		link=${a%%=*}
		[ "$link" = "$1" ] || [ "$(echo "$link" | tr A-F a-f)" = "$2" ] || continue
		echo "${a#*=}"; return
	done
}
for dev in /sys/class/net/*; do
	ifc=${dev##*/}
	[ -e "$dev/device" ] && [ ! -d "$dev/wireless" ] || continue
	addr=$(fixed_address "$ifc" "$(cat "$dev/address" 2>/dev/null)")
	if [ -n "$addr" ]; then
		ip link set "$ifc" up
		if ip addr add "$addr" dev "$ifc" 2>/dev/null; then log "network: $ifc is $addr (bootbench.ip)"
		else log "network: $ifc: could not set $addr (bootbench.ip)"; fi
		continue
	fi
	[ "${BB_NET:-dhcp}" = dhcp ] || continue
	ip link set "$ifc" up
	# -O ntpsrv: the NTP server a rack's DHCP names, for the clock (44-clock.sh)
	udhcpc -i "$ifc" -b -S -s /usr/share/udhcpc/default.script -t 10 -T 2 -A 10 -O ntpsrv \
		-x hostname:"$(hostname)" >/dev/null 2>&1 &
	echo "$ifc" >> "$BB_RUNDIR/dhcp-links"
	log "network: DHCP on $ifc in the background"
done
[ "${BB_NET:-dhcp}" = dhcp ] || log "network: no DHCP (bootbench.net=off)"
