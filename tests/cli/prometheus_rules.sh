# SPDX-License-Identifier: MIT
# The Prometheus rules a rack loads (tools/monitoring/bootbench-rules.yml):
# promtool (Debian's Prometheus) checks them, and its unit tests
# (tests/data/prometheus/bootbench-rules.test.yml) feed series that make
# each alert fire and, beside them, the ones that must not: a failed run,
# a burn-in FAIL and ERROR, a machine silent while its run goes on (not one
# whose run ended), a disk far from its model's median (not one of a noisy
# model, nor of a model with too few disks), a hot disk, a drive counter or
# the BMC's log that grew; issue 46: a finished run's last push (IOPS 0)
# is no outlier and no running disk is judged against it, a newer run of
# the machine supersedes its older groups (a killed run's silence, an old
# FAIL) while runs at the same time do not, silence is the gateway's
# push_time_seconds (a machine clock an hour behind is not silent), and
# pending sectors are a gauge (a fall is no growth). Every bootbench_
# series the rules read must be one bootbench pushes, so that a renamed
# series cannot leave a rule watching nothing.
. tests/lib.sh
need_commands promtool
RULES=tools/monitoring/bootbench-rules.yml
promtool check rules "$RULES" > "$T/check.log" 2>&1
check "promtool check rules: the file is valid" [ $? = 0 ] || cat "$T/check.log"
(cd tests/data/prometheus && promtool test rules bootbench-rules.test.yml) > "$T/test.log" 2>&1
check "promtool test rules: each alert fires where it must and nowhere else" [ $? = 0 ] || cat "$T/test.log"
# the series the rules read (recording rules' own names have a colon)
grep -o 'bootbench_[a-z_]*' "$RULES" | sort -u > "$T/read"
for s in $(cat "$T/read"); do
	check "$s is a series bootbench pushes" grep -rqF "\"$s" --include=*.c tools/bootbench
done
check "the rules read the series of runs, burn-ins and disks" [ "$(wc -l < "$T/read")" -ge 10 ]
# each alert has its test cases (promtool above runs them)
for a in $(awk '/- alert:/ { print $3 }' "$RULES"); do
	check "alert $a has its test cases" grep -q "alertname: $a\$" tests/data/prometheus/bootbench-rules.test.yml
done
finish
