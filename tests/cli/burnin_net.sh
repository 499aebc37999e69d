# SPDX-License-Identifier: MIT
# burnin_net.sh - bootbench burnin's net component against a real iperf3
# server (Debian's, started by bootbench iperf-server as a peer appliance
# would) in a network namespace this test makes, over a veth pair: throughput measured each way over the bar passes, under it FAILs
# with both figures; the link the traffic takes going down during the test
# FAILs naming it; no server named, or one not listening, is an ERROR. A
# server busy with another client's test is waited for (its wait noted), up
# to a bound past which it is an ERROR saying so; one held by a client that
# sends nothing is an ERROR saying it did not answer.
# iperf3 runs the streams (-P) the link's speed asks (a veth says 10000
# Mb/s: one; test_net checks other speeds), as its own JSON, kept in the
# run's folder, says; a JSON without the sum judged, or with other streams
# than asked, is an ERROR.
# Bonds: this machine's kernel may have no bonding driver (CONFIG_BONDING
# is not set here), so a bond is made as the kernel shows one (bonding/
# under /sys/class/net/BOND, /proc/net/bonding/BOND) in a recorded tree
# (BOOTBENCH_SYSROOT), over two real veth members in a namespace of their
# own with its own sysfs: each member's carrier, speed and byte counters
# are linked from the tree to the live ones, and the streams really cross
# them, routed over both by the kernel's multipath with layer-4 hashing
# (the streams' ports spread them as a layer3+4 bond's hashing does) or
# over one (active-backup's active member). `ip route get` answers the
# bond, as it does for one (a wrapper on PATH). A healthy bond PASSes with
# its members listed and its mode's bar; a member whose driver gives no
# speed is "speed not reported", its figure null (issue 48); a member whose peer is down FAILs
# naming it; an 802.3ad layer3+4 bond whose streams all left on one member
# FAILs naming the other, and so does one with a member outside its active
# aggregator. (tests/unit/test_net.c reads bonds as the kernel writes them.)
# quiet
# (with none of its lane beside it: its busy server's hold, 9 s against a 4.8 s wait, was found
# free by the run beside other host tests twice: in make check, and in a fresh root's suite)
# tier: long (not in make check unless TESTS names it: its loads run for their time)
. tests/lib.sh
need_commands iperf3 ip tc ethtool python3 unshare nsenter ss taskset
[ "$(id -u)" = 0 ] || skip "needs root (a network namespace)"
A=bbna$$ B=bbnb$$
free_port PORT
# The peer: a network namespace held by a process of its own (unshare, not
# ip netns, which remounts / and cannot in a chroot), entered with nsenter.
unshare --net sleep 600 &
HOLDER=$!
i=0; while [ "$(readlink /proc/$HOLDER/ns/net 2>/dev/null)" = "$(readlink /proc/self/ns/net)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
peer() { nsenter --net --target $HOLDER "$@"; }
# every process in the peer's namespace (iperf3 is nsenter's grandchild, not $SERVER)
cleanup_net() {
	ns=$(readlink /proc/$HOLDER/ns/net 2>/dev/null)
	[ -n "$ns" ] && for p in /proc/[0-9]*; do
		[ "$(readlink $p/ns/net 2>/dev/null)" = "$ns" ] && kill ${p#/proc/} 2>/dev/null
	done
	kill $SERVER $HOLDER $TESTED 2>/dev/null
	ip link del $A 2>/dev/null
}
# a test stopped by the runner's timeout (TERM) cleans up too: a link left
# behind with this test's addresses would take the next run's traffic
trap 'cleanup_net; cleanup' EXIT
trap 'exit 1' TERM INT
ip link add $A type veth peer name $B && ip link set $B netns $HOLDER &&
	ip addr add 10.199.77.1/30 dev $A && ip link set $A up &&
	peer ip addr add 10.199.77.2/30 dev $B && peer ip link set $B up && peer ip link set lo up ||
	skip "a veth pair could not be made"
# The cable held to a rate (tc's token bucket each way), as a run's cost follows what iperf3
# moves: the veth's full speed is both CPUs' worth (80.6 CPU-s a run of this test, alone),
# and the bars here (net_min_mbps=1) are far under 200 Mb/s. The link's speed, which the default
# bar follows, is the veth's own still (ethtool's 10000 Mb/s).
rate() { # DEV RATE [WHERE]: DEV sends at RATE at most (WHERE: peer, tested, the namespace's)
	${3:-} tc qdisc replace dev $1 root tbf rate $2 burst 256kb latency 50ms ||
		{ bad "tc's token bucket on $1"; finish; }
}
rate $A 200mbit && rate $B 200mbit peer
# the server as a booted peer runs it: bootbench iperf-server (as nobody)
peer "$BB" iperf-server --port=$PORT > "$T/server.log" 2>&1 &
SERVER=$!
i=0; while ! peer ss -ltn 2>/dev/null | grep -q ":$PORT " && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "bootbench iperf-server listens, as nobody" sh -c "ps -o user= -C iperf3 | grep -qx nobody"
burn() { # NAME [ARGS...]: the net component for 4 s (COMPONENTS: others with it; $ON: a prefix)
	n=$1; shift
	mkdir -p "$T/$n"
	${ON:-} "$BB" burnin --components="${COMPONENTS:-net}" --duration=10s "$@" --output="$T/$n" > /dev/null 2>&1
	echo $? > "$T/$n.rc"
}
net() { # NAME PYTHON about c, the net component
	json "$T/$1/burnin.json" "(lambda c: $2)([x for x in d['components'] if x['name'] == 'net'][0])" && return 0
	# what the run said, for the failure's reader
	python3 -c "import json,sys; c=[x for x in json.load(open(sys.argv[1]))['components'] if x['name'] == 'net'][0]
print('    net:', c['verdict'], c.get('reason'), '| not_run:', c.get('not_run'))" "$T/$1/burnin.json" 2>&1 | head -c 3000
	return 1
}
BOOTBENCH_SCALE=0.4 burn pass --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
check "throughput over the bar both ways: PASS, exit 0" net pass \
	"c['verdict'] == 'PASS' and c['figures']['iperf_send_mbps']['value'] > 1 and c['figures']['iperf_receive_mbps']['value'] > 1"
# streams WANT FILE...: the iperf3 JSON kept in the run's folder ran that many (its start section)
streams() {
	want=$1; shift
	for f in "$@"; do
		json "$f" "d['start']['test_start']['num_streams'] == $want and len(d['start']['connected']) == $want and
			len(set(s['local_port'] for s in d['start']['connected'])) == $want" || return 1
	done
}
check "... the veth's 10000 Mb/s: one stream each way, in the figures" net pass \
	"c['figures']['net_streams']['value'] == 1 and '10000 Mb/s at 10000 Mb/s a stream' in c['figures']['net_streams']['text']"
check "... and in the JSON iperf3 gave" streams 1 "$T/pass/net-iperf3-send.json" "$T/pass/net-iperf3-receive.json"
check "... through the veth the route takes, named" net pass "'through $A' in c['figures']['iperf_send_mbps']['text']"
check "... exit 0" [ "$(cat "$T/pass.rc")" = 0 ]
# both phases (together, then each alone): each keeps its own iperf3 JSON, neither overwrites the other's
# (on one CPU, which the cpu component loads all of: the check is the files, issue 49)
COMPONENTS=cpu,net BOOTBENCH_SCALE=0.4 ON="taskset -c 0" burn phases --iperf=10.199.77.2:$PORT \
	--limits=net_min_mbps=1,cpu_need_sensors=0,cpu_need_all=0 \
	--phases=together,each
check "together,each: the together phase's iperf3 JSON and the alone phase's, each whole" streams 1 \
	"$T/phases/net-iperf3-send.json" "$T/phases/net-iperf3-receive.json" \
	"$T/phases/net-iperf3-send-alone.json" "$T/phases/net-iperf3-receive-alone.json"
BOOTBENCH_SCALE=0.4 burn slow --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1000000
check "under the bar: FAIL, both directions named with their figures" net slow \
	"c['verdict'] == 'FAIL' and 'iperf3 to 10.199.77.2:$PORT: ' in c['reason'] and 'iperf3 from 10.199.77.2:$PORT: ' in c['reason'] and 'under 1000000 Mb/s' in c['reason']"
BOOTBENCH_SCALE=0.4 burn ratio --iperf=10.199.77.2:$PORT --limits=net_ratio=1
check "... the default bar is net_ratio of the link's speed (the veth's 10000 Mb/s)" net ratio \
	"c['figures']['iperf_send_limit_mbps']['value'] == 10000 and c['figures']['iperf_receive_limit_mbps']['value'] == 10000"
(sleep 1; peer ip link set $B down; sleep 1; peer ip link set $B up) &
flap=$!
BOOTBENCH_SCALE=0.6 burn down --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
wait $flap	# not the server's job: it runs to the end
check "the link lost during the test: FAIL naming it" net down \
	"c['verdict'] == 'FAIL' and '$A lost its link during the test (carrier changes' in c['reason']"
# a server busy with another machine's test (iperf3 serves one at a time): the run waits its
# turn and says so (2 s: 3 s once ran past the wait beside two burn-ins); one busy past the wait
# (4.8 s at this scale) is an ERROR saying why
# (begun: the server accepted it; tried again while the server still ends the last run's test,
# which turned it away once on a loaded host, and the burn-in after it found the server free)
accepted() { grep -c 'Accepted connection' "$T/server.log"; }
hold() { # SECONDS: another client's test on the server, begun
	for try in 1 2 3 4 5 6 7 8 9 10; do
		n0=$(accepted)
		iperf3 -c 10.199.77.2 -p $PORT -t $1 -b 1M > "$T/hold.out" 2>&1 &
		HOLD=$!
		i=0; while [ "$(accepted)" -le "$n0" ] && kill -0 $HOLD 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1)); done
		[ "$(accepted)" -gt "$n0" ] && return 0
		kill $HOLD 2>/dev/null; wait $HOLD
		sleep 0.5
	done
	bad "another client's test begins on the server: $(tail -n 1 "$T/hold.out")"
}
hold 2
BOOTBENCH_SCALE=0.4 burn busy --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
wait $HOLD
check "a server busy with another's test for 2 s: the run waits its turn, PASS, the wait noted" net busy \
	"c['verdict'] == 'PASS' and 'the iperf3 server was busy with another client' in c['not_run'] and 'iperf_send_mbps' in c['figures']"
