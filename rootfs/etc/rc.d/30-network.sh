# DHCP on every wired link, in the background: the boot does not wait for a
# lease, and PXE-booted racks get their addresses as soon as the switch answers.
[ "${BB_NET:-dhcp}" = dhcp ] || { log "network: off (bootbench.net=off)"; return 0; }
ip link set lo up
for dev in /sys/class/net/*; do
	ifc=${dev##*/}
	[ -e "$dev/device" ] && [ ! -d "$dev/wireless" ] || continue
	ip link set "$ifc" up
	udhcpc -i "$ifc" -b -S -s /usr/share/udhcpc/default.script -t 10 -T 2 -A 10 \
		-x hostname:"$(hostname)" >/dev/null 2>&1 &
	log "network: DHCP on $ifc in the background"
done
