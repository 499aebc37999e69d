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
#   - every query of every dashboard panel returns series; the
#     temperatures too (a burn-in under a fake sysfs with a CPU sensor,
#     machine TEMP-1: an empty Temperatures panel fails);
#   - issue 46: with 3 of 4 runs of a job finished (their last push at 0
#     IOPS), the one still running is no outlier; a run killed mid-way is
#     silent (the rules' 300 s set to 10 s here, the gateway's
#     push_time_seconds its clock; fleet: failed and silent, the run's bmc
#     ERROR being final) until a newer run of the machine starts,
#     which supersedes it: the alert clears and fleet --prometheus does not
#     call the machine silent.
# (Grafana itself is not in Debian: docs/operator.md says so.)
. tests/lib.sh
. tests/servers.sh
need_commands prometheus prometheus-pushgateway curl python3 losetup taskset
python3 tests/dashboard_check.py tools/monitoring/bootbench-dashboard.json > "$T/structure" 2>&1
check "the dashboard has what Grafana's schema requires" [ $? = 0 ] || cat "$T/structure"
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['panels'][4]['gridPos']['x'] = 20; del d['panels'][5]['targets'][0]['refId']
json.dump(d, open(sys.argv[2], 'w'))" tools/monitoring/bootbench-dashboard.json "$T/bad.json"
python3 tests/dashboard_check.py "$T/bad.json" > "$T/bad" 2>&1
check "... and the check names a panel out of the grid and a query without its refId" sh -c \
	"[ $? = 1 ] && grep -q 'Progress.*outside the 24 columns' '$T/bad' && grep -q 'Time left.*without its expr or a unique refId' '$T/bad'"

start_pushgateway || { bad "the Pushgateway starts"; finish; }
mkdir -p "$T/rules"
sed 's/ > 300)/ > 10)/' tools/monitoring/bootbench-rules.yml > "$T/rules/bootbench-rules.yml"
check "the rules' silence threshold is set to 10 s for the test" sh -c "[ \$(grep -c ' > 10)' '$T/rules/bootbench-rules.yml') = 2 ]"
RULES=$T/rules/bootbench-rules.yml start_prometheus || { bad "Prometheus starts"; finish; }
G=http://127.0.0.1:$PUSH_PORT P=http://127.0.0.1:$PROM_PORT
for i in 1 2 3 4; do
	truncate -s 64M "$T/d$i.img"
	l=$(losetup -f --show "$T/d$i.img") || { bad "a loop device for disk $i"; finish; }
	LOOPS="$LOOPS $l"
done
set -- $LOOPS
# the burn-in and the four runs are one run of this machine, as an
# unattended run's are (its folder's name): none supersedes another
export BOOTBENCH_RUN_ID="$(date -u +%Y%m%dT%H%M%SZ)_monitoring_run"
# both burn-ins on one CPU (issue 49: their stressors loaded both): what is checked is what they
# push; this one's cpu still PASSes (cpu_need_all=0), its bmc the one ERROR
BOOTBENCH_METRICS=$G BOOTBENCH_SCALE=0.2 taskset -c 0 "$BB" burnin --components=cpu,bmc --duration=10s \
	--limits=cpu_need_sensors=0,cpu_freq_min=0,cpu_need_all=0 > "$T/burnin.log" 2>&1 || true
# a machine of its own (TEMP-1) whose CPU has a sensor: a fake sysfs (its
# kernel log cannot be read there: its cpu is an ERROR, left out below)
mkdir -p "$T/sr/sys/class/hwmon/hwmon0" "$T/sr/sys/class/dmi/id"
# the sensor an X-Gene arm64 server's firmware gives (xgene-hwmon's apm_xgene, the SoC's
# temperature): counted as the CPU's as coretemp is, else the panel stays empty
echo apm_xgene > "$T/sr/sys/class/hwmon/hwmon0/name"
echo 45000 > "$T/sr/sys/class/hwmon/hwmon0/temp1_input"
echo TEMP-1 > "$T/sr/sys/class/dmi/id/product_serial"
BOOTBENCH_SYSROOT=$T/sr BOOTBENCH_METRICS=$G BOOTBENCH_SCALE=0.2 taskset -c 0 "$BB" burnin --components=cpu --duration=10s \
	--limits=cpu_freq_min=0 > "$T/burnin-temp.log" 2>&1 || true
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
python3 tests/dashboard_check.py tools/monitoring/bootbench-dashboard.json "$P" "Silent machines" Temperatures:A > "$T/queries" 2>&1
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
	  if a['state'] == 'firing' and a['labels']['machine'] != 'TEMP-1'] == [('BootbenchBurninError', 'bmc', True)]"
check "... the outlier's alerts wait out their minute (pending), naming the disk" json "$T/alerts.json" \
	"sorted((a['labels']['alertname'], a['labels']['disk']) for a in d['data']['alerts'] if a['state'] == 'pending') ==
	 [('BootbenchDiskOutlier', '$4'), ('BootbenchDiskThroughputOutlier', '$4')]"
check "every dashboard panel's query returns series (Silent machines: none yet; no disk temperature on loop devices)" [ $qrc = 0 ]
check "... the temperatures among them (TEMP-1's CPU)" grep -q '^Temperatures  *B  *[1-9]' "$T/queries"

