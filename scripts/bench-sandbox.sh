#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-sandbox.sh - what the sandbox costs the native engine (issue 44:
# no loss beyond 2%): bootbench as it is against bootbench built from
# BASE (default 9d16a10, the last commit before the engine's threads were
# confined), the same jobs on the same targets, in alternating order per
# round. Jobs: 4k randread QD1 and QD32 (io_uring), 4k randread QD1 psync,
# 4k randwrite QD32 (io_uring) on a loop device with direct I/O over tmpfs,
# and 4k randread QD1 psync on a tmpfs file. A row's ratio is the median
# of its rounds' ratios (sandboxed / base), for IOPS and for CPU per I/O.
# Target: IOPS ratio >= 0.98 and CPU ratio <= 1.02 on every row.
set -e
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench-sandbox: needs root for the loop device" >&2; exit 2; }
[ -x out/bootbench ] || { echo "bench-sandbox: out/bootbench is not built: make all" >&2; exit 2; }
ROUNDS=${ROUNDS:-7} RUNTIME=${RUNTIME:-3} BASE=${BASE:-9d16a10}
base_src=out/bench-base/src base_out=$PWD/out/bench-base/out
# the base build: a worktree of BASE with this checkout's downloads, built once per commit
if [ "$(cat out/bench-base/rev 2>/dev/null)" != "$(git rev-parse "$BASE")" ] || [ ! -x "$base_out/bootbench" ]; then
	rm -rf out/bench-base && git worktree prune
	git worktree add --detach "$base_src" "$BASE" >/dev/null
	ln -s "$PWD/dl" "$base_src/dl"
	make -C "$base_src" --no-print-directory OUT="$base_out" -j"$(nproc)" all >/dev/null
	git rev-parse "$BASE" > out/bench-base/rev
fi
. scripts/bench-loop.sh
bench_loop bbsandbox 1G
dd if=/dev/urandom of="$dir/backing" bs=1M count=1024 status=none conv=notrunc
cp "$dir/backing" "$dir/file"
python3 - "$dev" "$dir/file" "$ROUNDS" "$RUNTIME" "$base_out/bootbench" "$(git rev-parse --short "$BASE")" <<'PY'
import json, resource, statistics, subprocess, sys
dev, tfile, rounds, runtime, base, base_rev = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
tools = {"base": base, "sandboxed": "out/bootbench"}
jobs = [("4k randread QD1", "loop", "randread", 1, "io_uring"), ("4k randread QD32", "loop", "randread", 32, "io_uring"),
        ("4k randread QD1 psync", "loop", "randread", 1, "psync"), ("4k randwrite QD32", "loop", "randwrite", 32, "io_uring"),
        ("4k randread QD1 psync", "tmpfs", "randread", 1, "psync")]
def run(tool, target, rw, qd, engine):
    args = [tools[tool], "run", "--destroy=" + dev, "--name=bench", "--filename=" + (dev if target == "loop" else tfile),
            "--rw=" + rw, "--bs=4k", "--iodepth=%d" % qd, "--ioengine=" + engine, "--direct=%d" % (target == "loop"),
            "--size=1g", "--time_based", "--runtime=" + runtime, "--output-format=json", "--norandommap"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    j = json.loads(out)["jobs"][0]
    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
    return j["read"]["iops"] + j["write"]["iops"], cpu / ios * 1e6
print("base: bootbench at %s; sandboxed: out/bootbench; %d rounds of %s s" % (base_rev, rounds, runtime))
print("%-22s %-6s %11s %11s %6s %11s %9s %9s %6s %11s" % ("job", "target", "base IOPS", "sbx IOPS", "ratio", "range",
      "base cpu", "sbx cpu", "ratio", "range"))
ok = True
for name, target, rw, qd, engine in jobs:
    res = {"base": [], "sandboxed": []}
    for r in range(rounds):
        for tool in (["base", "sandboxed"] if r % 2 == 0 else ["sandboxed", "base"]):
            res[tool].append(run(tool, target, rw, qd, engine))
    iops_r = [s[0] / b[0] for b, s in zip(res["base"], res["sandboxed"])]
    cpu_r = [s[1] / b[1] for b, s in zip(res["base"], res["sandboxed"])]
    ir, cr = statistics.median(iops_r), statistics.median(cpu_r)
    ok = ok and ir >= 0.98 and cr <= 1.02
    print("%-22s %-6s %11.0f %11.0f %6.3f %5.2f-%-5.2f %9.2f %9.2f %6.3f %5.2f-%-5.2f" % (name, target,
          statistics.median(x[0] for x in res["base"]), statistics.median(x[0] for x in res["sandboxed"]), ir,
          min(iops_r), max(iops_r), statistics.median(x[1] for x in res["base"]),
          statistics.median(x[1] for x in res["sandboxed"]), cr, min(cpu_r), max(cpu_r)))
    sys.stdout.flush()
print("cpu: seconds of CPU per million I/Os (user+system, whole process); ratio: median of the rounds' ratios.")
print("target met: no loss beyond 2%" if ok else "target NOT met on every row (a loss beyond 2%)")
PY
