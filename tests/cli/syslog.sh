# SPDX-License-Identifier: MIT
# bootbench syslog on the host (issue 33), against Debian's rsyslog on
# loopback, with a recorded kernel log (BOOTBENCH_SYSROOT): the server
# comes up only after lines were logged, over TCP, and gets them all, in
# order, with their own times, sequenceId 1 to N, the kernel's records
# (not bootbench's copies of its lines) as APP-NAME kernel; a line written
# after it is up arrives too; stopped, it says what it sent and exits 0.
# --format=rfc3164 (issue 46): BSD messages rsyslog reads as such, each
# ended by a newline over TCP. tls:// (RFC 5425, issue 46): to rsyslog with
# GnuTLS, the certificate made by openssl verified against --ca; another
# CA's, or a certificate for another name (openssl s_server), and nothing
# is sent. Stopped while the server is down, it does not
# wait for it; stopped while the DNS server does not answer (a private
# network and mount namespace: a resolv.conf naming a server that never
# answers), it takes no longer than --drain (issue 46: 7 s with --drain 5).
# Bad input is one line, exit 2.
. tests/lib.sh
. tests/servers.sh
need_commands rsyslogd
mkdir -p "$T/root/dev"
# the kernel's records (facility 0) and one bootbench wrote (facility 1, user)
printf '%s\n' '6,1,1500000,-;Linux version 6.1.0-28-amd64 (recorded)' '13,2,2000000,-;bootbench: a copy of a console line' \
	'3,3,2500000,-;nvme nvme0: I/O 12 QID 1 timeout, aborting' > "$T/root/dev/kmsg"
printf 'bootbench: [0.90] bootbench 0.1.0, kernel 6.1.0-28-amd64\nudhcpc: lease obtained\n' > "$T/console.log"
# the server's port, named before it is up; and ports of this test's for a
# listener of its own, openssl's server and one where nothing listens
free_port SYSLOG_PORT WIRE_PORT OTHER DOWN || { bad "free ports for the servers"; finish; }
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

# RFC 3164 for old receivers: rsyslog reads the BSD form (its own parser for
# it: no version after PRI), host, tag and text as sent: the kernel's two
# records, the two lines and its own notice that it is streaming
: > "$T/bsd.log"
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tcp://127.0.0.1:$SYSLOG_PORT --format=rfc3164 --hostname=OLD-1 \
	"$T/bsd.log" 2> "$T/bsd.err" &
pid=$!
printf 'bootbench: [0.90] bootbench 0.1.0, kernel 6.1.0-28-amd64\nbootbench: [3.10] run: smoke on /dev/nvme0n1\n' >> "$T/bsd.log"
i=0
until grep -q '^OLD-1 .*run: smoke' "$T/syslog.txt" 2>/dev/null || [ $i -ge 150 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
sleep 0.5
grep '^<[0-9]*>[A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* OLD-1 ' "$T/syslog.raw" > "$T/bsd.raw"
sed 's/^/    /' "$T/bsd.raw"
check "rfc3164: stopped, it exits 0 (everything sent)" [ $rc = 0 ]
check "... each message as RFC 3164 writes it: <PRI>Mmm dd hh:mm:ss HOST TAG: text, none other from OLD-1" sh -c \
	"[ \$(wc -l < '$T/bsd.raw') = 5 ] && [ \$(grep -c OLD-1 '$T/syslog.raw') = 5 ] &&
	 grep -qx '<13>[A-Z][a-z][a-z] [ 1-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] OLD-1 bootbench: bootbench: \[3.10\] run: smoke on /dev/nvme0n1' '$T/bsd.raw' &&
	 grep -qx '<3>[A-Z][a-z][a-z] [ 1-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] OLD-1 kernel: nvme nvme0: I/O 12 QID 1 timeout, aborting' '$T/bsd.raw'"
check "... rsyslog read host, program and text from it (kernel and bootbench)" sh -c \
	"awk '\$1 == \"OLD-1\" { print \$2 }' '$T/syslog.txt' | sort | uniq -c | awk '{ printf \"%s %s,\", \$1, \$2 }' | grep -qx '3 bootbench,2 kernel,'"
check "... and the time: [3.10]'s stamp is 2.2 s after [0.90]'s, to the second" python3 -c "
import sys, datetime
t = {}
for l in open('$T/syslog.txt'):
    f = l.split(None, 3)	# no sequenceId in RFC 3164: HOST APP TIME MSG
    if f[0] == 'OLD-1' and f[3].startswith('bootbench: ['):
        t[f[3].split(' ')[1]] = datetime.datetime.fromisoformat(f[2])
sys.exit(abs((t['[3.10]'] - t['[0.90]']).total_seconds() - 2.2) > 1)"
# over TCP an old receiver reads up to a newline (RFC 6587's non-transparent
# framing), not an octet count before each message: what comes on the wire
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); s.settimeout(15)
c, _ = s.accept(); c.settimeout(15); data = b""
while data.count(b"\n") < 2:
    b = c.recv(4096)
    if not b: break
    data += b