hold 9
BOOTBENCH_SCALE=0.4 burn busylong --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
wait $HOLD
check "... busy past the wait: ERROR saying the server was busy, not PASS" net busylong \
	"c['verdict'] == 'ERROR' and 'the server was busy with another client' in c['reason'] and 'throughput not measured' in c['reason']"
# a server held by a client that connected and sends nothing (a machine that hung right after
# connecting): iperf3's server waits on it, ours gets no answer. ERROR in our words once the
# run's time and 30 s are over, the other direction not tried (the watchdog's grace holds)
# The silent client holds the server before the burn-in starts: connected, and not turned away
# (the server, still ending the last test, once closed it at once; then the burn-in's iperf3 was
# the one reset). A server that took it waits on its first bytes: nothing comes back in 2 s.
cat > "$T/silent.py" <<'EOF'
import select, socket, sys, time
for _ in range(20):
    s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
    if not select.select([s], [], [], 2.0)[0]:
        break
    s.close()
    time.sleep(0.5)
else:
    sys.exit("the server turned the silent client away 20 times")
open(sys.argv[3], "w").close()
time.sleep(300)  # killed when the burn-in is over; 60 s ran out before it once, beside two burn-ins
EOF
python3 "$T/silent.py" 10.199.77.2 $PORT "$T/idle.up" &
IDLE=$!
i=0; while [ ! -e "$T/idle.up" ] && kill -0 $IDLE 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
check "a silent client holds the server" [ -e "$T/idle.up" ]
BOOTBENCH_SCALE=0.4 burn stall --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
kill $IDLE; wait $IDLE 2>/dev/null
check "a server held by a silent client: ERROR saying it did not answer, one direction tried, not the watchdog's" net stall \
	"c['verdict'] == 'ERROR' and 'did not end within 32 s' in c['reason'] and 'iperf3 from' not in c['reason'] and 'past its time' not in c['reason']"
