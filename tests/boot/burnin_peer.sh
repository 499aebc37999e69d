# SPDX-License-Identifier: MIT
# Boot test (issue 32): one booted appliance the network burn-in's peer of
# another, as two servers cabled back to back with no DHCP server on the
# cable. Two guests, each with a second NIC on one socket network over
# loopback (QEMU's -netdev socket): the first boots with
# bootbench.iperf_server=on and bootbench.ip=eth1=10.55.0.1/24, the second
# with bootbench.ip naming its port by MAC and an unattended
# bootbench.run=burnin of the net component against the first
# (bootbench.iperf=10.55.0.1). iperf3 runs each way across the cable: net
# PASSes with both figures over the bar (burnin_net_min_mbps, as TCG's
# throughput is far from a real port's). That first burn-in is the whole
# server's, together (issue 45): cpu, memory, two NVMe disks written and
# the network at once, the samples of the machine's load showing them
# overlap. Then the bar is set above what the
# cable carries: net FAILs naming the figure and the bar.
# timeout: 420
. tests/bootlib.sh
need_artifacts
need_commands python3
free_port PORT
# the base and the burnin pack (iperf3 is in the pack), as a boot loader hands them over
cat "$OUT/initramfs.img" "$OUT/burnin.img" > "$T/initrd.img"
APPEND="console=ttyS0,115200 bootbench.boot=net bootbench.id=$BOOT_ID $ASLR_OFF bootbench.net=off"
# the peer: iperf3's server on the cabled port, nothing else: one vCPU (issue 49), as iperf3
# serves one stream on one CPU and a second vCPU only added its cost
scripts/qemu.sh --timeout "$BOOT_LIMIT" --serial "$T/peer.log" --peer-link listen:$PORT --smp 1 \
	--kernel "$OUT/vmlinuz" --initrd "$T/initrd.img" \
	--append "$APPEND bootbench.ip=52:54:00:be:00:01=10.55.0.1/24 bootbench.iperf_server=on" > /dev/null 2>&1 &
peer=$!
trap 'pkill -TERM -f "qemu-system.*file:$T/peer.log"; wait $peer; cleanup' EXIT
i=0; while ! grep -q 'iperf-server: starting' "$T/peer.log" 2>/dev/null && [ $i -lt 480 ]; do sleep 0.5; i=$((i + 1)); done
check "the peer starts iperf3's server" grep -q 'iperf-server: starting' "$T/peer.log"
# the cabled port is named by its MAC on both sides: with two virtio NICs
# probed at once on two vCPUs, which is eth0 and which eth1 is a race (as
# on a real server without udev's names)
check "... with the cabled port's fixed address (bootbench.ip by MAC)" grep -Eq 'network: eth[0-9]+ is 10\.55\.0\.1/24 \(bootbench\.ip\)' "$T/peer.log"
check "... and no DHCP (bootbench.net=off)" sh -c "! grep -q 'network: DHCP on' '$T/peer.log'"
# burnin BAR [COMPONENTS DURATION QEMU-ARGS BOOT-PARAMETERS]: the net component (or COMPONENTS)
# against the peer; its console in $T/burnin-BAR.log
burnin() {
	# QEMU-ARGS split on blanks: $T has none
	scripts/qemu.sh --timeout "$BOOT_LIMIT" --serial "$T/burnin-$1.log" --peer-link connect:$PORT \
		--kernel "$OUT/vmlinuz" --initrd "$T/initrd.img" --smp 2 ${4:-} \
		--append "$APPEND bootbench.ip=52:54:00:be:00:02=10.55.0.2/24 bootbench.run=burnin bootbench.burnin=${2:-net} \
bootbench.duration=${3:-20s} bootbench.iperf=10.55.0.1 bootbench.burnin_net_min_mbps=$1 bootbench.save=console \
bootbench.after=poweroff ${5:-}" > /dev/null 2>&1
}
# result BAR NAME: a result file cut from that run's console
result() {
	tr -d '\r' < "$T/burnin-$1.log" | sed -n "/^----- bootbench result $2 begin -----\$/,/^----- bootbench result $2 end -----\$/p" | sed '1d;$d'
}
# the whole server against the peer (issue 45): cpu, memory, two NVMe disks written and the
# network, together (the default with two components or more), the machine's load sampled.
# 40 s (issue 49; it was 60 s): the four loads were all there at once for 22 s of 64 s sampled
# (0.34), as for 29 s of 86 s at 60 s; at 30 s 17 s of 49 s alone, but 14 s of 51 s beside
# stress-ng --cpu 2 (0.27) and 6 s of 72 s beside more. Two vCPUs: on one they were at once for
# 16 s of 106 s (0.15). The bar here 0.15, not 0.25: a fresh root's suite, two serial lanes and
# two guests beside it, had them at once 15 s of 62 s (0.24) and the run ERROR, as 60 s beside
# stress-ng once had 23 s of 96 s; what this proves is that the guest's loads ran together for
# a sustained time (three samples or more, every load at once); the bar's verdict both ways is
# burnin_together.sh's
truncate -s 64M "$T/nvme0.img" "$T/nvme1.img"
burnin 5 cpu,memory,disks,net 40s "--disk nvme:$T/nvme0.img --disk nvme:$T/nvme1.img" \
	"bootbench.targets=/dev/nvme0n1,/dev/nvme1n1 bootbench.destroy=/dev/nvme0n1,/dev/nvme1n1 \
bootbench.burnin_cpu_need_sensors=0 bootbench.burnin_cpu_freq_min=0 bootbench.burnin_memory_need_edac=0 \
bootbench.burnin_memory_fraction=0.1 bootbench.burnin_disks_need_selftest=0 bootbench.burnin_together_overlap_min=0.15"
check "the burn-in's guest powered off" grep -q 'reboot: Power down' "$T/burnin-5.log"
check "... its port named by MAC got its fixed address" grep -Eq 'network: eth[0-9]+ is 10\.55\.0\.2/24 \(bootbench\.ip\)' "$T/burnin-5.log"
cabled=$(tr -d '\r' < "$T/burnin-5.log" | sed -n 's/^bootbench: \[[0-9.]*\] network: \(eth[0-9]*\) is 10\.55\.0\.2\/24 (bootbench\.ip)$/\1/p' | head -n 1)
result 5 burnin.txt > "$T/pass.txt"
result 5 burnin.json > "$T/pass.json"
cat "$T/pass.txt"
check "net PASS across the cable, the machine PASS" sh -c \
	"grep -q '^net       PASS' '$T/pass.txt' && grep -q '^machine   PASS' '$T/pass.txt'"
