# SPDX-License-Identifier: MIT
# The engine's threads under ThreadSanitizer (out/tsan/bootbench, built by
# make sanitize, which make test runs): two jobs of several clones each at
# once, the per-second sampler and the Ctrl-C handler beside them, once on
# psync (no suppression at all) and once on io_uring (ring memory shared
# with the kernel excused, tests/tsan.supp says why). Both must finish with
# their figures and not one report.
. tests/lib.sh
TSAN=${TSAN_BB:-$PWD/out/tsan/bootbench}
[ -x "$TSAN" ] || { echo "$TSAN is missing: run 'make sanitize'"; exit 1; }
truncate -s 64m "$T/data"
jobs="--name=mixed --rw=randrw --bs=4k --iodepth=8 --numjobs=4 --filename=$T/data --size=64m --runtime=1
	--time_based --name=seq --rw=read --bs=64k --iodepth=4 --numjobs=2 --filename=$T/data"
run_tsan() { # name supp engine
	TSAN_OPTIONS="halt_on_error=0 exitcode=66${2:+ suppressions=$2}" "$TSAN" run --ioengine="$3" $jobs \
		--output-format=json --output="$T/$1.json" > "$T/$1.out" 2> "$T/$1.err"
	rc=$?
	check "$1: the run finishes (exit $rc)" [ $rc = 0 ]
	check "$1: no ThreadSanitizer report" sh -c "! grep -q 'WARNING: ThreadSanitizer' '$T/$1.err'"
	grep -m 3 -A 12 'WARNING: ThreadSanitizer' "$T/$1.err"
	check "$1: six clones ran and moved data" json "$T/$1.json" \
		'len(d["jobs"]) == 6 and all(j["read"]["io_bytes"] > 0 for j in d["jobs"])'
}
run_tsan psync "" psync
run_tsan io_uring "$PWD/tests/tsan.supp" io_uring
# the check can fail: a real race of the kind it looks for is reported
cat > "$T/race.c" <<'EOF'
#include <pthread.h>
static int shared;
static void *bump(void *a) { shared++; return a; }
int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, bump, 0);
	for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }
EOF
if gcc -fsanitize=thread -g -o "$T/race" "$T/race.c" -lpthread 2>/dev/null; then
	TSAN_OPTIONS="halt_on_error=0" "$T/race" 2> "$T/race.err"
	check "ThreadSanitizer here reports a race where there is one" grep -q 'WARNING: ThreadSanitizer: data race' "$T/race.err"
else
	bad "gcc builds a ThreadSanitizer program"
fi
finish