burn noserver
check "no server named: ERROR, not PASS" net noserver \
	"c['verdict'] == 'ERROR' and 'no iperf3 server named' in c['reason']"
BOOTBENCH_SCALE=0.4 burn closed --iperf=10.199.77.2:15299
check "a server not listening: ERROR with iperf3's words" net closed \
	"c['verdict'] == 'ERROR' and 'iperf3 to 10.199.77.2:15299' in c['reason'] and 'connect' in c['reason']"
check "... exit 1" [ "$(cat "$T/closed.rc")" = 1 ]
# iperf3's JSON without the sum judged, or with fewer streams than asked: ERROR, never a PASS
mkdir -p "$T/fake"
cat > "$T/fake/iperf3" <<'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --logfile ] && log=$2; shift; done
case $FAKE in
nosum) end='{"sum_sent": {"bits_per_second": 9e9}}' n=1 ;;
*) end='{"sum_received": {"bits_per_second": 9e9}}' n=3 ;;
esac
printf '{"start": {"version": "iperf 3.12", "connected": [{"local_port": 1}], "test_start": {"num_streams": %d}},
 "intervals": [], "end": %s}\n' $n "$end" > "$log"
FAKE
chmod +x "$T/fake/iperf3"
FAKE=nosum PATH="$T/fake:$PATH" BOOTBENCH_SCALE=0.2 burn nosum --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
check "iperf3's JSON without end.sum_received: ERROR naming the field" net nosum \
	"c['verdict'] == 'ERROR' and 'its JSON has no end.sum_received.bits_per_second' in c['reason']"
