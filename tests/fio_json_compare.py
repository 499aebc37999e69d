#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# fio_json_compare.py FIO.json BOOTBENCH.json [--timed] [--counts]: the
# checks every fio cross-check makes of two reports of the same job file:
# the same JSON keys (ours adds only "bootbench"), the same job and global
# options, the same directions moved, fio's sync count (ours may add the
# last one); IOPS within x8 either way for jobs of 500 ms or more, per
# CPU-second where both used 5% of a CPU or more (--timed:
# at least one such job must be there); --counts: the same I/O counts per
# direction (size-bound jobs). Prints each difference; exit 1 if any.
import json, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
timed, counts = '--timed' in sys.argv, '--counts' in sys.argv
fio, bb = (json.load(open(p)) for p in args[:2])
problems = []
DATA = {'bins', 'percentile', 'job options', 'global options'}

def walk(a, b, path):
    if isinstance(a, dict):
        if not isinstance(b, dict):
            problems.append(f"{path}: not an object"); return
        ka, kb = set(a), set(b)
        if path == '':
            kb -= {'bootbench'}
        if ka - kb: problems.append(f"{path}: missing {sorted(ka - kb)}")
        if kb - ka: problems.append(f"{path}: extra {sorted(kb - ka)}")
        for k in ka & kb:
            if k not in DATA:
                walk(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list) and path.endswith('/jobs'):
        if len(a) != len(b): problems.append(f"{path}: {len(a)} jobs vs {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)): walk(x, y, f"{path}[{i}]")
    elif isinstance(a, list) and a and b:
        walk(a[0], b[0], path + '[0]')

walk(fio, bb, '')
compared = 0
for x, y in zip(fio['jobs'], bb['jobs']):
    if x.get('job options') != y.get('job options'):
        problems.append(f"job options differ: {x.get('job options')} vs {y.get('job options')}")
    for d in ('read', 'write', 'trim'):
        a, b = x[d]['iops'], y[d]['iops']
        if (a > 0) != (b > 0):
            problems.append(f"{x['jobname']} {d}: only one tool did {d}s")
        if counts and x[d]['total_ios'] != y[d]['total_ios']:
            problems.append(f"{x['jobname']} {d} I/Os: fio {x[d]['total_ios']}, bootbench {y[d]['total_ios']}")
        if counts and x[d]['io_bytes'] != y[d]['io_bytes']:
            problems.append(f"{x['jobname']} {d} bytes: fio {x[d]['io_bytes']}, bootbench {y[d]['io_bytes']}")
        # runs of a few milliseconds on the page cache say nothing about IOPS
        if min(x['job_runtime'], y['job_runtime']) < 500 or d == 'trim':
            continue
        compared += 1
        # x8 either way: the band catches a broken engine (an order of magnitude
        # off), not speed (benchmarks measure speed: make bench); that the I/Os
        # reached the device is checked on its own counters (fio_compat.sh:
        # reads served by the page cache once came out 10x fio's)
        # IOs per CPU-second where both jobs say what CPU they used: two runs of a job bound
        # by the CPU (the page cache) on a loaded host get what share of it the host leaves
        # them (exitall's psync reads: fio 38702 IOPS, ours 814605 in a suite's run)
        ca, cb = (j.get('usr_cpu', 0) + j.get('sys_cpu', 0) for j in (x, y))
        ra, rb = (a * 100 / ca, b * 100 / cb) if ca >= 5 and cb >= 5 else (a, b)
        if a > 0 and not 0.125 <= rb / ra <= 8:
            problems.append(f"{x['jobname']} {d} iops: fio {a:.0f}, bootbench {b:.0f}" +
                            (f" (per CPU-second: fio {ra:.0f} at {ca:.0f}%, bootbench {rb:.0f} at {cb:.0f}%)"
                             if (ra, rb) != (a, b) else ""))
    # fio skips the fsync after the last write (it syncs before the next one); we do not
    if not 0 <= y['sync']['total_ios'] - x['sync']['total_ios'] <= 1:
        problems.append(f"{x['jobname']} sync count: fio {x['sync']['total_ios']}, ours {y['sync']['total_ios']}")
if timed and not compared:
    problems.append("no job ran 500 ms or more: the IOPS band compared nothing")
if fio.get('global options') != bb.get('global options'):
    problems.append(f"global options differ: {fio.get('global options')} vs {bb.get('global options')}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
