# SPDX-License-Identifier: MIT
# burnin_net.sh - bootbench burnin's net component against a real iperf3
# server (Debian's, started by bootbench iperf-server as a peer appliance
# would) in a network namespace this test makes, over a veth pair: throughput measured each way over the bar passes, under it FAILs
# with both figures; the link the traffic takes going down during the test
# FAILs naming it; no server named, or one not listening, is an ERROR.
. tests/lib.sh
need_commands iperf3 ip ethtool python3 unshare nsenter ss
[ "$(id -u)" = 0 ] || skip "needs root (a network namespace)"
A=bbna$$ B=bbnb$$ PORT=15201
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
	kill $SERVER $HOLDER 2>/dev/null
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
# the server as a booted peer runs it: bootbench iperf-server (as nobody)
peer "$BB" iperf-server --port=$PORT > "$T/server.log" 2>&1 &
SERVER=$!
i=0; while ! peer ss -ltn 2>/dev/null | grep -q ":$PORT " && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "bootbench iperf-server listens, as nobody" sh -c "ps -o user= -C iperf3 | grep -qx nobody"
burn() { # NAME [ARGS...]: the net component for 4 s
	n=$1; shift
	mkdir -p "$T/$n"
	"$BB" burnin --components=net --duration=10s "$@" --output="$T/$n" > /dev/null 2>&1
	echo $? > "$T/$n.rc"
}
net() { # NAME PYTHON about c, the net component
	json "$T/$1/burnin.json" "(lambda c: $2)([x for x in d['components'] if x['name'] == 'net'][0])"
}
BOOTBENCH_SCALE=0.4 burn pass --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
check "throughput over the bar both ways: PASS, exit 0" net pass \
	"c['verdict'] == 'PASS' and c['figures']['iperf_send_mbps']['value'] > 1 and c['figures']['iperf_receive_mbps']['value'] > 1"
check "... through the veth the route takes, named" net pass "'through $A' in c['figures']['iperf_send_mbps']['text']"
check "... exit 0" [ "$(cat "$T/pass.rc")" = 0 ]
BOOTBENCH_SCALE=0.4 burn slow --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1000000
check "under the bar: FAIL, both directions named with their figures" net slow \
	"c['verdict'] == 'FAIL' and 'iperf3 to 10.199.77.2:$PORT: ' in c['reason'] and 'iperf3 from 10.199.77.2:$PORT: ' in c['reason'] and 'under 1000000 Mb/s' in c['reason']"
BOOTBENCH_SCALE=0.4 burn ratio --iperf=10.199.77.2:$PORT --limits=net_ratio=1
check "... the default bar is net_ratio of the link's speed (the veth's 10000 Mb/s)" net ratio \
	"c['figures']['iperf_limit_mbps']['value'] == 10000"
(sleep 1; peer ip link set $B down; sleep 1; peer ip link set $B up) &
flap=$!
BOOTBENCH_SCALE=0.6 burn down --iperf=10.199.77.2:$PORT --limits=net_min_mbps=1
wait $flap	# not the server's job: it runs to the end
check "the link lost during the test: FAIL naming it" net down \
	"c['verdict'] == 'FAIL' and '$A lost its link during the test (carrier changes' in c['reason']"
burn noserver
check "no server named: ERROR, not PASS" net noserver \
	"c['verdict'] == 'ERROR' and 'no iperf3 server named' in c['reason']"
BOOTBENCH_SCALE=0.4 burn closed --iperf=10.199.77.2:15299
check "a server not listening: ERROR with iperf3's words" net closed \
	"c['verdict'] == 'ERROR' and 'iperf3 to 10.199.77.2:15299' in c['reason'] and 'connect' in c['reason']"
check "... exit 1" [ "$(cat "$T/closed.rc")" = 1 ]
finish