FAKE=fewer PATH="$T/fake:$PATH" BOOTBENCH_SCALE=0.2 burn fewer --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
check "iperf3 running other streams than asked: ERROR" net fewer \
	"c['verdict'] == 'ERROR' and 'ran 3 stream(s), 1 connected, not the 1 asked' in c['reason']"

# --- a bond over two live veth members (see the top) ---
# the tested side: a network namespace with its own sysfs, so that
# /sys/class/net there is its links
# (--propagation unchanged, /sys made a slave in there: unshare's default makes / private, which
# fails where / is no mount point, as in a chroot; the new sysfs never reaches the host's /sys)
unshare --net --mount --propagation unchanged sh -c 'mount --make-rslave /sys && mount -t sysfs sysfs /sys && exec sleep 600' &
TESTED=$!
i=0; while [ "$(readlink /proc/$TESTED/ns/net 2>/dev/null)" = "$(readlink /proc/self/ns/net)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
i=0; while ! nsenter --mount --root --wd --target $TESTED test -d /sys/class/net/lo 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
tested() { nsenter --net --mount --root --wd --target $TESTED "$@"; }	# root and folder the process's: a chroot's, not the namespace's
IP=$(command -v ip)
tested ip link add bbm1 type veth peer name bbp1 netns $HOLDER &&
	tested ip link add bbm2 type veth peer name bbp2 netns $HOLDER &&
	tested ip link set lo up && tested ip addr add 10.199.79.1/32 dev lo &&
	tested ip addr add 10.199.78.1/30 dev bbm1 && tested ip addr add 10.199.78.5/30 dev bbm2 &&
	tested ip link set bbm1 up && tested ip link set bbm2 up &&
	peer ip addr add 10.199.78.2/30 dev bbp1 && peer ip addr add 10.199.78.6/30 dev bbp2 &&
	peer ip addr add 10.199.79.2/32 dev lo && peer ip link set bbp1 up && peer ip link set bbp2 up &&
	tested sysctl -qw net.ipv4.fib_multipath_hash_policy=1 && peer sysctl -qw net.ipv4.fib_multipath_hash_policy=1 ||
	bad "the bond's veth members could not be made"
# the members held to a rate above the bars below (active-backup: 1000 Mb/s to pass)
for m in 1 2; do rate bbm$m 1500mbit tested && rate bbp$m 1500mbit peer; done
# the routes: over both members (flows hashed by their ports), or over bbm1 alone
both() {
	tested ip route replace 10.199.79.2/32 src 10.199.79.1 nexthop via 10.199.78.2 dev bbm1 nexthop via 10.199.78.6 dev bbm2 &&
		peer ip route replace 10.199.79.1/32 nexthop via 10.199.78.1 dev bbp1 nexthop via 10.199.78.5 dev bbp2
}
one() {
	tested ip route replace 10.199.79.2/32 src 10.199.79.1 via 10.199.78.2 dev bbm1 &&
		peer ip route replace 10.199.79.1/32 via 10.199.78.1 dev bbp1
}
# record_bond MODE HASH ACTIVE PROC-MODE: the bond bbbo0 as Debian 12's kernel shows it (MODE and
# HASH: bonding/mode's and xmit_hash_policy's "word number"; an 802.3ad bond in aggregator 1)
R=$T/bondroot
record_bond() {
	rm -rf "$R" && mkdir -p "$R/sys/class/net/bbbo0/bonding" "$R/proc/net/bonding"
	b=$R/sys/class/net/bbbo0
	echo "$1" > "$b/bonding/mode"; echo "$2" > "$b/bonding/xmit_hash_policy"; echo "$3" > "$b/bonding/active_slave"
	echo "bbm1 bbm2" > "$b/bonding/slaves"; echo up > "$b/bonding/mii_status"; echo 100 > "$b/bonding/miimon"
	case $1 in 802.3ad*) echo 1 > "$b/bonding/ad_aggregator" ;; *) : > "$b/bonding/ad_aggregator" ;; esac
	echo 1 > "$b/carrier"; echo up > "$b/operstate"
	# a member: a wired link (device/) whose own files are the live veth's
	for m in bbm1 bbm2; do
		mkdir -p "$R/sys/class/net/$m/device"
		for f in statistics carrier carrier_changes speed operstate address; do
			ln -s "/sys/class/net/$m/$f" "$R/sys/class/net/$m/$f"
		done
	done
	# what a veth's sysfs has not (bonding_slave/): /proc/net/bonding's blocks
	{
		printf 'Ethernet Channel Bonding Driver: v6.1.0-57-amd64\n\nBonding Mode: %s\n' "$4"
		case $1 in 802.3ad*) printf 'Transmit Hash Policy: %s (%s)\n' ${2% *} ${2#* } ;; esac
		[ -n "$3" ] && printf 'Primary Slave: None\nCurrently Active Slave: %s\n' "$3"
		printf 'MII Status: up\nMII Polling Interval (ms): 100\nUp Delay (ms): 0\nDown Delay (ms): 0\n'
		case $1 in 802.3ad*) printf '\n802.3ad info\nLACP active: on\nActive Aggregator Info:\n\tAggregator ID: 1\n' ;; esac
		for m in bbm1 bbm2; do
			printf '\nSlave Interface: %s\nMII Status: up\nSpeed: 10000 Mbps\nDuplex: full\nLink Failure Count: 0\n' $m
			printf 'Permanent HW addr: 02:00:00:00:00:0%s\nSlave queue ID: 0\n' ${m#bbm}
			case $1 in 802.3ad*) printf 'Aggregator ID: 1\n' ;; esac
		done
	} > "$R/proc/net/bonding/bbbo0"
}
mkdir -p "$T/bin"
cat > "$T/bin/ip" <<IP
#!/bin/sh
# the kernel routes through a bond, not its members: say so, as it would
case "\$*" in "-o route get "*) echo "\$4 dev bbbo0 src 10.199.79.1 uid 0"; exit 0 ;; esac
exec "$IP" "\$@"
IP
chmod +x "$T/bin/ip"
bburn() { # NAME [ARGS...]: the net component on the tested side, through the bond
	n=$1; shift
	mkdir -p "$T/$n"
	tested env BOOTBENCH_SYSROOT="$R" PATH="$T/bin:$PATH" BOOTBENCH_SCALE=0.4 "$BB" burnin --components=net \
		--duration=10s --iperf=10.199.79.2:$PORT "$@" --output="$T/$n" > "$T/$n.out" 2>&1
	echo $? > "$T/$n.rc"
}
# active-backup, healthy: the traffic on its active member; the bar one member's
record_bond "active-backup 1" "layer2 0" bbm1 "fault-tolerance (active-backup)"
one
bburn ab --limits=net_ratio=0.1
check "a healthy active-backup bond: PASS, judged by its members, listed" net ab \
	"c['verdict'] == 'PASS' and 'bond bbbo0 (active-backup) judged by its members bbm1, bbm2' in c['reason'] and
	 'bbm1 (active) up at 10000 Mb/s, bbm2 up at 10000 Mb/s; 2 of 2 up' in c['figures']['bbbo0']['text']"
