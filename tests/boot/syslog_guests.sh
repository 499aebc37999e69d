# SPDX-License-Identifier: MIT
# Boot test (issue 33): a rack's consoles in one syslog server. Debian's
# rsyslog listens on loopback (UDP and TCP); three guests, each with its
# DMI serial, take an inventory and power off:
#   - log-tcp streams to it over TCP (RFC 6587 octet counting),
#   - log-udp over UDP (RFC 5426),
#   - log-down over TCP to a port where no server listens.
# rsyslog receives log-tcp's and log-udp's boots from their first lines
# (the kernel's first record, bootbench's first line: from before the
# network was up) to the power-off, every message with the serial as
# HOSTNAME and no sequenceId missing, and every line of the console log
# saved with the results among them. log-down boots and powers off all the
# same, its log's stop taking no more than a second.
# timeout: 420
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands rsyslogd python3
start_rsyslog || { bad "rsyslogd starts"; finish; }
DOWN=$((SYSLOG_PORT + 1))
port_free $DOWN || { bad "port $DOWN is free for the server that is down"; finish; }
RUN="bootbench.run=inventory bootbench.after=poweroff"
rack_guest log-tcp "$RUN bootbench.syslog=tcp://10.0.2.2:$SYSLOG_PORT"
a=$!
rack_guest log-udp "$RUN bootbench.syslog=udp://10.0.2.2:$SYSLOG_PORT"
b=$!
rack_guest log-down "$RUN bootbench.syslog=tcp://10.0.2.2:$DOWN"
c=$!
wait $a $b $c
sleep 1	# rsyslog's file is written a moment after a message arrives
for g in log-tcp log-udp log-down; do
	check "$g powered off after its inventory" grep -q 'reboot: Power down' "$T/$g.log"
done
# syslog.txt: "HOSTNAME APP-NAME SEQUENCE-ID TIMESTAMP MESSAGE"
for g in log-tcp log-udp; do
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
	"awk '{ print \$1 }' '$T/syslog.txt' | sort -u | paste -sd' ' | grep -qx 'log-tcp log-udp'"
tr -d '\r' < "$T/log-down.log" | grep 'syslog:' | sed 's/^/    /'
check "log-down: its log's stop took a second at most" sh -c \
	"tr -d '\r' < '$T/log-down.log' | grep -q 'syslog: stopped, after 0\.[0-9] s$\|syslog: stopped, after 1\.0 s$'"
check "... and it said what was not sent" sh -c "tr -d '\r' < '$T/log-down.log' | grep -q 'syslog: 0 line(s) sent to tcp://10.0.2.2:$DOWN; [1-9][0-9]* not sent at the end (cannot connect: Connection refused)'"
finish
