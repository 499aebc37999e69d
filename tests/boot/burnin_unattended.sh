# SPDX-License-Identifier: MIT
# Boot test (issue 32): an unattended burn-in of the whole server from
# bootbench.conf on the stick (bootbench.run=burnin, bootbench.burnin= every
# component, bootbench.duration=, bootbench.iperf=, burnin_* limits): a
# guest with a BMC (QEMU's ipmi-bmc-sim) runs cpu, memory, net (iperf3 to a
# real iperf3 server on this machine's loopback, reached through QEMU's
# user networking) and bmc, saves burnin.json, burnin.txt and report.html
# (the verdict table) to the stick, and powers off. A VM has no CPU sensors and no EDAC: the limits accept
# that (cpu_need_sensors=0, memory_need_edac=0), and the test says so. The
# components run together (the default): under TCG the memory's 90% is
# locked slowly beside the CPU's stressors, so the overlap's bar is a fifth
# (burnin_together_overlap_min=0.2), and the row's figures are printed.
# timeout: 420
. tests/bootlib.sh
need_artifacts
need_commands mcopy python3
free_port PORT
host_iperf3 $PORT
# 30 s as duration=30s, not 1m scaled by 0.5: a burn-in's grace for a component running past
# its time is scaled too (60 s, not 120 s), and memtester's first pattern, which runs to its end
# whatever the time, ran past it under load
stick_with_conf "$T/stick.img" run=burnin burnin=cpu,memory,net,bmc duration=30s iperf=10.0.2.2:$PORT \
	burnin_cpu_need_sensors=0 burnin_memory_need_edac=0 burnin_net_min_mbps=1 burnin_together_overlap_min=0.2 after=poweroff
# 512 MiB (issue 49): the memory component's share is 90% of what is free, and over 90% of
# 1 GiB (0.71 GB, memtester's patterns at 0.25 GB/s under TCG on a loaded host) it ran on 61 s
# past the burn-in's time and was stopped (memory ERROR), both vCPUs busy all along; over 90%
# of 512 MiB (0.32 GB) it PASSed, every load at once for 27 s of 60 s. Not less: at 384 MiB the
# little left beside the share stalled the cpu's stressor past its limit. Not one vCPU: there
# the patterns over 0.33 GB ran on 60 s past the time. What is checked (90% of what was
# available tested, each component PASS, the loads at once) is the same over less memory
boot --fw bios --usb "$T/stick.img" --bmc --mem 512 --smp 2 || finish
if fetch_results "$T/stick.img" > /dev/null; then
	check "burnin.json and burnin.txt are saved on the stick" [ -s "$T/results/burnin.json" ] && [ -s "$T/results/burnin.txt" ]
	comp() { json "$T/results/burnin.json" "(lambda c: $2)([x for x in d['components'] if x['name'] == '$1'][0])"; }
	check "cpu PASS: every stressor ran and verified" comp cpu "c['verdict'] == 'PASS' and c['figures']['stressors_run']['value'] == 3"
	check "memory PASS: 90% of what was available tested, at some GB/s" comp memory \
		"c['verdict'] == 'PASS' and '(90%)' in c['figures']['tested_gb']['text'] and c['figures']['pattern_gbs']['value'] > 0"
	check "net PASS: iperf3 to this machine both ways" comp net \
		"c['verdict'] == 'PASS' and c['figures']['iperf_send_mbps']['value'] > 1 and c['figures']['iperf_receive_mbps']['value'] > 1"
	check "bmc PASS: QEMU's BMC answered, its sensors read" comp bmc "c['verdict'] == 'PASS' and c['figures']['sensors']['value'] > 0"
	grep -E '^(together|machine)' "$T/results/burnin.txt"
	check "the machine's verdict is PASS, and the limits given are the ones used" json "$T/results/burnin.json" \
		"d['verdict'] == 'PASS' and d['limits']['net_min_mbps'] == 1 and d['limits']['cpu_need_sensors'] == 0 and
		 d['limits']['together_overlap_min'] == 0.2 and d['phases'] == ['together']"
	check "inventory.json beside it: QEMU's SMBIOS, the memory slot, the NIC, the BMC's firmware (ipmitool mc info)" \
		json "$T/results/inventory.json" "d['system']['vendor'] == 'QEMU' and d['memory']['dimms'][0]['size_bytes'] > 0 and
			d['nics'][0]['driver'] == 'virtio_net' and d['bmc']['present'] and d['bmc']['firmware'] != ''"
	check "the console log says the burn-in ran, exit 0" grep -q 'burnin: exit status 0' "$T/results/console.log"
	check "report.html has the verdict table: the machine PASS, a row a component and the together phase's" sh -c \
		"grep -q '<h2>Burn-in</h2>' '$T/results/report.html' && grep -q 'The machine: <b>PASS</b>' '$T/results/report.html' &&
		 [ \$(grep -o '<tr><td>[a-z]*</td><td>PASS</td>' '$T/results/report.html' | wc -l) = 5 ]"
else
	bad "a results folder is on the stick"
fi
finish
