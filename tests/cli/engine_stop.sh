# SPDX-License-Identifier: MIT
# engine_stop.sh - every engine's loop honours the runtime and a stop request
# at every depth (issue 14 A.10: the null engine at iodepth 17 spun for as
# long as it was let, deaf to SIGTERM and SIGINT), and a clone whose thread
# cannot be started fails the run (A.11: it was dropped and the run exited 0).
. tests/lib.sh
f=$T/e.dat
head -c 16M /dev/urandom > "$f"
for eng in null io_uring psync; do
	for depth in 1 16 17 32 256; do
		args="--name=e --ioengine=$eng --rw=randread --bs=4k --filename=$f --size=16m --iodepth=$depth --time_based"
		# shellcheck disable=SC2086
		timeout -k 1 10 "$BB" run $args --runtime=0.3 > "$T/out" 2>&1
		rc=$?
		check "$eng iodepth $depth: ends on its runtime (exit $rc)" [ $rc = 0 ]
		# shellcheck disable=SC2086
		timeout -k 1 20 "$BB" run $args --runtime=60 > "$T/out" 2>&1 &
		pid=$!
		# SIGINT once bootbench catches it (SigCgt's bit 2): a job started by & in this shell
		# has SIGINT ignored until then, and timeout's forward of one sent earlier was lost
		# (a loaded host: the run still setting up at 0.5 s, it ran its 60 s, timeout's 124)
		i=0
		while [ $i -lt 100 ]; do
			bb=$(pgrep -P $pid | head -n 1)
			[ -n "$bb" ] && [ $(( 0x$(awk '/^SigCgt:/ { print $2 }' /proc/$bb/status 2>/dev/null || echo 0) & 2 )) = 2 ] && break
			sleep 0.05; i=$((i + 1))
		done
		sleep 0.3
		kill -INT $pid 2>/dev/null
		wait $pid
		rc=$?
		check "$eng iodepth $depth: SIGINT ends it, exit 1 (exit $rc)" [ $rc = 1 ]
		check "$eng iodepth $depth: ... saying it was interrupted" grep -q interrupted "$T/out"
	done
done

# A.11: no threads left for clones 2-4: exit 1, saying so. The run is a uid's of its own
# that has no other task (root ignores RLIMIT_NPROC; nobody's tasks come and go with
# the other tests), allowed three: the main thread, the sandbox's and clone 1's
# (setpriv and prlimit are util-linux's)
uid=64999
if [ -z "$(ps -L -u $uid --no-headers 2>/dev/null)" ]; then
	(cd /tmp && setpriv --reuid=$uid --regid=$uid --clear-groups prlimit --nproc=3:3 \
		"$BB" run --name=t --ioengine=null --rw=read --bs=4k --size=1m --time_based --runtime=1 --numjobs=4) \
		> "$T/out" 2>&1	# clones 0 and 1 still run when 2 and 3 are started
	rc=$?
	check "a clone whose thread cannot start: exit 1 (exit $rc)" [ $rc = 1 ]
	check "... naming the clone" grep -q "cannot start the thread of clone" "$T/out"
else
	bad "uid $uid has tasks: the test's limit would count them"
fi
finish
