#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-fio-jobs.sh - issue 35's measures, on a loop device with direct I/O
# over a 256 MiB tmpfs file:
#   1. fio's own example job files (dl/src/fio-*/examples) that bootbench
#      runs itself: each run by Debian's fio 3.33 and by bootbench on the
#      same device, with the sizes cut to 16 MiB, runtimes to 2 s, loops to
#      10 (their filename= and directory= pointed at the device or a scratch
#      folder);
#      a table of the I/O counts per direction, and whether they are equal,
#      the same bytes (random sizes or mixes), or within 25% (time-bound);
#   2. what a delegated run costs: the same 4k random-read job (psync,
#      5 s) run by the image's fio alone and through `bootbench run
#      --engine-of-record=fio` (the sandbox), each's IOPS from fio's own
#      JSON, medians of ROUNDS rounds in alternating order; and the
#      sandbox's start: a null job's whole wall time, both ways.
set -e
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench-fio-jobs: needs root for the loop device" >&2; exit 2; }
command -v fio >/dev/null || { echo "bench-fio-jobs: fio is missing: apt-get install fio" >&2; exit 2; }
ROUNDS=${ROUNDS:-5}
examples=$(ls -d dl/src/fio-*/examples | head -n 1)
[ -d "$examples" ] || { echo "bench-fio-jobs: fio's examples are not in dl/src: make all" >&2; exit 2; }
[ -x out/fio/fio ] || { echo "bench-fio-jobs: out/fio/fio is not built: make all" >&2; exit 2; }
. scripts/bench-loop.sh
bench_loop bbjobs 256M
python3 - "$dev" "$dir" "$examples" "$ROUNDS" <<'PY'
import json, os, re, statistics, subprocess, sys, time
dev, tmp, examples, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
bb = os.path.abspath("out/bootbench")
env = dict(os.environ, BOOTBENCH_FIO=os.path.abspath("out/fio/fio"))

def native(name):
    p = subprocess.run([bb, "run", "--parse-only", name], cwd=examples, capture_output=True, text=True, env=env)
    return p.returncode == 0 and p.stdout.strip() == "bootbench runs it"

def cut(text):
    """The example with its targets on the device or a scratch folder, sizes and runtimes cut."""
    out = []
    for line in text.splitlines():
        key = line.split("=", 1)[0].strip()
        if key == "filename":
            line = "filename=" + dev
        elif key == "directory":
            line = "directory=" + tmp + "/files"
        elif key in ("size", "io_size", "filesize"):
            line = key + "=16m"
        elif key in ("runtime", "timeout"):
            line = key + "=2"
        elif key in ("ramp_time", "startdelay"):
            line = key + "=0"
        elif key == "loops":
            line = "loops=10"	# fsx.fio: 500000 passes
        out.append(line)
    # a rate cap (1mbs_clients: 1250 bytes a second) would take hours over 16 MiB: 3 s of it
    if re.search(r"^\s*rate", text, re.M) and not re.search(r"^\s*runtime", text, re.M):
        out.insert(0, "[global]\nruntime=3")
    return "\n".join(out) + "\n"

def counts(path):
    d = json.load(open(path))
    c = {k: sum(j[k]["total_ios"] for j in d["jobs"]) for k in ("read", "write", "trim")}
    c["bytes"] = sum(j[k]["io_bytes"] for j in d["jobs"] for k in ("read", "write", "trim"))
    return c

os.makedirs(tmp + "/files", exist_ok=True)
print("1. fio's examples that bootbench runs: I/O counts (read/write/trim), fio and bootbench")
print("%-32s %-22s %-22s %s" % ("example", "fio", "bootbench", "verdict"))
for name in sorted(os.listdir(examples)):
    if not name.endswith(".fio") or not native(name):
        continue
    job = tmp + "/" + name
    open(job, "w").write(cut(open(os.path.join(examples, name)).read()))
    timed = bool(re.search(r"^\s*(time_based|runtime|timeout)", open(job).read(), re.M))
    res = {}
    for tool, cmd in (("fio", ["fio", "--output-format=json", "--output=" + job + ".fio.json", job]),
                      ("bb", [bb, "run", "--destroy=" + dev, "--output-format=json", "--output=" + job + ".bb.json", job])):
        subprocess.run(["rm", "-rf", tmp + "/files"]); os.makedirs(tmp + "/files")
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
        except subprocess.TimeoutExpired:
            res[tool], res[tool + "_err"] = None, "%s did not end in 120 s" % tool
            continue
        res[tool] = counts(job + "." + tool + ".json") if p.returncode == 0 else None
        if p.returncode:
            res[tool + "_err"] = (p.stderr.strip().splitlines() or ["?"])[-1][:80]
    f, b = res["fio"], res["bb"]
    fmt = lambda c: "/".join(str(c[k]) for k in ("read", "write", "trim")) if c else "failed"
    if not f or not b:
        verdict = "failed: " + res.get("fio_err", res.get("bb_err", ""))
    elif f == b:
        verdict = "equal"
    elif timed and all(abs(f[k] - b[k]) <= 0.25 * max(f[k], 1) for k in f):
        verdict = "within 25% (time-bound)"
    elif not timed and f["bytes"] == b["bytes"]:
        verdict = "the same bytes; counts by random sizes or mix"
    else:
        verdict = "DIFFERENT" + (" (time-bound)" if timed else "")
    print("%-32s %-22s %-22s %s" % (name, fmt(f), fmt(b), verdict))

print()
print("2. a delegated run against the image's fio alone: 4k random reads, psync, 5 s; %d rounds" % rounds)
args = ["--name=r", "--filename=" + dev, "--rw=randread", "--bs=4k", "--ioengine=psync", "--direct=1",
        "--runtime=5", "--time_based", "--output-format=json"]
alone, sandboxed = [], []
for r in range(rounds):
    for which in (("alone", "sandbox") if r % 2 == 0 else ("sandbox", "alone")):
        cmd = ["out/fio/fio"] + args if which == "alone" else [bb, "run", "--engine-of-record=fio"] + args
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
        iops = json.loads(out)["jobs"][0]["read"]["iops"]
        (alone if which == "alone" else sandboxed).append(iops)
a, s = statistics.median(alone), statistics.median(sandboxed)
print("   IOPS: fio alone %.0f, in the sandbox %.0f: %.3fx" % (a, s, s / a))
null = ["--name=n", "--ioengine=null", "--size=1m", "--output-format=json"]
t_alone, t_sandbox = [], []
for r in range(rounds * 2):
    t = time.monotonic(); subprocess.run(["out/fio/fio"] + null, check=True, capture_output=True)
    t_alone.append(time.monotonic() - t)
    t = time.monotonic(); subprocess.run([bb, "run", "--engine-of-record=fio"] + null, check=True, capture_output=True, env=env)
    t_sandbox.append(time.monotonic() - t)
print("   a null job's wall time: fio alone %.0f ms, through the sandbox %.0f ms (the parse check and the sandbox: +%.0f ms)"
      % (1000 * statistics.median(t_alone), 1000 * statistics.median(t_sandbox),
         1000 * (statistics.median(t_sandbox) - statistics.median(t_alone))))
PY
