# SPDX-License-Identifier: MIT
# Boot test (issue 33): a rack's alerts end to end. Debian's Prometheus
# scrapes Debian's Pushgateway on loopback, with bootbench's rules; three
# guests (their DMI serials rack-pass, rack-fail, rack-killed) push to it
# through user networking (bootbench.metrics=http://10.0.2.2:PORT):
#   - rack-pass runs the smoke profile on its NVMe disk and powers off;
#   - rack-fail burns in net and bmc: iperf3 to this machine's server
#     under a bar no emulated link reaches (net FAIL), and no BMC (bmc
#     ERROR);
#   - rack-killed runs the quick profile and is killed mid-run (QEMU
#     stopped from outside, as a machine that hangs or loses power).
# Exactly three alerts reach Prometheus' /api/v1/alerts, firing, with the
# right labels (the machine label is sys/ident.h's key: case folded):
# BootbenchBurninFailed (rack-fail, net), BootbenchBurninError
# (rack-fail, bmc) and BootbenchSilent (rack-killed, its disk); none names
# rack-pass. The rules are the shipped file with BootbenchSilent's 300 s
# set to 20 s (a test cannot wait five minutes; promtool's unit tests
# check the 300 s). bootbench fleet names rack-killed running while it
# runs, then, with the guests' saved results and Prometheus, each machine
# of the rack's list with its state: passed, failed (net, bmc), silent,
# and a fourth never seen. Then every dashboard panel's query returns
# series, save those with nothing to show in this rack (no outlier among
# three disks, no CPU sensor in a VM).
# Issue 46, with the guests' own pushes: rack-pass's finished run (its last
# push on the gateway: state pass, IOPS 0) is left out of the disks the
# outlier rules judge, rack-killed's running one is in, and no outlier is
# recorded; then rack-killed boots again and passes the smoke profile on a
# disk of its own (a virtio disk: a group of its own on the gateway), a
# newer run that supersedes the killed one's group: BootbenchSilent clears
# (rack-fail's alerts stay) and fleet --prometheus calls it passed.
# timeout: 600
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands prometheus prometheus-pushgateway iperf3 curl python3
host_iperf3
IPERF=$IPERF_PORT
start_pushgateway || { bad "the Pushgateway starts"; finish; }
mkdir -p "$T/rules"
sed 's/ > 300)/ > 20)/' tools/monitoring/bootbench-rules.yml > "$T/rules/bootbench-rules.yml"
check "the rules' silence threshold is set to 20 s for the test" sh -c "[ \$(grep -c ' > 20)' '$T/rules/bootbench-rules.yml') = 2 ]"
RULES=$T/rules/bootbench-rules.yml start_prometheus || { bad "Prometheus starts"; finish; }
P=http://127.0.0.1:$PROM_PORT
M="bootbench.metrics=http://10.0.2.2:$PUSH_PORT"
rack_guest rack-pass "$M bootbench.run=smoke bootbench.scale=$SMOKE_SCALE bootbench.targets=all bootbench.destroy=all bootbench.after=poweroff"
pass=$!
# rack-fail's link slowed (its packets let go every 20 ms; issue 49): iperf3 fails the bar all
# the same, and no longer keeps the guest busy for its 10 s
rack_guest rack-fail "$M bootbench.run=burnin bootbench.burnin=net,bmc bootbench.duration=10s bootbench.iperf=10.0.2.2:$IPERF \
bootbench.burnin_net_min_mbps=100000 bootbench.after=poweroff" --net-delay 20
fail=$!
rack_guest rack-killed "$M bootbench.run=quick bootbench.targets=all bootbench.destroy=all bootbench.after=poweroff"
killed=$!
# rack-killed: stopped once Prometheus has seen its run going
i=0
until prom_query 'bootbench_state{machine="RACK-KILLED",state="running"} == 1' | grep -q '"RACK-KILLED"' || [ $i -ge 600 ]; do
	sleep 0.5; i=$((i + 1))
