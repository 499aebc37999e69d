# SPDX-License-Identifier: MIT
# Boot test (issue 33): a rack's consoles in one syslog server. Debian's
# rsyslog listens on loopback (UDP and TCP; and a second one with GnuTLS);
# four guests, each with its DMI serial, take an inventory and power off:
#   - log-tcp streams to it over TCP (RFC 6587 octet counting),
#   - log-udp over UDP (RFC 5426),
#   - log-tls over TLS (RFC 5425, issue 46) to the GnuTLS one, its
#     certificate verified against bootbench.ca, fetched at boot over HTTP,
#   - log-down over TCP to a port where no server listens.
# rsyslog receives log-tcp's, log-udp's and log-tls's boots from their first lines
# (the kernel's first record, bootbench's first line: from before the
# network was up) to the power-off, every message with the serial as
# HOSTNAME and no sequenceId missing, and every line of the console log
# saved with the results among them. log-down boots and powers off all the
# same, its log's stop taking no more than a second.
# The clock (issue 46): log-down's firmware clock says 2001-01-01 (QEMU's
# -rtc base=) and bootbench.ntp=10.0.2.2 names busybox ntpd serving this
# machine's time on loopback (port 123: the test runs in a network
# namespace of its own); its status.json says the clock was set, from
# 2001, by the offset between, and its results are stamped with today.
# log-tcp has no NTP server (QEMU's DHCP names none): its status.json says
# "not set: no NTP server".
# timeout: 420
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands rsyslogd python3
[ -x "$OUT/busybox/busybox" ] || { echo "out/busybox/busybox is missing: run 'make image'"; exit 1; }
private_network
start_rsyslog || { bad "rsyslogd starts"; finish; }
# the NTP server: busybox ntpd with no peer of its own answers as stratum 1
# with this machine's clock, on NTP's own port 123 (bootbench.ntp names no
# port, as a rack's would not): the test's own network namespace has it free
port_free 123 || { bad "port 123 is free for the NTP server"; finish; }
$GUARD "$OUT/busybox/busybox" ntpd -n -l > "$T/ntpd.log" 2>&1 &
SERVER_PIDS="$SERVER_PIDS $!"
# syslog over TLS, and the CA its certificate chains to served over HTTP for bootbench.ca
start_rsyslog_tls || { bad "rsyslogd with GnuTLS starts"; finish; }
mkdir -p "$T/www" && cp "$T/ca/ca.crt" "$T/www/ca.crt"
free_port HTTP_PORT || { bad "a free port for the CA's HTTP server"; finish; }
$GUARD python3 -m http.server --bind 127.0.0.1 --directory "$T/www" $HTTP_PORT > "$T/http.log" 2>&1 &
SERVER_PIDS="$SERVER_PIDS $!"
wait_port $HTTP_PORT 10 || { bad "the CA's HTTP server starts"; finish; }

# a port of this test's where nothing listens: no other test's server comes up on it
free_port DOWN || { bad "a free port for the server that is down"; finish; }
RUN="bootbench.run=inventory bootbench.after=poweroff"
rack_guest log-tcp "$RUN bootbench.syslog=tcp://10.0.2.2:$SYSLOG_PORT"
a=$!
rack_guest log-udp "$RUN bootbench.syslog=udp://10.0.2.2:$SYSLOG_PORT"
b=$!
rack_guest log-down "$RUN bootbench.syslog=tcp://10.0.2.2:$DOWN bootbench.ntp=10.0.2.2" --rtc 2001-01-01
c=$!
rack_guest log-tls "$RUN bootbench.syslog=tls://10.0.2.2:$SYSLOG_TLS_PORT bootbench.ca=http://10.0.2.2:$HTTP_PORT/ca.crt"
d=$!
wait $a $b $c $d
sleep 1	# rsyslog's file is written a moment after a message arrives
# the TLS server's messages beside the others': one reader for all
cat "$T/syslog-tls.txt" >> "$T/syslog.txt"
for g in log-tcp log-udp log-down log-tls; do
	check "$g powered off after its inventory" grep -q 'reboot: Power down' "$T/$g.log"