check "... the whole server together: cpu, memory, both NVMe disks written, the network, each PASS" json "$T/pass.json" \
	"d['phases'] == ['together'] and sorted(d['together']['loads']) == ['cpu', 'disks', 'memory', 'net'] and
	 all(c['verdict'] == 'PASS' for c in d['components'] if c['name'] in ('cpu', 'memory', 'disks', 'net', 'together')) and
	 [len(c['devices']) for c in d['components'] if c['name'] == 'disks'] == [2]"
check "... their times overlapping: each began before any ended" json "$T/pass.json" \
	"(lambda r: len(r) == 4 and max(x['from_s'] for x in r) < min(x['to_s'] for x in r))([c['ran']['together'] for c in d['components'] if c['name'] in ('cpu', 'memory', 'disks', 'net')])"
check "... the load sampled: seconds with the CPUs busy, the memory's share in use, the disks and the network moving, all at once" json "$T/pass.json" \
	"(lambda t, ok: len(ok) >= 3 and t['overlap_s'] >= 0.15 * t['sampled_s'] and all(s['cpu_busy_pct'] >= 90 and s['disk_mbs'] >= 1 and
	  s['net_mbs'] >= 1 and len(s['running']) == 4 for s in ok))(d['together'], [s for s in d['together']['samples'] if s['all']])"
check "... iperf3 each way to the peer, over the bar, in the figures" json "$T/pass.json" \
	"[f['iperf_send_mbps']['value'] > 5 and f['iperf_receive_mbps']['value'] > 5 and
	  'to 10.55.0.1 through ${cabled:-the cabled port}' in f['iperf_send_mbps']['text']
	  for f in [c['figures'] for c in d['components'] if c['name'] == 'net']] == [True]"
# a bar no emulated cable carries: 100 Gb/s, for the least time a burn-in takes (10 s: 5 s each
# way), on one vCPU (issue 49): iperf3 runs one stream on one CPU, and the check is its figure
# against the bar (it was 20 s on two vCPUs)
burnin 100000 net 10s "--smp 1"
result 100000 burnin.txt > "$T/fail.txt"
cat "$T/fail.txt"
check "a bar above what the cable carries: net FAIL, naming the figure and the bar" sh -c \
	"grep -q '^net       FAIL' '$T/fail.txt' && grep -Eq 'iperf3 (to|from) 10\.55\.0\.1: [0-9]+ Mb/s, under 100000 Mb/s' '$T/fail.txt'"
check "... the peer served both runs" sh -c "[ \$(grep -c 'Accepted connection from 10.55.0.2' '$T/peer.log') -ge 2 ]"
finish