check "... the bar one member's speed (net_ratio of 10000 Mb/s), said why; one stream" net ab \
	"c['figures']['iperf_send_limit_mbps']['value'] == 1000 and 'active-backup sends on its active member bbm1 alone'
	 in c['figures']['iperf_send_limit_mbps']['text'] and c['figures']['net_streams']['value'] == 1"
check "... each member's share of the bytes: the active one's all" net ab \
	"[(x['device'], x['figures']['send_share']['value'] > 0.9) for x in c['devices']] == [('bbm1', True), ('bbm2', False)]"
# the backup's driver gives no speed (sysfs reads -1, as a VM's NIC or a port with its speed
# unknown): "speed not reported" in words and null in burnin.json, never "0 Mb/s" or -1 (issue 48)
record_bond "active-backup 1" "layer2 0" bbm1 "fault-tolerance (active-backup)"
rm "$R/sys/class/net/bbm2/speed" && echo -1 > "$R/sys/class/net/bbm2/speed"
bburn abnospeed --limits=net_ratio=0.1
check "a member whose speed is not reported: said so, its figure null, no 0 Mb/s or -1" net abnospeed \
	"'bbm2 up (speed not reported)' in c['figures']['bbbo0']['text'] and c['figures']['bbm2']['value'] is None and
	 c['figures']['bbm2']['text'].startswith('speed not reported') and
	 not any(w in json.dumps(c['figures']) for w in (' 0 Mb/s', '-1 Mb/s'))"