done
# syslog.txt: "HOSTNAME APP-NAME SEQUENCE-ID TIMESTAMP MESSAGE"
for g in log-tcp log-udp log-tls; do
	awk -v h=$g '$1 == h' "$T/syslog.txt" > "$T/$g.syslog"
	echo "    $g: $(wc -l < "$T/$g.syslog") messages"
	check "$g: the kernel's first record arrived (from before the network was up)" \
		sh -c "awk '\$2 == \"kernel\"' '$T/$g.syslog' | head -n1 | grep -q ' Linux version '"
	check "... and bootbench's first line" sh -c "awk '\$2 == \"bootbench\"' '$T/$g.syslog' | head -n1 | grep -q 'bootbench: \[[0-9.]*\] bootbench .*, kernel '"
	check "... to the power-off" grep -q 'bootbench: \[[0-9.]*\] poweroff$' "$T/$g.syslog"
	check "... with no sequenceId missing (1 to the last, each once)" sh -c \
		"awk '{ print \$3 }' '$T/$g.syslog' | sort -n | awk '\$1 != NR { exit 1 } END { exit NR < 50 }'"
	check "... bootbench's lines once, not again as the kernel's (log() writes them to /dev/kmsg too)" sh -c \
		"! awk '\$2 == \"kernel\"' '$T/$g.syslog' | grep -q ' bootbench: '"
	check "... each stamped with this year's date" sh -c "awk '\$4 !~ /^$(date -u +%Y)-/ { exit 1 }' '$T/$g.syslog'"
	console_file console.log "$T/$g.log"
	check "... and the console log saved with its results is there, every line" sh -c \
		"cut -d' ' -f5- '$T/$g.syslog' > '$T/$g.msgs' && [ -s '$T/console-console.log' ] &&
		 grep -vxFf '$T/$g.msgs' '$T/console-console.log' | grep . > '$T/$g.missing'; [ ! -s '$T/$g.missing' ]"
	head -n3 "$T/$g.missing"
done
check "no other hostname reached rsyslog (log-down's server was down)" sh -c \
	"awk '{ print \$1 }' '$T/syslog.txt' | sort -u | paste -sd' ' | grep -qx 'log-tcp log-tls log-udp'"
tr -d '\r' < "$T/log-down.log" | grep 'syslog:' | sed 's/^/    /'
check "log-down: its log's stop took a second at most" sh -c \
	"tr -d '\r' < '$T/log-down.log' | grep -q 'syslog: stopped, after 0\.[0-9] s$\|syslog: stopped, after 1\.0 s$'"
check "... and it said what was not sent" sh -c "tr -d '\r' < '$T/log-down.log' | grep -q 'syslog: 0 line(s) sent to tcp://10.0.2.2:$DOWN; [1-9][0-9]* not sent at the end (cannot connect: Connection refused)'"

# the clock: log-down's was 2001's, set by NTP; log-tcp had no server to ask
tr -d '\r' < "$T/log-down.log" | grep 'clock:' | sed 's/^/    /'
if console_file status.json "$T/log-down.log"; then
	sed 's/^/    /' "$T/console-status.json"
	check "log-down: status.json says the clock was set by NTP from 10.0.2.2, from 2001, by 25 years and more" \
		json "$T/console-status.json" 'd["clock"]["set"] is True and d["clock"]["stepped"] is True and
		d["clock"]["server"] == "10.0.2.2" and d["clock"]["before"].startswith("2001-01-01") and
		d["clock"]["offset_s"] > 25 * 365 * 86400'
	check "... and the run ended today by it" json "$T/console-status.json" "d['ended'].startswith('$(date -u +%Y-%m-%d)')"
else
	bad "log-down: status.json is on the console"
fi
if console_file system.txt "$T/log-down.log"; then
	check "... system.txt says so too, and is dated today" sh -c \
		"grep -q '^clock: set from NTP server 10.0.2.2 (bootbench.ntp): it was [0-9.]* s off (2001-01-01T' '$T/console-system.txt' &&
		 head -n1 '$T/console-system.txt' | grep -q ', $(date -u +%Y-%m-%d)T'"
else
	bad "log-down: system.txt is on the console"
fi
if console_file status.json "$T/log-tcp.log"; then
	check "log-tcp: status.json says 'not set: no NTP server' (QEMU's DHCP names none)" json "$T/console-status.json" \
		'd["clock"]["set"] is False and d["clock"]["why"] == "no NTP server: neither bootbench.ntp nor the DHCP lease (option 42) names one"'
else
	bad "log-tcp: status.json is on the console"
fi
finish