done
prom_query 'bootbench_state{machine="RACK-KILLED",state="running"} == 1' > "$T/running.json"
check "rack-killed's run is seen running in Prometheus" grep -q '"RACK-KILLED"' "$T/running.json"
# the rack's list: the three, and one never booted (listed by MAC)
printf 'position,serial,mac\nU1,rack-pass,\nU2,rack-fail,\nU3,rack-killed,\nU4,,52:54:00:0f:ff:04\n' > "$T/rack.csv"
"$BB" fleet --expect="$T/rack.csv" --prometheus="$P" > "$T/fleet-live.txt" 2>&1
sed 's/^/    /' "$T/fleet-live.txt"
check "bootbench fleet from Prometheus: rack-killed running, with its progress" \
	grep -Eq '^4 +U3 +rack-killed +running +[0-9]+% done.*last push [0-9]+ s ago' "$T/fleet-live.txt"
# a finished run's disk is no outlier's (issue 46, item 1): once rack-pass's
# last push is there (its run over, rack-killed's 40 s one still going)
i=0
until prom_query 'bootbench_state{machine="RACK-PASS",state="pass"} == 1' | grep -q '"RACK-PASS"' || [ $i -ge 240 ]; do
	sleep 0.5; i=$((i + 1))
done
sleep 3	# scrapes and evaluations of that last push
prom_query 'bootbench_iops{machine="RACK-PASS"}' > "$T/fin-pushed.json"
prom_query 'bootbench:disk_iops' > "$T/fin-iops.json"
prom_query 'bootbench:disk_iops:outlier or bootbench:disk_throughput:outlier' > "$T/fin-outliers.json"
check "rack-pass's finished run: its last push stays on the gateway, IOPS 0" json "$T/fin-pushed.json" \
	"len(d['data']['result']) == 2 and all(float(r['value'][1]) == 0 for r in d['data']['result'])"
check "... the rules judge only rack-killed's running disk, not rack-pass's finished one" json "$T/fin-iops.json" \
	"sorted({(r['metric']['machine'], r['metric']['disk']) for r in d['data']['result']}) == [('RACK-KILLED', 'BBNVME1')]"
check "... and record no outlier" json "$T/fin-outliers.json" "d['status'] == 'success' and d['data']['result'] == []"
pkill -KILL -f "qemu-system.*file:$T/rack-killed.log"
wait $pass $fail $killed
check "rack-pass and rack-fail powered off after their runs" sh -c \
	"grep -q 'reboot: Power down' '$T/rack-pass.log' && grep -q 'reboot: Power down' '$T/rack-fail.log'"
# the alerts: BootbenchSilent once rack-killed has been quiet 20 s
i=0
until curl -s "$P/api/v1/alerts" | grep -q '"BootbenchSilent"' || [ $i -ge 120 ]; do sleep 0.5; i=$((i + 1)); done
sleep 2
curl -s "$P/api/v1/alerts" > "$T/alerts.json"
python3 -c "import json, sys; [print('   ', a['state'], sorted(a['labels'].items())) for a in json.load(open(sys.argv[1]))['data']['alerts']]" "$T/alerts.json"
check "exactly three alerts fire: rack-fail's net FAIL and bmc ERROR, rack-killed silent with its disk" json "$T/alerts.json" \
	"sorted((a['labels']['alertname'], a['labels']['machine'], a['labels'].get('component', a['labels'].get('disk')))
	        for a in d['data']['alerts'] if a['state'] == 'firing') ==
	 [('BootbenchBurninError', 'RACK-FAIL', 'bmc'), ('BootbenchBurninFailed', 'RACK-FAIL', 'net'),
	  ('BootbenchSilent', 'RACK-KILLED', 'BBNVME1')]"
check "... and none names rack-pass" json "$T/alerts.json" "all(a['labels']['machine'] != 'RACK-PASS' for a in d['data']['alerts'])"
check "... each says what to do" json "$T/alerts.json" "all(len(a['annotations']['action']) > 40 for a in d['data']['alerts'])"
# bootbench fleet: the share (each guest's results, cut from its console) and Prometheus
for g in rack-pass rack-fail rack-killed; do
	for f in status.json burnin.json inventory.json; do
		console_file "$f" "$T/$g.log" && mkdir -p "$T/share/$g" && cp "$T/console-$f" "$T/share/$g/$f"
	done
