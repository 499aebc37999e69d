#!/bin/sh
# SPDX-License-Identifier: MIT
# bench.sh - bootbench against Debian's fio: same job, same target, same run.
# Targets: a loop device with direct I/O over a tmpfs file, and a tmpfs file.
# Jobs: 4k randread QD1 and QD32, 4k randwrite QD32, 128k sequential read QD8.
# Each round runs both tools back to back, in alternating order. The IOPS and
# CPU columns are each tool's median over the rounds; a row's ratio is the
# median of its rounds' own ratios, because the machine drifts between rounds
# (on a 2-vCPU VM fio's own IOPS moved 1.7x) and a round compares the two
# tools under the same conditions, where the medians of the tools' figures
# would pair a fast round of one with a slow round of the other.
# CPU is the whole process tree's user+system time (getrusage of children),
# so start-up and io_uring's kernel workers (io-wq, threads of the process)
# count for both alike; the loop device's kernel worker counts for neither.
# Targets: bootbench >= fio in IOPS, <= 0.8x fio in CPU per I/O.
# Then the engines: io_uring and libaio of each tool on the loop device, the
# 4k randread jobs, medians over the rounds (a place for each, no target).
# In a KVM guest each wake-up of an idle vCPU costs the waker a VM exit and
# the wakee 17 to 20 us, unless the guest polls before it halts (cpuidle
# driver haltpoll, /sys/module/haltpoll/parameters/guest_halt_poll_ns); at
# QD1 that cost, not the engine, sets both tools' figures. The header says
# how the machine idles; BENCH_HALT_POLL_NS=N runs with guest halt polling
# set to N ns and puts the old value back afterwards.
set -e
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench: needs root for the loop device" >&2; exit 2; }
ROUNDS=${ROUNDS:-7} RUNTIME=${RUNTIME:-3}
halt_poll=/sys/module/haltpoll/parameters/guest_halt_poll_ns
if [ -n "$BENCH_HALT_POLL_NS" ]; then
	case $BENCH_HALT_POLL_NS in *[!0-9]*) echo "bench: BENCH_HALT_POLL_NS must be a number of ns, not '$BENCH_HALT_POLL_NS'" >&2; exit 2 ;; esac
	[ -w "$halt_poll" ] || { echo "bench: BENCH_HALT_POLL_NS needs the haltpoll cpuidle driver (a KVM guest): no $halt_poll" >&2; exit 2; }
fi
old_poll=$(cat "$halt_poll" 2>/dev/null || true) dev= dir=
cleanup() {
	[ -z "$dev" ] || losetup -d "$dev"
	[ -z "$dir" ] || rm -rf "$dir"
	[ -z "$BENCH_HALT_POLL_NS" ] || echo "$old_poll" > "$halt_poll"
}
trap cleanup EXIT
[ -z "$BENCH_HALT_POLL_NS" ] || echo "$BENCH_HALT_POLL_NS" > "$halt_poll"
idle="cpuidle: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"
[ -z "$old_poll" ] || idle="$idle, guest halt polling $(cat "$halt_poll") ns"
[ -z "$BENCH_HALT_POLL_NS" ] || idle="$idle (was $old_poll ns)"
echo "$idle"
dir=$(mktemp -d /dev/shm/bbbench.XXXXXX)
truncate -s 1G "$dir/backing"
dd if=/dev/urandom of="$dir/backing" bs=1M count=1024 status=none conv=notrunc
dev=$(losetup -f --show --direct-io=on "$dir/backing")
cp "$dir/backing" "$dir/file"
python3 - "$dev" "$dir/file" "$ROUNDS" "$RUNTIME" <<'PY'
import json, os, resource, statistics, subprocess, sys
dev, tfile, rounds, runtime = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
jobs = [("4k randread QD1", "randread", "4k", 1), ("4k randread QD32", "randread", "4k", 32),
        ("4k randwrite QD32", "randwrite", "4k", 32), ("128k seqread QD8", "read", "128k", 8)]
targets = [("loop, direct", dev, 1), ("tmpfs file", tfile, 0)]
tools = {"fio": ["fio"], "bootbench": ["out/bootbench", "run", "--destroy=" + dev]}
def run(tool, target, direct, rw, bs, qd, engine="io_uring"):
    args = tools[tool] + ["--name=bench", "--filename=" + target, "--rw=" + rw, "--bs=" + bs,
        "--iodepth=%d" % qd, "--ioengine=" + engine, "--direct=%d" % direct, "--size=1g",
        "--time_based", "--runtime=" + runtime, "--output-format=json", "--norandommap"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    j = json.loads(out)["jobs"][0]
    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
    iops = j["read"]["iops"] + j["write"]["iops"]
    return iops, cpu / ios * 1e6
print("%-20s %-13s %11s %11s %6s %11s %10s %10s %6s %11s" % ("job", "target", "fio IOPS", "bb IOPS", "ratio",
      "range", "fio cpu/M", "bb cpu/M", "ratio", "range"))
ok = True
for tname, target, direct in targets:
    for jname, rw, bs, qd in jobs:
        res = {"fio": [], "bootbench": []}
        for r in range(rounds):
            order = ["fio", "bootbench"] if r % 2 == 0 else ["bootbench", "fio"]
            for tool in order:
                res[tool].append(run(tool, target, direct, rw, bs, qd))
        fi = statistics.median(x[0] for x in res["fio"]); bi = statistics.median(x[0] for x in res["bootbench"])
        fc = statistics.median(x[1] for x in res["fio"]); bc = statistics.median(x[1] for x in res["bootbench"])
        iops_r = [b[0] / f[0] for f, b in zip(res["fio"], res["bootbench"])]
        cpu_r = [b[1] / f[1] for f, b in zip(res["fio"], res["bootbench"])]
        iops_ratio, cpu_ratio = statistics.median(iops_r), statistics.median(cpu_r)
        ok = ok and iops_ratio >= 0.98 and cpu_ratio <= 0.8
        print("%-20s %-13s %11.0f %11.0f %6.2f %5.2f-%-5.2f %10.2f %10.2f %6.2f %5.2f-%-5.2f" % (jname, tname, fi, bi,
              iops_ratio, min(iops_r), max(iops_r), fc, bc, cpu_ratio, min(cpu_r), max(cpu_r)))
        sys.stdout.flush()
# The engines side by side on the loop device: io_uring and libaio, each
# tool's, in rotating order per round; medians (no target: where each stands)
print()
print("%-20s %-22s %11s %10s" % ("engines (loop, direct)", "tool engine", "IOPS", "cpu/M"))
combos = [("fio", "io_uring"), ("fio", "libaio"), ("bootbench", "io_uring"), ("bootbench", "libaio")]
for jname, rw, bs, qd in [jobs[0], jobs[1]]:
    res = {c: [] for c in combos}
    for r in range(rounds):
        for k in range(len(combos)):
            c = combos[(k + r) % len(combos)]
            res[c].append(run(c[0], dev, 1, rw, bs, qd, c[1]))
    for c in combos:
        print("%-20s %-22s %11.0f %10.2f" % (jname, c[0] + " " + c[1], statistics.median(x[0] for x in res[c]),
              statistics.median(x[1] for x in res[c])))
    sys.stdout.flush()
print("CPU columns: seconds of CPU per million I/Os (user+system, whole process).")
print("ratio: the median of the rounds' ratios (bootbench / fio); range: their lowest and highest.")
print("targets met" if ok else "targets NOT met on every row")
PY