# 3 of 4 runs finished, the fourth going at the same rate: it is no outlier
# (the gateway keeps the finished runs' last push, IOPS 0)
n=0 runs=""
for l in "$@"; do
	n=$((n + 1)) secs=4
	[ $n = 4 ] && secs=30
	"$BB" run --name=randread --filename="$l" --size=32m --rw=randread --direct=1 --iodepth=4 --time_based \
		--runtime=$secs --rate_iops=600 --metrics="$G" > "$T/fin$n.log" 2>&1 &
	[ $n = 4 ] && long=$! || runs="$runs $!"
done
wait $runs
sleep 4	# three scrapes and evaluations of the finished runs' last push
prom_query 'bootbench:disk_iops{direction="read"}' > "$T/fin-iops.json"
# no outlier: one interval's figure may stray under load (a 1 s window, the alerts wait a
# minute for that): an outlier that stays through 6 s of evaluations fails the check
i=0
while prom_query 'bootbench:disk_iops:outlier or bootbench:disk_throughput:outlier' > "$T/fin-outliers.json" &&
	! json "$T/fin-outliers.json" "d['data']['result'] == []" && [ $i -lt 12 ]; do
	sleep 0.5; i=$((i + 1))
done
check "3 of 4 finished: only the running disk's IOPS are judged" json "$T/fin-iops.json" \
	"[r['metric']['disk'] for r in d['data']['result']] == ['$4']"
check "... and it is no outlier" json "$T/fin-outliers.json" "d['data']['result'] == []"
json "$T/fin-outliers.json" "d['data']['result'] == []" ||
	for q in 'bootbench:disk_iops:recent{direction="read"}' bootbench:disk_iops:median_by_model bootbench:disk_iops:mad_by_model \
		'bootbench:disk_throughput:recent' 'bootbench:disk_iops:outlier or bootbench:disk_throughput:outlier'; do
		echo "    $q: $(prom_query "$q" | python3 -c "import json,sys; print([(r['metric'].get('disk'), r['value'][1]) for r in json.load(sys.stdin)['data']['result']])")"
	done
kill -KILL $long; wait $long 2>/dev/null

# the killed run goes silent (10 s here), then a newer run of the machine supersedes it
i=0
until curl -s "$P/api/v1/alerts" | grep -q '"BootbenchSilent"' || [ $i -ge 60 ]; do sleep 0.5; i=$((i + 1)); done
curl -s "$P/api/v1/alerts" > "$T/silent.json"
check "the killed run: BootbenchSilent fires for its disk" json "$T/silent.json" \
	"[a['labels']['disk'] for a in d['data']['alerts'] if a['labels']['alertname'] == 'BootbenchSilent'] == ['$4']"
printf 'serial\n%s\n' "$(curl -s "$G/metrics" | grep '^bootbench_state{' | grep "disk=\"$4\"" | sed -n 's/.*machine="\([^"]*\)".*/\1/p' | head -n1)" > "$T/rack.csv"
# its burn-in's bmc ERROR, pushed before, is final (issue 46): failed, and said silent. The
# alert and fleet each read the silence at their own moment (the rule's evaluation, fleet's
# clock against the last push): fleet is asked again, for up to 20 s, as silence only grows
silent_said() { grep -Eq '^2 .* failed +bmc ERROR; pushed while its run went on \(a FAIL is final\); silent since' "$T/fleet-silent.txt"; }
i=0
while :; do
	"$BB" fleet --expect="$T/rack.csv" --prometheus="$P" --silent-after=10 > "$T/fleet-silent.txt" 2>&1
	silent_said || [ $i -ge 20 ] && break
	sleep 1; i=$((i + 1))
done
check "... fleet --prometheus calls the machine failed (its bmc ERROR), silent (asked $((i + 1)) times)" silent_said
silent_said || sed 's/^/    /' "$T/fleet-silent.txt"
env -u BOOTBENCH_RUN_ID "$BB" run --name=again --filename="$1" --size=32m --rw=randread --direct=1 --time_based --runtime=30 --rate_iops=100 \
	--metrics="$G" > "$T/again.log" 2>&1 &
again=$!
i=0
while curl -s "$P/api/v1/alerts" | grep -q '"BootbenchSilent"' && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
curl -s "$P/api/v1/alerts" > "$T/superseded.json"
prom_query 'bootbench:run_superseded' > "$T/superseded-groups.json"
check "a newer run of the machine: the killed run's group is superseded" json "$T/superseded-groups.json" \
	"'$4' in [r['metric'].get('disk') for r in d['data']['result']]"
check "... and BootbenchSilent cleared" json "$T/superseded.json" \
	"[a for a in d['data']['alerts'] if a['labels']['alertname'] == 'BootbenchSilent'] == []"
"$BB" fleet --expect="$T/rack.csv" --prometheus="$P" --silent-after=10 > "$T/fleet-again.txt" 2>&1
sed 's/^/    /' "$T/fleet-again.txt"
check "... fleet --prometheus: the machine running (its newer run), not silent" grep -Eq '^2 .* running ' "$T/fleet-again.txt"
kill $again; wait $again 2>/dev/null
sed "s/^/    again: /" "$T/again.log" | tail -n 5
finish