done
"$BB" fleet --expect="$T/rack.csv" --prometheus="$P" --silent-after=20 --output="$T/fleet.html" "$T/share" > "$T/fleet.txt" 2>&1
frc=$?
sed 's/^/    /' "$T/fleet.txt"
check "bootbench fleet: rack-pass passed, rack-fail failed (net FAIL, bmc ERROR), rack-killed silent, U4 never seen; exit 1" sh -c \
	"[ $frc = 1 ] && grep -Eq '^2 +U1 +rack-pass +passed ' '$T/fleet.txt' &&
	 grep -Eq '^3 +U2 +rack-fail +failed +net FAIL, bmc ERROR; burnin ended' '$T/fleet.txt' &&
	 grep -Eq '^4 +U3 +rack-killed +silent +silent since [0-9-]+ [0-9:]+ UTC' '$T/fleet.txt' &&
	 grep -Eq '^5 +U4 +52:54:00:0f:ff:04 +never seen' '$T/fleet.txt'"
python3 tests/dashboard_check.py tools/monitoring/bootbench-dashboard.json "$P" Outliers Temperatures:B > "$T/queries" 2>&1
qrc=$?
cat "$T/queries"
check "every dashboard panel's query returns series (Outliers and the CPUs' temperatures: none in this rack)" [ $qrc = 0 ]
check "... the disks' temperatures are there" grep -q '^Temperatures  *A  *[1-9]' "$T/queries"
# rack-killed's newer run (issue 46, item 2): the smoke profile on a virtio
# disk (BBVIRTIO2, a group of its own: its pushes do not overwrite the
# killed run's BBNVME1 group, whose last push came before it started)
truncate -s 1G "$T/rack-killed-new.img"
rack_guest rack-killed "$M bootbench.run=smoke bootbench.scale=$SMOKE_SCALE bootbench.targets=vda bootbench.destroy=vda bootbench.after=poweroff" \
	--disk virtio:"$T/rack-killed-new.img"
wait $!
check "rack-killed's newer run passed on its virtio disk and powered off" sh -c \
	"grep -q 'run: smoke on /dev/vda: exit status 0' '$T/rack-killed.log' && grep -q 'reboot: Power down' '$T/rack-killed.log'"
i=0
while curl -s "$P/api/v1/alerts" | grep -q '"BootbenchSilent"' && [ $i -lt 40 ]; do sleep 0.5; i=$((i + 1)); done
sleep 2	# an evaluation of the newer run's last push
curl -s "$P/api/v1/alerts" > "$T/alerts-again.json"
prom_query 'bootbench:run_superseded{machine="RACK-KILLED"}' > "$T/superseded.json"
prom_query 'bootbench_state{machine="RACK-KILLED",disk="BBNVME1",state="running"} == 1' > "$T/killed-still.json"
check "the killed run's group is still on the gateway, running" json "$T/killed-still.json" "len(d['data']['result']) == 1"
check "... and superseded by the newer run (its disk, not the newer one's)" json "$T/superseded.json" \
	"[r['metric']['disk'] for r in d['data']['result']] == ['BBNVME1']"
check "... BootbenchSilent fires no more; rack-fail's two alerts still do" json "$T/alerts-again.json" \
	"sorted((a['labels']['alertname'], a['labels']['machine']) for a in d['data']['alerts'] if a['state'] == 'firing') ==
	 [('BootbenchBurninError', 'RACK-FAIL'), ('BootbenchBurninFailed', 'RACK-FAIL')]"
"$BB" fleet --expect="$T/rack.csv" --prometheus="$P" --silent-after=20 > "$T/fleet-again.txt" 2>&1
sed 's/^/    /' "$T/fleet-again.txt"
check "... fleet --prometheus: rack-killed passed (its newer run), not silent" \
	grep -Eq '^4 +U3 +rack-killed +passed +ended [0-9-]+ [0-9:]+ UTC \(Prometheus; no results on the share yet\)' "$T/fleet-again.txt"
finish