record_bond "active-backup 1" "layer2 0" bbm1 "fault-tolerance (active-backup)"
# the backup's cable out (its peer down): FAIL naming it
peer ip link set bbp2 down
bburn abdown --limits=net_ratio=0.1
peer ip link set bbp2 up
check "a member down (its peer's link down): FAIL naming it" net abdown \
	"c['verdict'] == 'FAIL' and \"bond bbbo0's member bbm2 is down (carrier off\" in c['reason'] and 'bbm1' not in c['reason']"
check "... exit 1" [ "$(cat "$T/abdown.rc")" = 1 ]
# 802.3ad with layer3+4 hashing, over both: 12 streams a member, spread by their ports; the bar the sum
record_bond "802.3ad 4" "layer3+4 1" "" "IEEE 802.3ad Dynamic link aggregation"
both
bburn lacp --limits=net_ratio=0.1
# (its bar, 2000 Mb/s, is what a busy 2-CPU host's veths carry with some room, not always: a FAIL
# of the throughput alone is let by, one naming the bond or a member is not)
check "802.3ad layer3+4 over both members: no member blamed, the bar their sum" net lacp \
	"(c['verdict'] == 'PASS' or (c['verdict'] == 'FAIL' and 'bbbo0' not in c['reason'] and 'bbm' not in c['reason'])) and
	 c['figures']['iperf_send_limit_mbps']['value'] == 2000 and
	 'layer3+4 hashing spreads the 24 streams' in c['figures']['iperf_send_limit_mbps']['text']"
check "... 24 streams (12 a member), in the figures" net lacp "c['figures']['net_streams']['value'] == 24"
check "... and iperf3 ran 24 each way (its JSON's start: 24 connected, 24 ports)" \
	streams 24 "$T/lacp/net-iperf3-send.json" "$T/lacp/net-iperf3-receive.json"
check "... each member carried a share each way" net lacp \
	"sorted(x['device'] for x in c['devices']) == ['bbm1', 'bbm2'] and
	 all(x['figures']['send_share']['value'] > 0.05 and x['figures']['receive_share']['value'] > 0.05 for x in c['devices'])"
# the same bond with every stream leaving on bbm1: bbm2 carried nothing its mode should have given it
one
bburn lacpone --limits=net_ratio=0.1
check "802.3ad layer3+4 with one member carrying everything: FAIL naming the other" net lacpone \
	"c['verdict'] == 'FAIL' and \"bond bbbo0's member bbm2 carried 0.0% of the bytes sent\" in c['reason']"
# bbm2 in another aggregator than the active one (its switch port not in the LAG): FAIL naming it
both
sed -i '/^Slave Interface: bbm2$/,$ s/^Aggregator ID: 1$/Aggregator ID: 2/' "$R/proc/net/bonding/bbbo0"
bburn lacpagg --limits=net_ratio=0.1
check "802.3ad with a member outside the active aggregator: FAIL naming it" net lacpagg \
	"c['verdict'] == 'FAIL' and \"bond bbbo0's member bbm2 is in 802.3ad aggregator 2, not the active one (1)\" in c['reason']"
finish