open(sys.argv[2], "wb").write(data)' $WIRE_PORT "$T/wire" &
listener=$!
sleep 0.5
printf 'bootbench: [1.00] one\nbootbench: [1.50] two\n' > "$T/wire.log"
mkdir -p "$T/empty/dev" && : > "$T/empty/dev/kmsg"
BOOTBENCH_SYSROOT="$T/empty" "$BB" syslog --to=tcp://127.0.0.1:$WIRE_PORT --format=rfc3164 --hostname=OLD-2 \
	"$T/wire.log" 2> /dev/null &
pid=$!
wait $listener
kill -TERM $pid; wait $pid
check "... over TCP each message ends with a newline, no octet count before it" sh -c \
	"od -c '$T/wire' | head -n1 | grep -q '^0000000   <' && tail -c1 '$T/wire' | od -c | grep -q '\\\\n' &&
	 ! grep -v '^<13>[A-Z][a-z][a-z] [ 1-3][0-9] [0-9:]* OLD-2 bootbench: ' '$T/wire' &&
	 head -n2 '$T/wire' | grep -c 'OLD-2 bootbench: bootbench: \[1\.[05]0\] \(one\|two\)\$' | grep -qx 2"
refuses "a format it does not write" "--format: syslog format 'rfc5425': expected rfc5424 or rfc3164" \
	"$BB" syslog --to=udp://10.0.0.1 --format=rfc5425 "$T/console.log"

# syslog over TLS (RFC 5425) to rsyslog's GnuTLS driver: verified against the CA given
start_rsyslog_tls || { bad "rsyslogd with GnuTLS starts"; finish; }
printf 'bootbench: [0.90] over TLS\nbootbench: [1.20] second line\n' > "$T/tls.log"
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tls://127.0.0.1:$SYSLOG_TLS_PORT --ca="$T/ca/ca.crt" --hostname=TLS-1 \
	"$T/tls.log" 2> "$T/tls.err" &
