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
# The rack's inventories (issue 32): log-tcp and log-udp are twins of one
# model, log-down its odd machine (less memory, two vCPUs, one disk fewer,
# an e1000 NIC, another BIOS); bootbench compare --inventory on this machine
# names exactly log-down and what differs (inventory_fleet.sh's own three
# guests before issue 49).
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
# The rack's inventories (issue 32; inventory_fleet.sh's guests were these, issue 49): log-tcp and
# log-udp are twins of one model (the SMBIOS given a BIOS vendor and version as a vendor's firmware
# has them; 1 GiB, one vCPU, two virtio disks beside rack_guest's NVMe disk, a virtio NIC);
# log-down differs as a rack's odd machine does (less memory, two vCPUs, one virtio disk, an
# e1000 NIC, another BIOS).
inventory_disks() { # NAME N: N virtio disks of 64 MiB, $T/NAME-dI.img ($T has no blank)
	for i in $(seq 1 "$2"); do truncate -s 64M "$T/$1-d$i.img"; printf ' --disk virtio:%s' "$T/$1-d$i.img"; done
}
rack_guest log-tcp "$RUN bootbench.syslog=tcp://10.0.2.2:$SYSLOG_PORT" --mem 1024 \
	--smbios "type=0,vendor=Acme BIOS,version=2.1" $(inventory_disks log-tcp 2)
a=$!
rack_guest log-udp "$RUN bootbench.syslog=udp://10.0.2.2:$SYSLOG_PORT" --mem 1024 \
	--smbios "type=0,vendor=Acme BIOS,version=2.1" $(inventory_disks log-udp 2)
b=$!
rack_guest log-down "$RUN bootbench.syslog=tcp://10.0.2.2:$DOWN bootbench.ntp=10.0.2.2" --rtc 2001-01-01 \
	--mem 768 --smp 2 --nic e1000 --smbios "type=0,vendor=Acme BIOS,version=2.0" $(inventory_disks log-down 1)
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

# The rack's inventories side by side (issue 32): bootbench compare --inventory on this machine
# names exactly the odd machine, log-down, with each part that differs and what its twins have;
# the twins alone are alike (exit 0); a twin's newer inventory with one part changed counts, the
# older one set aside.
# inventory_of NAME: its inventory.json cut from its console to $T/fleet/NAME/
inventory_of() {
	mkdir -p "$T/fleet/$1"
	tr -d '\r' < "$T/$1.log" | sed -n '/^----- bootbench result inventory.json begin -----$/,/^----- bootbench result inventory.json end -----$/p' |
		sed '1d;$d' > "$T/fleet/$1/inventory.json"
	[ -s "$T/fleet/$1/inventory.json" ]
}
for g in log-tcp log-udp log-down; do
	check "$g: its inventory.json is on the console" inventory_of $g
done
check "log-tcp's inventory: the SMBIOS given (Acme R100, serial log-tcp, BIOS 2.1), one DIMM of 1 GiB, one thread, three disks, virtio_net" \
	json "$T/fleet/log-tcp/inventory.json" "d['system']['vendor'] == 'Acme' and d['system']['product'] == 'R100' and
		d['system']['serial'] == 'log-tcp' and d['machine'] == 'log-tcp' and d['bios']['version'] == '2.1' and
		[m['size_bytes'] for m in d['memory']['dimms'] if m['size_bytes']] == [1 << 30] and
		len(d['disks']) == 3 and d['nics'][0]['driver'] == 'virtio_net' and d['cpus']['threads'] == 1"
check "log-down's: two threads, 768 MiB, two disks, e1000" json "$T/fleet/log-down/inventory.json" \
	"d['cpus']['threads'] == 2 and [m['size_bytes'] for m in d['memory']['dimms'] if m['size_bytes']] == [768 << 20] and
	 len(d['disks']) == 2 and d['nics'][0]['driver'] == 'e1000'"
"$BB" compare --inventory "$T/fleet" > "$T/compare.txt" 2>&1
rc=$?
cat "$T/compare.txt"
check "compare --inventory: one model, three machines, exit 1 (one differs)" sh -c \
	"[ $rc = 1 ] && grep -q '^Acme R100: 3 machine(s), 1 differ\$' '$T/compare.txt'"
check "... the twins are alike" grep -q '^  alike: log-tcp log-udp$' "$T/compare.txt"
check "... log-down is named" grep -q '^  log-down (' "$T/compare.txt"
"$BB" compare --inventory --format=json "$T/fleet" > "$T/compare.json"
parts() { json "$T/compare.json" "sorted(p['part'] for m in d['models'] for x in m['differ'] if x['machine'] == 'log-down' for p in x['parts']) == $1"; }
check "... with exactly what differs: BIOS, the CPU count, memory and its slot, the NIC and its PCI device, the virtio disk count and the second one's PCI device" \
	parts "['bios', 'cpu count', 'disk unknown model (64.0MiB, virtio)', 'memory', 'nic eth0', 'pci 0000:00:03.0', 'pci 0000:00:07.0', 'slot DIMM 0']"
check "... each with the twins' value: BIOS 2.1, virtio_net, 2 virtio disks" sh -c \
	"grep -q 'bios: Acme BIOS 2.0 .*(the others: Acme BIOS 2.1' '$T/compare.txt' &&
	 grep -q 'nic eth0: e1000, .*(the others: virtio_net,' '$T/compare.txt' &&
	 grep -q 'disk .*: 1 x firmware .* (the others: 2 x firmware' '$T/compare.txt'"
mkdir -p "$T/twins" && cp -r "$T/fleet/log-tcp" "$T/fleet/log-udp" "$T/twins/"
"$BB" compare --inventory "$T/twins" > "$T/twins.txt" 2>&1
check "the twins alone: alike, exit 0" sh -c "[ $? = 0 ] && grep -q '^Acme R100: 2 machine(s), 0 differ\$' '$T/twins.txt'"
# log-udp again, later, with its second virtio disk gone: the newer one counts
mkdir -p "$T/fleet/log-udp-later"
python3 - "$T/fleet/log-udp/inventory.json" "$T/fleet/log-udp-later/inventory.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['taken'] = '2999-01-01T00:00:00Z'
d['disks'] = [x for x in d['disks'] if x['name'] != 'vdb']
json.dump(d, open(sys.argv[2], 'w'))
PY
"$BB" compare --inventory "$T/fleet" > "$T/later.txt" 2>&1
check "a machine's newer inventory counts, the older set aside: log-tcp stands alone on the disks" sh -c \
	"grep -q 'older ones of a machine left out' '$T/later.txt' && grep -q '^  log-tcp (' '$T/later.txt' && grep -q 'Acme R100: 3 machine(s)' '$T/later.txt'"
finish
