#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-erase.sh - bootbench erase's clear pass against the disk's own
# sequential write rate and against Debian's nwipe, on the same device in
# the same run (issue 34's speed targets). The device: a loop device with
# direct I/O over a 2 GiB tmpfs file. Each round runs, in rotating order:
#   - bootbench run: sequential 1 MiB writes, 32 in flight, direct (the
#     disk's own rate, as the engine measures it);
#   - bootbench erase --method=clear (one pass of zeros, no discard, a
#     sampled read-back): the pass's rate is the disk's bytes over the
#     pass's whole time (sanitization.seconds in the certificate: the
#     engine's start, its writes and their flush);
#   - nwipe --method=zero --rounds=1 --verify=off --noblank: the disk's bytes
#     over nwipe's whole run (its own summary says 0 B/s on a loop device).
# The ratios are the medians of the rounds' own ratios. Targets: clear >=
# 0.95x the disk's rate, and >= 1x nwipe's.
set -e
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench-erase: needs root for the loop device" >&2; exit 2; }
command -v nwipe >/dev/null || { echo "bench-erase: nwipe is missing: apt-get install nwipe" >&2; exit 2; }
ROUNDS=${ROUNDS:-5}
. scripts/bench-loop.sh
bench_loop bberase 2G
python3 - "$dev" "$dir" "$ROUNDS" <<'PY'
import json, statistics, subprocess, sys, time
dev, tmp, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = int(open("/sys/class/block/%s/size" % dev[5:]).read()) * 512
def run_rate():
    out = subprocess.run(["out/bootbench", "run", "--name=seq", "--filename=" + dev, "--rw=write", "--bs=1M",
                          "--iodepth=32", "--direct=1", "--ioengine=io_uring", "--output-format=json",
                          "--destroy=" + dev], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["jobs"][0]["write"]["bw_bytes"] / 1e6
def clear_rate():
    subprocess.run(["out/bootbench", "erase", "--method=clear", "--verify=sample", "--trim=off", "--destroy=" + dev,
                    "--output=" + tmp + "/certs", dev], check=True, capture_output=True)
    c = json.load(open(tmp + "/certs/erase-%s.json" % dev[5:]))
    return size / c["sanitization"]["seconds"] / 1e6
def nwipe_rate():
    t0 = time.monotonic()
    subprocess.run(["nwipe", "--autonuke", "--nogui", "--method=zero", "--rounds=1", "--verify=off", "--noblank", dev],
                   check=True, capture_output=True)
    return size / (time.monotonic() - t0) / 1e6
tools = [("disk (bootbench run)", run_rate), ("clear (bootbench erase)", clear_rate), ("nwipe zero", nwipe_rate)]
res = {n: [] for n, _ in tools}
for r in range(rounds):
    for k in range(len(tools)):
        n, f = tools[(k + r) % len(tools)]
        res[n].append(f())
print("erase: a %d MiB loop device (direct I/O, tmpfs), %d rounds" % (size >> 20, rounds))
for n, _ in tools:
    print("%-26s %9.0f MB/s (median; %.0f-%.0f)" % (n, statistics.median(res[n]), min(res[n]), max(res[n])))
vs_disk = statistics.median(c / d for c, d in zip(res["clear (bootbench erase)"], res["disk (bootbench run)"]))
vs_nwipe = statistics.median(c / w for c, w in zip(res["clear (bootbench erase)"], res["nwipe zero"]))
print("clear / the disk's rate: %.2f (target >= 0.95)" % vs_disk)
print("clear / nwipe:           %.2f (target >= 1)" % vs_nwipe)
print("erase targets met" if vs_disk >= 0.95 and vs_nwipe >= 1 else "erase targets NOT met")
PY
