# SPDX-License-Identifier: MIT
# The rack's dashboard and rules against a real Prometheus (Debian's), on
# loopback, scraping a real Pushgateway that real bootbench runs push to:
#   - the dashboard's JSON has what Grafana's schema requires and an import
#     needs (tests/dashboard_check.py), and a planted fault is named;
#   - four runs of one job at once on four disks (loop devices), three held
#     to 600 IOPS and the fourth to 120: the rules' per-model medians name
#     exactly that one disk an outlier, by IOPS and by throughput (every run
#     is held to a rate: unheld, loop devices on a busy host spread so far
#     that no disk lies 3 MADs out, as the rule means it should not);
#   - a burn-in with a component that cannot be tested here (no BMC): the
#     BootbenchBurninError alert reaches Prometheus' /api/v1/alerts with
#     the machine and component, and no other bootbench alert fires;
#   - every query of every dashboard panel returns series.
# (Grafana itself is not in Debian: docs/operator.md says so.)
. tests/lib.sh
. tests/servers.sh
need_commands prometheus prometheus-pushgateway curl python3 losetup
python3 tests/dashboard_check.py tools/monitoring/bootbench-dashboard.json > "$T/structure" 2>&1
check "the dashboard has what Grafana's schema requires" [ $? = 0 ] || cat "$T/structure"
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['panels'][2]['gridPos']['x'] = 20; del d['panels'][3]['targets'][0]['refId']
json.dump(d, open(sys.argv[2], 'w'))" tools/monitoring/bootbench-dashboard.json "$T/bad.json"
python3 tests/dashboard_check.py "$T/bad.json" > "$T/bad" 2>&1
check "... and the check names a panel out of the grid and a query without its refId" sh -c \
	"[ $? = 1 ] && grep -q 'Progress.*outside the 24 columns' '$T/bad' && grep -q 'Time left.*without its expr or a unique refId' '$T/bad'"

start_pushgateway || { bad "the Pushgateway starts"; finish; }
start_prometheus || { bad "Prometheus starts"; finish; }
G=http://127.0.0.1:$PUSH_PORT P=http://127.0.0.1:$PROM_PORT
for i in 1 2 3 4; do
	truncate -s 64M "$T/d$i.img"
	l=$(losetup -f --show "$T/d$i.img") || { bad "a loop device for disk $i"; finish; }
	LOOPS="$LOOPS $l"
done
set -- $LOOPS
BOOTBENCH_METRICS=$G BOOTBENCH_SCALE=0.2 "$BB" burnin --components=cpu,bmc --duration=10s --limits=cpu_need_sensors=0,cpu_freq_min=0 \
	> "$T/burnin.log" 2>&1 || true
n=0 runs=""
for l in "$@"; do
	n=$((n + 1)) rate=--rate_iops=600
	[ $n = 4 ] && rate=--rate_iops=120
	"$BB" run --name=randread --filename="$l" --size=32m --rw=randread --direct=1 --iodepth=4 --time_based \
		--runtime=16 $rate --metrics="$G" > "$T/run$n.log" 2>&1 &
	runs="$runs $!"
done
# Wait until Prometheus has scraped all four and evaluated the rules, and
# the outliers and their pending alerts are there (a snapshot taken in one
# interval where a run fell behind its rate would not show them): 12 s at
# most, then what is there is judged.
i=0
until prom_query 'count(bootbench:disk_iops{direction="read"})' | grep -q '"4"\]' || [ $i -ge 40 ]; do sleep 0.25; i=$((i + 1)); done
i=0
while :; do
	prom_query 'bootbench:disk_iops{direction="read"}' > "$T/iops.json"
	prom_query 'bootbench:disk_iops:outlier' > "$T/outliers.json"
	prom_query 'bootbench:disk_throughput:outlier' > "$T/outliers_bw.json"
	curl -s "$P/api/v1/alerts" > "$T/alerts.json"
	[ $i -ge 24 ] && break
	i=$((i + 1))
	[ $(grep -o '"state":"pending"' "$T/alerts.json" | wc -l) = 2 ] && grep -q "\"disk\":\"$4\"" "$T/outliers.json" &&
		grep -q "\"disk\":\"$4\"" "$T/outliers_bw.json" && break
	sleep 0.5
done
# (loop devices have no temperature, nor has this machine's CPU a sensor the
# burn-in reads under cpu_need_sensors=0: Temperatures may be empty here)
python3 tests/dashboard_check.py tools/monitoring/bootbench-dashboard.json "$P" Temperatures > "$T/queries" 2>&1
qrc=$?
wait $runs	# (not the servers)
cat "$T/queries"
check "the four runs' IOPS beside their job (the rules' bootbench:disk_iops)" json "$T/iops.json" \
	"len(d['data']['result']) == 4 and {r['metric']['jobname'] for r in d['data']['result']} == {'randread'}"
check "the disk held to 120 IOPS is the one IOPS outlier" json "$T/outliers.json" \
	"[r['metric']['disk'] for r in d['data']['result']] == ['$4']"
check "... and the one throughput outlier" json "$T/outliers_bw.json" \
	"[r['metric']['disk'] for r in d['data']['result']] == ['$4']"
check "the burn-in's bmc ERROR reaches /api/v1/alerts, firing, with the machine and component; no other alert fires" json "$T/alerts.json" \
	"[(a['labels']['alertname'], a['labels'].get('component'), a['labels']['machine'] != '') for a in d['data']['alerts']
	  if a['state'] == 'firing'] == [('BootbenchBurninError', 'bmc', True)]"
check "... the outlier's alerts wait out their minute (pending), naming the disk" json "$T/alerts.json" \
	"sorted((a['labels']['alertname'], a['labels']['disk']) for a in d['data']['alerts'] if a['state'] == 'pending') ==
	 [('BootbenchDiskOutlier', '$4'), ('BootbenchDiskThroughputOutlier', '$4')]"
check "every dashboard panel's query returns series (Temperatures: none to show here)" [ $qrc = 0 ]
finish
