# Per-host config from the PXE server (bootbench.conf=URL, from the kernel
# command line, or on a network boot from DHCP's option 209): fetched once
# the network has an address, read like the stick's bootbench.conf (the
# command line still wins; credential= lines go to the root-only
# credentials file). A CA given as a URL (bootbench.ca) is
# fetched the same way. A config that cannot be fetched cancels the
# unattended run: a rack must not run with half its settings.
BB_CA_FILE=""

# Waits up to $1 seconds for an IPv4 address on a link that is not lo.
wait_for_address() {
	i=0
	while [ $i -lt $(($1 * 5)) ]; do
		ip -4 -o addr show scope global 2>/dev/null | grep -q inet && return 0
		sleep 0.2; i=$((i + 1))
	done
	return 1
}

# fetch URL FILE: $BB_CA_FILE verifies https once it is known
fetch() {
	bootbench fetch-config ${BB_CA_FILE:+--ca="$BB_CA_FILE"} "$1" "$2" 2>&1 | while IFS= read -r l; do log "$l"; done
	[ -s "$2" ]
}

case "${BB_CA:-}" in
http://*|https://*|tftp://*)
	wait_for_address 30 || log "config: no network address after 30 s"
	if fetch "$BB_CA" "$BB_RUNDIR/ca.crt"; then BB_CA_FILE=$BB_RUNDIR/ca.crt
	else BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }cannot fetch bootbench.ca=$(redact_url "$BB_CA")"; fi ;;
esac
# No bootbench.conf from the boot loader on a network boot (a UEFI HTTP
# boot's ISO cannot be told one): the URL the DHCP server names for
# bootbench (option 209, asked for under the vendor class "bootbench",
# which the README's dnsmasq lines tag), when it names one. From the lease
# of the NIC the firmware booted from (BB_BOOTED, 32-booted.sh), waited for; not
# knowing that NIC (BIOS PXE), from the leases there are once one is bound,
# if they agree. Untrusted as any URL: shown redacted, fetched as
# bootbench.conf= is.
dhcp_conf_url() {
	mac="" ifc=""
	case "${BB_BOOTED:-}" in "http "*|"pxe "*) mac=${BB_BOOTED#* } ;; esac
	if [ -n "$mac" ]; then
		for n in /sys/class/net/*; do [ "$(cat "$n/address" 2>/dev/null)" = "$mac" ] && ifc=${n##*/}; done
	fi
	if [ -n "$ifc" ]; then
		i=0
		until [ -e "/run/bootbench/dhcp-conf/$ifc" ] || [ $i -ge 150 ]; do sleep 0.2; i=$((i + 1)); done
		url=$(cat "/run/bootbench/dhcp-conf/$ifc" 2>/dev/null)
		[ -e "/run/bootbench/dhcp-conf/$ifc" ] || log "config: no DHCP lease on $ifc (the NIC the firmware booted from) after 30 s"
	else
		wait_for_address 30 || return 0
		url=$(cat /run/bootbench/dhcp-conf/* 2>/dev/null | grep . | sort -u)
		if [ "$(printf '%s\n' "$url" | grep -c .)" -gt 1 ]; then
			log "config: the DHCP leases of several links name different configs (option 209), and the firmware does not say which link booted: none is taken"
			url=""
		fi
	fi
	[ -n "$url" ] || return 0
	# a URL's characters only (${serial} and ${mac} too); the scheme in any case
	if [ -n "$(printf '%s' "$url" | tr -d 'A-Za-z0-9:/._~%?=&+@${},-')" ]; then
		log "config: the DHCP server's option 209 is not a URL (a character a URL does not have): ignored"
		return 0
	fi
	case "$url" in *://*) url="$(printf '%s' "${url%%://*}" | tr A-Z a-z)://${url#*://}" ;; esac
	case "$url" in
	http://*|https://*|tftp://*)
		BB_CONF=$url
		log "config: the DHCP server names bootbench.conf=$(redact_url "$url") (option 209${ifc:+, on $ifc})" ;;
	*) log "config: the DHCP server's option 209 ($(redact_url "$url")) is not an http://, https:// or tftp:// URL (PXELINUX's config path?): ignored" ;;
	esac
}
if [ -z "${BB_CONF:-}" ] && { [ "${BB_BOOT:-}" = net ] || [ -n "${BB_BOOTED_HTTP:-}" ]; } && [ "${BB_NET:-dhcp}" = dhcp ]; then
	dhcp_conf_url
fi
if [ -n "${BB_CONF:-}" ]; then
	if ! wait_for_address 30; then
		why="no network address after 30 s to fetch bootbench.conf=$(redact_url "$BB_CONF")"
		log "config: $why"
		BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }$why"
	elif fetch "$BB_CONF" "$BB_RUNDIR/fetched.conf"; then
		log "config: read $(grep -c . "$BB_RUNDIR/fetched.conf") lines from $(redact_url "$BB_CONF")"
		params_from_conf "$BB_RUNDIR/fetched.conf"
		# a CA the fetched config names as a URL
		case "${BB_CA:-}" in
		http://*|https://*|tftp://*) [ -n "$BB_CA_FILE" ] || { fetch "$BB_CA" "$BB_RUNDIR/ca.crt" && BB_CA_FILE=$BB_RUNDIR/ca.crt; } ;;
		esac
	else
		BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }cannot fetch bootbench.conf=$(redact_url "$BB_CONF")"
	fi
fi

# ca_ready: BB_CA_FILE for whatever is fetched over https after the stick's
# bootbench.conf was read (an ssh key, a hook, an erase key): a CA that
# config named as a URL is fetched now, one on the stick is read there.
ca_ready() {
	[ -z "$BB_CA_FILE" ] || return 0
	case "${BB_CA:-}" in
	'') ;;
	http://*|https://*|tftp://*)
		wait_for_address 30 || true
		fetch "$BB_CA" "$BB_RUNDIR/ca.crt" && BB_CA_FILE=$BB_RUNDIR/ca.crt ;;
	*) [ -f "$BB_MEDIA/${BB_CA#/}" ] && [ ! -L "$BB_MEDIA/${BB_CA#/}" ] && BB_CA_FILE=$BB_MEDIA/${BB_CA#/} ;;
	esac
	return 0
}