pid=$!
# rsyslog's GnuTLS input writes the last records it read only when more
# come or the connection ends: the stop ends it
i=0
until grep -q "syslog: streaming this boot's log" "$T/tls.err" || [ $i -ge 150 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
i=0
until grep -q '^TLS-1 .*streaming' "$T/syslog-tls.txt" 2>/dev/null || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
sed 's/^/    /' "$T/syslog-tls.txt" "$T/tls.err"
check "tls://: stopped, it exits 0 (everything sent)" [ $rc = 0 ]
check "... rsyslog got every line over TLS, sequenceId 1 to 5: the kernel's two, the two lines, its notice" sh -c \
	"awk '\$1 == \"TLS-1\" { print \$3 }' '$T/syslog-tls.txt' | awk '\$1 != NR { exit 1 } END { exit NR != 5 }' &&
	 grep -q '^TLS-1 bootbench 3 .* bootbench: \[0.90\] over TLS\$' '$T/syslog-tls.txt' &&
	 grep -q '^TLS-1 kernel 2 .* nvme nvme0: I/O 12 QID 1 timeout, aborting\$' '$T/syslog-tls.txt'"
check "... and says where it streamed" grep -q "syslog: streaming this boot's log to tls://127.0.0.1:$SYSLOG_TLS_PORT as TLS-1" "$T/tls.err"
# a server whose certificate another CA signed: no handshake, nothing sent
make_ca "$T/other-ca"
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tls://127.0.0.1:$SYSLOG_TLS_PORT --ca="$T/other-ca/ca.crt" --hostname=TLS-2 \
	"$T/tls.log" 2> "$T/tls2.err" &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
rc=$?
sed 's/^/    /' "$T/tls2.err"
check "tls:// with another CA: the certificate is refused, nothing sent, exit 1" sh -c \
	"[ $rc = 1 ] && grep -q 'not sent at the end (TLS handshake: ASN no signer error to confirm failure)' '$T/tls2.err' &&
	 ! grep -q '^TLS-2 ' '$T/syslog-tls.txt'"
# a certificate from the right CA for another name (openssl's own server)
openssl req -newkey rsa:2048 -nodes -keyout "$T/other.key" -out "$T/other.csr" -subj /CN=other.example 2>/dev/null &&
printf 'subjectAltName=DNS:other.example\n' > "$T/other.san" &&
openssl x509 -req -in "$T/other.csr" -CA "$T/ca/ca.crt" -CAkey "$T/ca/ca.key" -CAcreateserial -out "$T/other.crt" \
	-days 2 -extfile "$T/other.san" 2>/dev/null
$GUARD openssl s_server -accept 127.0.0.1:$OTHER -cert "$T/other.crt" -key "$T/other.key" -quiet > "$T/s_server.out" 2>&1 &
SERVER_PIDS="$SERVER_PIDS $!"
wait_port $OTHER 10
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tls://127.0.0.1:$OTHER --ca="$T/ca/ca.crt" --hostname=TLS-3 \
	"$T/tls.log" 2> "$T/tls3.err" &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
rc=$?
sed 's/^/    /' "$T/tls3.err"
check "tls:// to a certificate for another name: refused, nothing sent, exit 1" sh -c \
	"[ $rc = 1 ] && grep -q 'not sent at the end (TLS handshake: peer subject name mismatch)' '$T/tls3.err' &&
	 ! grep -q 'TLS-3' '$T/s_server.out'"
BOOTBENCH_SYSROOT="$T/root" "$BB" syslog --to=tls://127.0.0.1 --ca="$T/ca/ca.crt" --drain=0 "$T/tls.log" 2> "$T/tls4.err" &
pid=$!
sleep 0.5; kill -TERM $pid; wait $pid
# (a client's default only: nothing is started there, and --drain=0 waits for no answer)
check "tls:// without a port: RFC 5425's 6514" grep -q 'tls://127.0.0.1:6514' "$T/tls4.err"
refuses "--ca for a server that is not tls://" "--ca is for a tls:// server, not tcp://10.0.0.1:514" \
	"$BB" syslog --to=tcp://10.0.0.1 --ca="$T/ca/ca.crt" "$T/console.log"
refuses "a CA file that is not there" "the CA file $T/none: No such file or directory" \
	"$BB" syslog --to=tls://10.0.0.1 --ca="$T/none" "$T/console.log"
refuses "a CA file with no certificate in it" "the CA file $T/console.log: no CA certificate in it" \
	"$BB" syslog --to=tls://10.0.0.1 --ca="$T/console.log" "$T/console.log"

# stopped while the server is down: it gives up at once
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
check "... within 2 s (a refused connection is not waited for; ${ms} ms)" [ "$ms" -lt 2000 ]

# stopped while the DNS server does not answer: no longer than --drain=5
# (musl's resolver waits 5 s a lookup: one going on when the stop comes and
# one more in the drain were 7 to 10 s). Its own network (loopback only) and
# mounts: a server on 127.0.0.1:53 that reads and never answers, named by a
# resolv.conf bound over the machine's in that namespace only (port 53,
# DNS's own, is that namespace's: no one else's).
if unshare --net --mount --propagation private true 2>/dev/null; then
	BOOTBENCH_SYSROOT="$T/root" unshare --net --mount --propagation private sh -c '
		ip link set lo up
		python3 -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((\"127.0.0.1\", 53))
while True: s.recv(2048)" &
		dns=$!
		echo "nameserver 127.0.0.1" > "$1/resolv.conf"
		mount --bind "$1/resolv.conf" /etc/resolv.conf
		sleep 0.3
		"$2" syslog --to=tcp://syslog.example:514 --drain=5 --hostname=SN-4711 "$1/console.log" 2> "$1/dns.err" &
		pid=$!
		sleep 1
		start=$(date +%s%N)
		kill -TERM $pid
		wait $pid
		echo $? $(( ($(date +%s%N) - start) / 1000000 )) > "$1/dns.stop"
		kill $dns' sh "$T" "$BB"
	read -r rc ms < "$T/dns.stop"
	echo "    stopped with DNS not answering in $ms ms: $(cat "$T/dns.err")"
	check "stopped while DNS does not answer, it takes no longer than --drain=5 ($ms ms)" [ "$ms" -le 5500 ]
	check "... exits 1 and says the name had no answer" sh -c \
		"[ $rc = 1 ] && grep -q 'not sent at the end (cannot resolve the host: no answer from DNS yet)' '$T/dns.err'"
else
	echo "    (no mount namespace here: the DNS stop is checked where there is one)"
fi

refuses "no --to" "--to=udp://HOST[:PORT], tcp://HOST[:PORT] or tls://HOST[:PORT] is needed" "$BB" syslog "$T/console.log"
refuses "a scheme it does not speak" "expected udp://HOST[:PORT], tcp://HOST[:PORT] or tls://HOST[:PORT]" "$BB" syslog --to=http://10.0.0.1/ "$T/console.log"
refuses "a port out of range" "the port is not a number from 1 to 65535" "$BB" syslog --to=udp://10.0.0.1:65536 "$T/console.log"
refuses "a path after the port" "unexpected '/x' after" "$BB" syslog --to=udp://10.0.0.1:514/x "$T/console.log"
refuses "a hostname with a blank" "--hostname: 1 to 255 printable ASCII" "$BB" syslog --to=udp://10.0.0.1 --hostname="a b" "$T/console.log"
refuses "a console log that is not there" "cannot read $T/none" "$BB" syslog --to=udp://10.0.0.1 "$T/none"
ln -s "$T/console.log" "$T/link.log"
refuses "a console log that is a link" "cannot read $T/link.log" "$BB" syslog --to=udp://10.0.0.1 "$T/link.log"
finish
