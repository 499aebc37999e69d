# SPDX-License-Identifier: MIT
# clock.sh - the wall clock set once at boot from an NTP server (44-clock.sh
# runs clock_set). The firmware's clock can be anything (a board whose
# battery is flat, a BMC that never synced), and every time this boot
# writes is read beside other machines': the results folder's name,
# status.json's end, the syslog stamps, the Pushgateway's. The server:
# bootbench.ntp=HOST[:PORT], else the first one the DHCP lease names
# (option 42, asked for by 30-network.sh, written by udhcpc's script to
# $BB_RUNDIR/dhcp/LINK). One try with busybox ntpd -q, CLOCK_NTP_S (15 s) at
# most: a server that does not answer is logged, never fatal. What came of
# it goes to $BB_RUNDIR/clock.json (status.json's "clock") and clock.txt
# (system.txt's "clock:" line). $MOCK runs instead of ntpd in tests.

CLOCK_WAIT_S=${CLOCK_WAIT_S:-10}
CLOCK_NTP_S=${CLOCK_NTP_S:-15}

# clock_record SET JSON-FIELDS TEXT: what came of it, for the results and the console
clock_record() {
	printf '{"set": %s, %s}\n' "$1" "$2" > "$BB_RUNDIR/clock.json"
	printf '%s\n' "$3" > "$BB_RUNDIR/clock.txt"
	log "clock: $3"
}

# Waits for a DHCP lease on a link that asked for one (CLOCK_WAIT_S at most):
# it names the NTP server, or the route to bootbench.ntp's (ntpd that finds
# no route waits 32 s before its next try). True once there is one.
clock_lease() {
	[ -s "$BB_RUNDIR/dhcp-links" ] || return 1
	i=0
	while [ $i -lt $((CLOCK_WAIT_S * 10)) ]; do
		for f in "$BB_RUNDIR/dhcp/"*; do [ -f "$f" ] && return 0; done
		sleep 0.1; i=$((i + 1))
	done
	return 1
}

# The first NTP server a lease names: dotted addresses only (udhcpc writes
# them so; anything else there is not used)
clock_dhcp_server() {
	for f in "$BB_RUNDIR/dhcp/"*; do
		[ -f "$f" ] || continue
		for s in $(cat "$f"); do
			case "$s" in *[!0-9.]*|.*|*.) continue ;; esac
			echo "$s"; return 0
		done
	done
}

# a number as ntpd printed it (%+f), for JSON: no sign for a positive one
clock_number() {
	case "$1" in
	''|*[!0-9.+-]*) return 1 ;;
	+*) echo "${1#+}" ;;
	*) echo "$1" ;;
	esac
}

clock_set() {
	rm -f "$BB_RUNDIR/clock.json" "$BB_RUNDIR/clock.txt"
	if [ "${BB_NTP:-}" = off ]; then
		clock_record false '"why": "bootbench.ntp=off"' "not set (bootbench.ntp=off): the firmware's time, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		return 0
	fi
	lease=0
	clock_lease && lease=1
	server=${BB_NTP:-$(clock_dhcp_server)}
	if [ -z "$server" ]; then
		why="no NTP server: neither bootbench.ntp nor $([ $lease = 1 ] && echo "the DHCP lease (option 42)" || echo "a DHCP lease (none in ${CLOCK_WAIT_S} s)") names one"
		clock_record false "\"why\": \"$why\"" "not set: $why; the firmware's time, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		return 0
	fi
	from=$([ -n "${BB_NTP:-}" ] && echo bootbench.ntp || echo "the DHCP lease")
	before=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	# -d: each reply's offset (the one kept when the clock is right already)
	timeout "$CLOCK_NTP_S" ${MOCK:-} ntpd -d -n -q -p "$server" > "$BB_RUNDIR/ntpd.log" 2>&1
	rc=$?
	step=$(clock_number "$(sed -n 's/.*setting time to .* (offset \([-+0-9.]*\)s).*/\1/p' "$BB_RUNDIR/ntpd.log" | tail -n1)")
	last=$(clock_number "$(sed -n 's/.*reply from .*: offset:\([-+0-9.]*\) .*/\1/p' "$BB_RUNDIR/ntpd.log" | tail -n1)")
	fields="\"server\": \"$server\", \"from\": \"$from\""
	if [ $rc = 0 ] && [ -n "$step" ]; then
		clock_record true "$fields, \"stepped\": true, \"offset_s\": $step, \"before\": \"$before\"" \
			"set from NTP server $server ($from): it was $step s off ($before before, $(date -u +%Y-%m-%dT%H:%M:%SZ) now)"
	elif [ $rc = 0 ] && [ -n "$last" ]; then
		# ntpd -q steps only past 0.125 s: under that the clock was right
		clock_record true "$fields, \"stepped\": false, \"offset_s\": $last" \
			"right already by NTP server $server ($from): $last s off, under ntpd's 0.125 s step"
	else
		why="no answer from NTP server $server ($from) in $CLOCK_NTP_S s"
		[ $rc = 124 ] || [ $rc -gt 128 ] || why="NTP server $server ($from): ntpd failed ($(tail -n1 "$BB_RUNDIR/ntpd.log" | tr -cd ' -~' | tr '"\\' "''" | cut -c1-120))"
		clock_record false "$fields, \"why\": \"$why\"" "not set: $why; the firmware's time, $before"
	fi
	return 0
}
