# SPDX-License-Identifier: MIT
# bootbench syslog on the host (issue 33), against Debian's rsyslog on
# loopback, with a recorded kernel log (BOOTBENCH_SYSROOT): the server
# comes up only after lines were logged, over TCP, and gets them all, in
# order, with their own times, sequenceId 1 to N, the kernel's records
# (not bootbench's copies of its lines) as APP-NAME kernel; a line written
# after it is up arrives too; stopped, it says what it sent and exits 0.
# Stopped while the server is down, it does not wait for it. Bad input is
# one line, exit 2.
. tests/lib.sh
. tests/servers.sh
need_commands rsyslogd
mkdir -p "$T/root/dev"
# the kernel's records (facility 0) and one bootbench wrote (facility 1, user)
printf '%s\n' '6,1,1500000,-;Linux version 6.1.0-28-amd64 (recorded)' '13,2,2000000,-;bootbench: a copy of a console line' \
	'3,3,2500000,-;nvme nvme0: I/O 12 QID 1 timeout, aborting' > "$T/root/dev/kmsg"
printf 'bootbench: [0.90] bootbench 0.1.0, kernel 6.1.0-28-amd64\nudhcpc: lease obtained\n' > "$T/console.log"
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tcp://127.0.0.1:$SYSLOG_PORT --hostname=SN-4711 "$T/console.log" \
	2> "$T/shipper.err" &
pid=$!
sleep 1.5
echo "bootbench: [3.10] run: smoke on /dev/nvme0n1" >> "$T/console.log"
check "it keeps running while no server listens" kill -0 $pid
check "... and says so in the console log" grep -q 'syslog: tcp://127.0.0.1:[0-9]*: cannot connect: Connection refused' "$T/console.log"
start_rsyslog || { bad "rsyslogd starts"; kill $pid; finish; }
i=0
until grep -q 'run: smoke' "$T/syslog.txt" 2>/dev/null || [ $i -ge 150 ]; do sleep 0.1; i=$((i + 1)); done
echo "after the server came" >> "$T/console.log"
i=0
until grep -q 'after the server came' "$T/syslog.txt" 2>/dev/null || [ $i -ge 150 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
sleep 0.5
sed 's/^/    /' "$T/syslog.txt"
check "stopped, it exits 0 (everything sent)" [ $rc = 0 ]
check "... and says how many lines it sent" grep -q '^bootbench: syslog: [0-9]* line(s) sent to tcp://127.0.0.1:[0-9]*, none left$' "$T/shipper.err"
check "the lines logged before the server was up arrived, in order, sequenceId 1 to N" sh -c \
	"awk '{ print \$3 }' '$T/syslog.txt' | awk '\$1 != NR { exit 1 } END { exit NR < 7 }'"
check "every message names the host given" sh -c "awk '\$1 != \"SN-4711\" { exit 1 }' '$T/syslog.txt'"
check "the kernel's records as APP-NAME kernel, bootbench's copy not sent again" sh -c \
	"awk '\$2 == \"kernel\"' '$T/syslog.txt' | cut -d' ' -f5- | paste -sd'|' |
	 grep -qx 'Linux version 6.1.0-28-amd64 (recorded)|nvme nvme0: I/O 12 QID 1 timeout, aborting'"
check "the console log's lines as APP-NAME bootbench" sh -c \
	"awk '\$2 == \"bootbench\"' '$T/syslog.txt' | cut -d' ' -f5- | grep -c '^bootbench: \[0.90\] bootbench 0.1.0\|^udhcpc: lease obtained\$\|^after the server came\$\|run: smoke' | grep -qx 4"
check "a bootbench line is stamped with its own time since boot ([3.10]'s is 2.2 s after [0.90]'s)" python3 -c "
import sys, datetime
t = {}
for l in open('$T/syslog.txt'):
    f = l.split(' ', 4)
    t[f[4].split(' ')[1] if f[4].startswith('bootbench: [') else None] = f[3]
a = datetime.datetime.fromisoformat(t['[0.90]']); b = datetime.datetime.fromisoformat(t['[3.10]'])
sys.exit(abs((b - a).total_seconds() - 2.2) > 0.01)"

# stopped while the server is down: it gives up at once
DOWN=$((SYSLOG_PORT + 1))
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tcp://127.0.0.1:$DOWN --hostname=SN-4711 "$T/console.log" 2> "$T/down.err" &
pid=$!
sleep 1
start=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "    stopped with its server down in $ms ms: $(cat "$T/down.err")"
check "stopped with the server down, it exits 1 and names what was not sent" sh -c \
	"[ $rc = 1 ] && grep -q 'not sent at the end (cannot connect: Connection refused)' '$T/down.err'"

refuses "no --to" "--to=udp://HOST[:PORT] or tcp://HOST[:PORT] is needed" "$BB" syslog "$T/console.log"
refuses "a scheme it does not speak" "expected udp://HOST[:PORT] or tcp://HOST[:PORT]" "$BB" syslog --to=http://10.0.0.1/ "$T/console.log"
refuses "a port out of range" "the port is not a number from 1 to 65535" "$BB" syslog --to=udp://10.0.0.1:65536 "$T/console.log"
refuses "a path after the port" "unexpected '/x' after" "$BB" syslog --to=udp://10.0.0.1:514/x "$T/console.log"
refuses "a hostname with a blank" "--hostname: 1 to 255 printable ASCII" "$BB" syslog --to=udp://10.0.0.1 --hostname="a b" "$T/console.log"
refuses "a console log that is not there" "cannot read $T/none" "$BB" syslog --to=udp://10.0.0.1 "$T/none"
ln -s "$T/console.log" "$T/link.log"
refuses "a console log that is a link" "cannot read $T/link.log" "$BB" syslog --to=udp://10.0.0.1 "$T/link.log"
finish
