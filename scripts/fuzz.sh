#!/bin/sh
# SPDX-License-Identifier: MIT
# make fuzz: each libFuzzer harness of DIR (out/fuzz, built by make fuzz)
# for FUZZ_SECONDS (default 60), starting from its corpus in
# tests/fuzz/corpus/NAME; what it finds that covers new code is merged back
# into that corpus, minimised and kept small (inputs of at most
# FUZZ_MAX_LEN bytes, 4096 by default), for make test to replay. A crash
# stops the run with its input saved as tests/fuzz/corpus/NAME/crash-*: fix
# it, and the input stays as a regression case. The boot parameters' shell
# parser has its own harness (tests/fuzz/boot_params.sh, in make test).
# Prints one line per harness: executions, new corpus files, crashes.
set -u
DIR=${1:-out/fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
CORPUS=tests/fuzz/corpus
status=0
for h in "$DIR"/fuzz_*; do
	[ -x "$h" ] || continue
	name=$(basename "$h")
	mkdir -p "$CORPUS/$name"
	new=$(mktemp -d)
	before=$(ls "$CORPUS/$name" | wc -l)
	# leaks: the parsers' strings live as long as the process that parsed
	# them (see tests/fuzz/fuzz_jobfile.c); everything else is a finding
	ASAN_OPTIONS=detect_leaks=0 "$h" -max_total_time="$SECONDS_EACH" -max_len="$MAX_LEN" \
		-artifact_prefix="$CORPUS/$name/" -print_final_stats=1 "$new" "$CORPUS/$name" \
		> "$new.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$new.log" | tail -n 1)
	# only what adds coverage goes back, each file minimal
	ASAN_OPTIONS=detect_leaks=0 "$h" -merge=1 -max_len="$MAX_LEN" "$CORPUS/$name" "$new" > /dev/null 2>&1
	after=$(ls "$CORPUS/$name" | wc -l)
	crashes=$(ls "$CORPUS/$name" | grep -c '^\(crash\|leak\|timeout\|oom\)-')
	echo "fuzz: $name: ${execs:-0} executions in ${SECONDS_EACH} s, $((after - before)) new corpus files" \
		"($after in all), $crashes crash(es), exit $rc"
	if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
		grep -m 5 -E 'ERROR|SUMMARY|runtime error' "$new.log"
		status=1
	fi
	rm -rf "$new" "$new.log"
done
exit $status
