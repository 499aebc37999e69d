#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-erase.sh - bootbench erase's clear pass against the disk's own
# sequential write rate and against Debian's nwipe, on the same device in
# the same run (issue 34's speed targets). The device: a loop device with
# direct I/O over a 2 GiB tmpfs file. Each round runs, in rotating order:
#   - dd if=/dev/zero bs=1M oflag=direct: the disk's own rate, measured by
#     a tool that is not bootbench's (the engine would make the ratio
#     circular): the disk's bytes over dd's whole run;
#   - bootbench erase --method=clear (one pass of zeros, no discard, a
#     sampled read-back): the pass's rate is the disk's bytes over the
#     pass's whole time (sanitization.seconds in the certificate: the
#     engine's start, its writes and their flush);
#   - nwipe --method=zero --rounds=1 --verify=off --noblank: the disk's bytes
#     over nwipe's whole run (its own summary says 0 B/s on a loop device).
# The ratios are the medians of the rounds' own ratios. Target: clear >=
# 0.95x dd's rate; nwipe's is shown beside it.
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
def dd_rate():
    t0 = time.monotonic()
    subprocess.run(["dd", "if=/dev/zero", "of=" + dev, "bs=1M", "oflag=direct", "count=%d" % (size >> 20)],
                   check=True, capture_output=True)
    return (size >> 20 << 20) / (time.monotonic() - t0) / 1e6
def clear_rate():
    out = tmp + "/certs-%d" % time.monotonic_ns()    # certificates are never replaced: a folder each
    subprocess.run(["out/bootbench", "erase", "--method=clear", "--verify=sample", "--trim=off", "--destroy=" + dev,
                    "--output=" + out, dev], check=True, capture_output=True)
    c = json.load(open(out + "/erase-%s.json" % dev[5:]))
    return size / c["sanitization"]["seconds"] / 1e6
def nwipe_rate():
    t0 = time.monotonic()
    subprocess.run(["nwipe", "--autonuke", "--nogui", "--method=zero", "--rounds=1", "--verify=off", "--noblank", dev],
                   check=True, capture_output=True)
    return size / (time.monotonic() - t0) / 1e6
tools = [("disk (dd oflag=direct)", dd_rate), ("clear (bootbench erase)", clear_rate), ("nwipe zero", nwipe_rate)]
res = {n: [] for n, _ in tools}
for r in range(rounds):
    for k in range(len(tools)):
        n, f = tools[(k + r) % len(tools)]
        res[n].append(f())
print("erase: a %d MiB loop device (direct I/O, tmpfs), %d rounds" % (size >> 20, rounds))
for n, _ in tools:
    print("%-26s %9.0f MB/s (median; %.0f-%.0f)" % (n, statistics.median(res[n]), min(res[n]), max(res[n])))
vs_disk = statistics.median(c / d for c, d in zip(res["clear (bootbench erase)"], res["disk (dd oflag=direct)"]))
vs_nwipe = statistics.median(c / w for c, w in zip(res["clear (bootbench erase)"], res["nwipe zero"]))
print("clear / the disk's rate: %.2f (target >= 0.95)" % vs_disk)
print("clear / nwipe:           %.2f (nwipe writes 512-byte blocks: shown, not the bar)" % vs_nwipe)
print("erase target met" if vs_disk >= 0.95 else "erase target NOT met")
PY
