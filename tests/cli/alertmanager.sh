# SPDX-License-Identifier: MIT
# Alertmanager's inhibition between bootbench's alerts
# (tools/monitoring/alertmanager-inhibit.yml), in Debian's Alertmanager on
# loopback: amtool checks a configuration with the snippet appended; then
# with BootbenchBmcCriticalEvent firing for one machine, that machine's
# BootbenchBurninFailed is suppressed (inhibited by it) and another
# machine's is not; BootbenchSilent mutes the same machine's stale
# outlier, not another's.
. tests/lib.sh
. tests/servers.sh
need_commands prometheus-alertmanager amtool curl python3
AM_CONFIG=$T/alertmanager.yml
cat > "$AM_CONFIG" <<CONF
route:
  receiver: none
  group_wait: 1h
receivers:
  - name: none
CONF
cat tools/monitoring/alertmanager-inhibit.yml >> "$AM_CONFIG"
amtool check-config "$AM_CONFIG" > "$T/check.log" 2>&1
check "amtool check-config: the snippet appended to a configuration is valid, with its 2 inhibit rules" sh -c \
	"grep -q SUCCESS '$T/check.log' && grep -q ' - 2 inhibit rules' '$T/check.log'" || cat "$T/check.log"
start_alertmanager || { bad "Alertmanager starts"; finish; }
A=http://127.0.0.1:$AM_PORT
add() { amtool --alertmanager.url="$A" alert add "$@" > /dev/null 2>&1; }
add alertname=BootbenchBmcCriticalEvent machine=M1 severity=critical component=bmc figure=sel_critical_events
add alertname=BootbenchBurninFailed machine=M1 severity=critical component=memory
add alertname=BootbenchBurninFailed machine=M2 severity=critical component=cpu
add alertname=BootbenchSilent machine=M3 disk=S3 severity=critical
add alertname=BootbenchDiskOutlier machine=M3 disk=S3 severity=warning
add alertname=BootbenchDiskOutlier machine=M4 disk=S4 severity=warning
# inhibition is worked out as the alerts are read: wait until all six are there
i=0
until [ "$(curl -s "$A/api/v2/alerts" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 6 ] || [ $i -ge 50 ]; do
	sleep 0.2; i=$((i + 1))
done
curl -s "$A/api/v2/alerts" > "$T/alerts.json"
python3 -c "import json, sys; [print('   ', a['labels']['alertname'], a['labels']['machine'], a['status']['state'])
                               for a in json.load(open(sys.argv[1]))]" "$T/alerts.json"
state() { # alertname machine
	python3 -c "import json, sys; print(*[a['status']['state'] for a in json.load(open(sys.argv[1]))
	            if a['labels']['alertname'] == sys.argv[2] and a['labels']['machine'] == sys.argv[3]])" "$T/alerts.json" "$1" "$2"
}
check "M1's BMC critical event: active" [ "$(state BootbenchBmcCriticalEvent M1)" = active ]
check "... M1's burn-in FAIL suppressed by it" [ "$(state BootbenchBurninFailed M1)" = suppressed ]
check "... M2's burn-in FAIL (no BMC event there) active" [ "$(state BootbenchBurninFailed M2)" = active ]
check "M3 silent: its disk's stale outlier suppressed, M4's outlier active" sh -c \
	"[ '$(state BootbenchDiskOutlier M3)' = suppressed ] && [ '$(state BootbenchDiskOutlier M4)' = active ]"
amtool --alertmanager.url="$A" alert query --inhibited alertname=BootbenchBurninFailed -o simple > "$T/inhibited" 2>&1
check "amtool lists M1's burn-in FAIL among the inhibited" sh -c "grep -q BootbenchBurninFailed '$T/inhibited'" || cat "$T/inhibited"
finish
